/**
 * The scan's scheduling, timeouts, retries and abort, driven by a scripted connect engine
 * (no sockets): each port's behaviour is decided by the test.
 */
import { describe, expect, it } from 'vitest';
import { ScanResourceError } from '../../../../server/scanner/net/sweep-lane.ts';
import { scanTcpPorts } from '../../../../server/scanner/net/tcp-scan.ts';
import { ScriptedConnector } from '../../../helpers/scripted-connector.ts';
import { portRange } from '../../../helpers/ports.ts';

const allow = (): void => {};

describe('scanTcpPorts scheduling', () => {
  it('reports open, closed and filtered ports from the engine outcomes', async () => {
    const engine = new ScriptedConnector((_address, port) =>
      port % 10 === 0 ? 'open' : port === 7 ? 'unreachable' : port === 13 ? 'silent' : 'closed',
    );
    const result = await scanTcpPorts({
      address: '192.0.2.1', // never connected to: the scripted engine opens no sockets
      ports: portRange(1, 40),
      assertAllowed: allow,
      engine,
      timeoutMs: 150,
      minTimeoutMs: 20,
    });
    expect(result.openPorts).toEqual([10, 20, 30, 40]);
    expect(result.filteredPorts).toEqual([7, 13]);
    expect(result.closedCount).toBe(34);
    expect(result.stats.engine).toBe('scripted');
  });

  it('retries a port whose attempt timed out, once by default, cancelling the stale attempt', async () => {
    const engine = new ScriptedConnector((_address, port, tries) =>
      port === 5 ? (tries === 1 ? 'silent' : 'open') : 'closed',
    );
    const result = await scanTcpPorts({
      address: '192.0.2.1',
      ports: portRange(1, 10),
      assertAllowed: allow,
      engine,
      timeoutMs: 100,
      minTimeoutMs: 20,
    });
    expect(result.openPorts).toEqual([5]);
    expect(engine.triesOf(5)).toBe(2);
    expect(engine.cancelledPorts()).toEqual([5]);
    expect(result.stats.timeouts).toBe(1);
  });

  it('gives up on a port that never answers after the configured retries', async () => {
    const engine = new ScriptedConnector((_address, port) => (port === 3 ? 'silent' : 'closed'));
    const result = await scanTcpPorts({
      address: '192.0.2.1',
      ports: portRange(1, 5),
      assertAllowed: allow,
      engine,
      timeoutMs: 60,
      minTimeoutMs: 20,
      retries: 2,
    });
    expect(result.filteredPorts).toEqual([3]);
    expect(engine.triesOf(3)).toBe(3);
  });

  it('never has more attempts in flight than the concurrency ceiling', async () => {
    const engine = new ScriptedConnector(() => 'closed', { delayMs: 1 });
    await scanTcpPorts({
      address: '192.0.2.1',
      ports: portRange(1, 300),
      assertAllowed: allow,
      engine,
      concurrency: 7,
    });
    expect(engine.maxInFlight).toBe(7);
    expect(new Set(engine.startedPorts()).size).toBe(300);
  });

  it('puts a port back when the machine is out of sockets and scans it later', async () => {
    let shortages = 3;
    const engine = new ScriptedConnector(() => (shortages-- > 0 ? 'resource' : 'closed'));
    const result = await scanTcpPorts({
      address: '192.0.2.1',
      ports: [1, 2, 3, 4],
      assertAllowed: allow,
      engine,
    });
    expect(result.closedCount).toBe(4);
    expect(result.stats.resourceShortages).toBe(3);
  });

  it('fails with ScanResourceError when sockets stay unavailable', async () => {
    const engine = new ScriptedConnector(() => 'resource');
    const started = performance.now();
    const scan = scanTcpPorts({
      address: '192.0.2.1',
      ports: [1],
      assertAllowed: allow,
      engine,
      resourceWaitMs: 300,
    });
    await expect(scan).rejects.toBeInstanceOf(ScanResourceError);
    expect(performance.now() - started).toBeGreaterThanOrEqual(300);
  });

  it('reports progress up to the total', async () => {
    const engine = new ScriptedConnector((_address, port) => (port === 2 ? 'open' : 'closed'));
    const seen: { scanned: number; total: number; openPorts: readonly number[] }[] = [];
    await scanTcpPorts({
      address: '192.0.2.1',
      ports: portRange(1, 50),
      assertAllowed: allow,
      engine,
      onProgress: (progress) => seen.push(progress),
    });
    expect(seen.at(-1)).toEqual({ scanned: 50, total: 50, openPorts: [2] });
  });
});

describe('scanTcpPorts abort', () => {
  it('cancels every pending attempt, starts nothing more, and rejects with the abort reason', async () => {
    const engine = new ScriptedConnector(() => 'silent');
    const controller = new AbortController();
    const scan = scanTcpPorts({
      address: '192.0.2.1',
      ports: portRange(1, 1000),
      assertAllowed: allow,
      engine,
      signal: controller.signal,
      concurrency: 50,
      initialConcurrency: 50,
      timeoutMs: 10_000,
    });
    await expect.poll(() => engine.inFlight).toBe(50);
    const reason = new Error('cancelled by the user');
    const abortedAt = performance.now();
    controller.abort(reason);
    await expect(scan).rejects.toBe(reason);
    expect(performance.now() - abortedAt).toBeLessThan(500);
    expect(engine.inFlight).toBe(0);
    expect(engine.cancelled).toHaveLength(50);
    expect(engine.started).toHaveLength(50);
  });

  it('starts nothing when the signal is already aborted', async () => {
    const engine = new ScriptedConnector(() => 'open');
    const scan = scanTcpPorts({
      address: '192.0.2.1',
      ports: [1, 2, 3],
      assertAllowed: allow,
      engine,
      signal: AbortSignal.abort(),
    });
    await expect(scan).rejects.toThrow();
    expect(engine.started).toEqual([]);
  });
});

describe('scanTcpPorts input checks', () => {
  it('refuses names and other non-IP targets before asking the scope policy', async () => {
    const engine = new ScriptedConnector(() => 'open');
    let asked = false;
    for (const address of ['localhost', 'example.com', '127.0.0.1:80', '', '10.0.0.0/8']) {
      await expect(
        scanTcpPorts({ address, ports: [80], assertAllowed: () => void (asked = true), engine }),
      ).rejects.toThrow(/not an IP address/);
    }
    expect(asked).toBe(false);
    expect(engine.started).toEqual([]);
  });

  it('starts no attempt when the scope policy refuses the address', async () => {
    const engine = new ScriptedConnector(() => 'open');
    const refusal = new Error('TARGET_NOT_ALLOWED');
    await expect(
      scanTcpPorts({
        address: '192.0.2.1',
        ports: [80],
        engine,
        assertAllowed: async () => {
          throw refusal;
        },
      }),
    ).rejects.toBe(refusal);
    expect(engine.started).toEqual([]);
  });

  it('rejects ports outside 1-65535', async () => {
    const engine = new ScriptedConnector(() => 'open');
    await expect(
      scanTcpPorts({ address: '192.0.2.1', ports: [0], assertAllowed: allow, engine }),
    ).rejects.toThrow(RangeError);
  });
});
