/**
 * The sweep of many hosts with one window, driven by a scripted connect engine (no
 * sockets): each host's and port's behaviour is decided by the test.
 */
import { describe, expect, it } from 'vitest';
import { sweepTcpHosts, type HostSweepResult } from '../../../../server/scanner/net/tcp-scan.ts';
import { ScriptedConnector } from '../../../helpers/scripted-connector.ts';
import { portRange } from '../../../helpers/ports.ts';

const addresses = (count: number): string[] => portRange(1, count).map((n) => `192.0.2.${n}`);
const allow = (): void => {};

describe('sweepTcpHosts', () => {
  it('sweeps every host with one window that never exceeds its ceiling across hosts', async () => {
    const engine = new ScriptedConnector((address, port) =>
      address === '192.0.2.3' && port === 22 ? 'open' : 'closed',
    );
    const results: HostSweepResult[] = [];
    const summary = await sweepTcpHosts({
      addresses: addresses(20),
      ports: portRange(1, 100),
      assertAllowed: allow,
      engine,
      concurrency: 64,
      onHostDone: (r) => results.push(r),
    });
    expect(summary).toMatchObject({ hosts: 20, alive: 20 });
    expect(engine.maxInFlight).toBeLessThanOrEqual(64);
    // The window is shared: more than one host was in flight at once.
    expect(engine.maxHostsInFlight).toBeGreaterThan(1);
    expect(engine.started).toHaveLength(2000);
    expect(results.map((r) => r.address).sort()).toEqual(addresses(20).sort());
    expect(results.find((r) => r.address === '192.0.2.3')).toMatchObject({
      openPorts: [22],
      closedCount: 99,
    });
    expect(results.filter((r) => r.openPorts.length === 0)).toHaveLength(19);
  });

  it('keeps the knocks of new hosts inside the window too', async () => {
    const engine = new ScriptedConnector(() => 'closed');
    await sweepTcpHosts({
      addresses: addresses(6),
      ports: portRange(1, 20),
      assertAllowed: allow,
      engine,
      concurrency: 4,
      initialConcurrency: 4,
      liveness: { ports: [80, 443, 22, 445, 3389, 8080, 25, 53], timeoutMs: 50 },
    });
    expect(engine.maxInFlight).toBeLessThanOrEqual(4);
    // Every host was knocked on eight times (none of them a port of the sweep) and swept.
    expect(engine.started).toHaveLength(6 * 8 + 6 * 20);
  });

  it('sweeps only the hosts that answered a knock, and knocks while earlier hosts are swept', async () => {
    const up = new Set(['192.0.2.2', '192.0.2.7']);
    const engine = new ScriptedConnector((address) => (up.has(address) ? 'closed' : 'silent'));
    const results: HostSweepResult[] = [];
    const done: number[] = [];
    await sweepTcpHosts({
      addresses: addresses(10),
      ports: portRange(1000, 1199),
      assertAllowed: allow,
      engine,
      liveness: { ports: [80, 443], timeoutMs: 30 },
      onHostDone: (r) => results.push(r),
      onProgress: (p) => done.push(p.done),
    });
    expect(results.filter((r) => r.alive).map((r) => r.address)).toEqual(['192.0.2.2', '192.0.2.7']);
    // Down hosts got their two knocks and nothing else.
    for (const address of addresses(10).filter((a) => !up.has(a))) {
      expect(engine.startedPorts(address).sort((a, b) => a - b)).toEqual([80, 443]);
    }
    // Knocks of later hosts started before the first live host's sweep ended.
    const lastOfFirst = engine.started.lastIndexOf('192.0.2.2:1199');
    const firstKnockOfLater = engine.started.indexOf('192.0.2.8:80');
    expect(firstKnockOfLater).toBeGreaterThanOrEqual(0);
    expect(firstKnockOfLater).toBeLessThan(lastOfFirst);
    // Progress counts every host's ports, a down host's all at once.
    expect(done.at(-1)).toBe(10 * 200);
  });

  it('reports a host the scope policy refuses, connects nowhere on it, and sweeps the others', async () => {
    const engine = new ScriptedConnector(() => 'closed');
    const results: HostSweepResult[] = [];
    await sweepTcpHosts({
      addresses: addresses(3),
      ports: [1, 2, 3],
      assertAllowed: (address) => {
        if (address === '192.0.2.2') throw new Error('not in scope');
      },
      engine,
      onHostDone: (r) => results.push(r),
    });
    expect(engine.startedPorts('192.0.2.2')).toEqual([]);
    expect(results.find((r) => r.address === '192.0.2.2')).toMatchObject({ alive: false });
    expect(results.find((r) => r.address === '192.0.2.2')!.refused).toBeInstanceOf(Error);
    expect(results.filter((r) => r.closedCount === 3)).toHaveLength(2);
  });

  it('holds work for a bounded number of hosts however many addresses it is given', async () => {
    let pulled = 0;
    let maxAhead = 0;
    let finished = 0;
    const engine = new ScriptedConnector(() => 'closed');
    await sweepTcpHosts({
      addresses: (function* () {
        for (let n = 0; n < 1024; n++) {
          pulled++;
          maxAhead = Math.max(maxAhead, pulled - finished);
          yield `10.0.${n >> 8}.${n & 255}`;
        }
      })(),
      ports: [1, 2],
      assertAllowed: allow,
      engine,
      maxActiveHosts: 16,
      onHostDone: () => finished++,
    });
    expect(finished).toBe(1024);
    expect(maxAhead).toBeLessThanOrEqual(17);
  });

  it('stops every attempt on abort and rejects with the reason', async () => {
    const engine = new ScriptedConnector(() => 'silent');
    const controller = new AbortController();
    const sweep = sweepTcpHosts({
      addresses: addresses(50),
      ports: portRange(1, 100),
      assertAllowed: allow,
      engine,
      signal: controller.signal,
    });
    await expect.poll(() => engine.inFlight).toBeGreaterThan(0);
    controller.abort(new Error('stop'));
    await expect(sweep).rejects.toThrow('stop');
    expect(engine.inFlight).toBe(0);
  });
});
