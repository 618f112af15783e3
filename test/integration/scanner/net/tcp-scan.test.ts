/**
 * The port scanner against real sockets: loopback listeners on a random 127.x.y.z address,
 * in a port band below the ephemeral range, so the only listeners there are ours.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { scanTcpPorts } from '../../../../server/scanner/net/tcp-scan.ts';
import { fastestConnector } from '../../../../server/scanner/net/connectors.ts';
import { closeAll, startSpacedListeners, type FixtureListener } from '../../../fixtures/listeners.ts';
import { portRange } from '../../../helpers/ports.ts';

const allow = (): void => {};

let listeners: FixtureListener[] = [];
afterEach(async () => {
  await closeAll(listeners);
  listeners = [];
});

const engines = fastestConnector().name === 'libuv' ? (['libuv', 'socket'] as const) : (['socket'] as const);

describe.each(engines)('scanTcpPorts with the %s engine', (engine) => {
  it('reports exactly the listening ports of a range, and every other port closed', async () => {
    const fixture = await startSpacedListeners(5, 37);
    listeners = fixture.listeners;
    const ports = listeners.map((listener) => listener.port);
    const scanned = portRange(ports[0]! - 100, ports.at(-1)! + 100);

    const result = await scanTcpPorts({
      address: fixture.host,
      ports: scanned,
      assertAllowed: allow,
      engine,
    });

    expect(result.openPorts).toEqual(ports);
    expect(result.filteredPorts).toEqual([]);
    expect(result.closedCount).toBe(scanned.length - ports.length);
    expect(result.stats.engine).toBe(engine);
    for (const listener of listeners) {
      await listener.flush();
      expect(listener.connections).toBe(1);
    }
  });

  it('stops at once when aborted: no connection reaches a listener after the abort', async () => {
    const controller = new AbortController();
    // Listeners far apart, scanned in order one port at a time; the first one to be
    // reached aborts the scan from inside its connection handler.
    const fixture = await startSpacedListeners(6, 200, { serve: () => controller.abort(new Error('stop')) });
    listeners = fixture.listeners;
    const first = listeners[0]!.port;
    const scan = scanTcpPorts({
      address: fixture.host,
      ports: portRange(first - 50, listeners.at(-1)!.port),
      assertAllowed: allow,
      engine,
      concurrency: 1,
      initialConcurrency: 1,
      signal: controller.signal,
    });

    await expect(scan).rejects.toThrow('stop');
    for (const listener of listeners) await listener.flush();
    expect(listeners[0]!.connections).toBe(1);
    expect(listeners.slice(1).map((listener) => listener.connections)).toEqual([0, 0, 0, 0, 0]);

    // Proving an absence needs a window: a scan that kept going (at one port per
    // round trip, about 20 µs on loopback) would reach the next listener within it.
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const listener of listeners) await listener.flush();
    expect(listeners.slice(1).map((listener) => listener.connections)).toEqual([0, 0, 0, 0, 0]);
  });

  it('makes no connection when the scope policy refuses the address', async () => {
    const fixture = await startSpacedListeners(3, 10);
    listeners = fixture.listeners;
    const refusal = new Error('target not allowed');
    const asked: string[] = [];
    await expect(
      scanTcpPorts({
        address: fixture.host,
        ports: listeners.map((listener) => listener.port),
        engine,
        assertAllowed: (address) => {
          asked.push(address);
          throw refusal;
        },
      }),
    ).rejects.toBe(refusal);
    expect(asked).toEqual([fixture.host]);
    for (const listener of listeners) {
      await listener.flush();
      expect(listener.connections).toBe(0);
    }
  });
});

describe('scanTcpPorts on IPv6 loopback', () => {
  it('finds a listener on ::1', async (context) => {
    const { startListener } = await import('../../../fixtures/listeners.ts');
    let listener: FixtureListener;
    try {
      listener = await startListener({ host: '::1' });
    } catch {
      context.skip('IPv6 loopback is not available here');
    }
    listeners = [listener!];
    const port = listener!.port;
    const result = await scanTcpPorts({
      address: '::1',
      ports: [port - 1, port, port + 1],
      assertAllowed: allow,
    });
    expect(result.openPorts).toEqual([port]);
  });
});

describe('scanTcpPorts aborting a slow scan', () => {
  it('settles well under a second after the abort even with many attempts in flight', async () => {
    const controller = new AbortController();
    const fixture = await startSpacedListeners(1, 1);
    listeners = fixture.listeners;
    const scan = scanTcpPorts({
      address: fixture.host,
      ports: portRange(10_000, 65_535),
      assertAllowed: allow,
      signal: controller.signal,
      onProgress: ({ scanned }) => {
        if (scanned > 0) controller.abort(new Error('stop'));
      },
    });
    const abortedAt = await new Promise<number>((resolve) =>
      controller.signal.addEventListener('abort', () => resolve(performance.now())),
    );
    await expect(scan).rejects.toThrow('stop');
    expect(performance.now() - abortedAt).toBeLessThan(1000);
  });
});
