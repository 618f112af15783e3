/**
 * The sweep split over several lanes on the calling thread (`lanes`, no `threads`), driven
 * by a scripted connect engine (no sockets): how a host's ports are striped over the lanes
 * and put back together, how whole hosts are given out when a liveness knock decides for
 * them, the shared concurrency ceiling, and how an abort or one lane's failure stops all.
 */
import { describe, expect, it } from 'vitest';
import { ScanResourceError } from '../../../../server/scanner/net/sweep-lane.ts';
import {
  sweepTcpHosts,
  type HostSweepResult,
  type TcpSweepOptions,
} from '../../../../server/scanner/net/tcp-scan.ts';
import { ScriptedConnector, type ScriptedBehaviour } from '../../../helpers/scripted-connector.ts';
import { portRange } from '../../../helpers/ports.ts';

const addresses = (count: number): string[] => portRange(1, count).map((n) => `192.0.2.${n}`);
const allow = (): void => {};
/** A host's result without the round-trip time, which differs from run to run. */
const verdict = ({ smoothedRttMs: _rtt, ...rest }: HostSweepResult) => rest;

/** Runs a sweep and collects what it reports. */
async function sweep(options: Omit<TcpSweepOptions, 'assertAllowed'>) {
  const hosts: HostSweepResult[] = [];
  const progress: number[] = [];
  const summary = await sweepTcpHosts({
    assertAllowed: allow,
    ...options,
    onHostDone: (result) => hosts.push(result),
    onProgress: ({ done }) => progress.push(done),
  });
  return { summary, hosts, progress };
}

describe('sweepTcpHosts over several lanes, one host striped over all of them', () => {
  // Open every tenth port, two unreachable ones, one that never answers (filtered after its retry).
  const behaviour: ScriptedBehaviour = (_address, port) =>
    port % 10 === 0 ? 'open' : port === 7 || port === 58 ? 'unreachable' : port === 33 ? 'silent' : 'closed';
  const tuning = { timeoutMs: 150, minTimeoutMs: 20 };

  it('tries every port once and merges the lanes into the result one lane gives', async () => {
    const ports = portRange(1, 100);
    const oneEngine = new ScriptedConnector(behaviour);
    const one = await sweep({ addresses: ['192.0.2.1'], ports, engine: oneEngine, ...tuning });
    const threeEngine = new ScriptedConnector(behaviour);
    const three = await sweep({ addresses: ['192.0.2.1'], ports, engine: threeEngine, lanes: 3, ...tuning });

    expect(three.summary).toMatchObject({ hosts: 1, alive: 1, lanes: 3 });
    expect(three.hosts).toHaveLength(1);
    expect(verdict(three.hosts[0]!)).toEqual({
      address: '192.0.2.1',
      alive: true,
      openPorts: portRange(1, 10).map((n) => n * 10),
      filteredPorts: [7, 33, 58],
      closedCount: 100 - 10 - 3,
    });
    expect(verdict(three.hosts[0]!)).toEqual(verdict(one.hosts[0]!));
    // Each port once, the silent one twice (its first try and its one retry), as with one lane.
    for (const port of ports) expect(threeEngine.triesOf(port, '192.0.2.1')).toBe(port === 33 ? 2 : 1);
    expect([...threeEngine.started].sort()).toEqual([...oneEngine.started].sort());
    expect(three.summary.stats.attempts).toBe(101);
    expect(three.progress.at(-1)).toBe(100);
    expect(three.progress.every((done, i) => done >= (three.progress[i - 1] ?? 0) && done <= 100)).toBe(true);
  });

  it('splits the ports by position modulo the lane count, each share to one lane', async () => {
    // One window slot per lane; the first port never answers, so the lane with positions
    // 0, 3, 6, … is stuck on it for the whole timeout while the other two go through theirs.
    const engine = new ScriptedConnector((_address, port) => (port === 1 ? 'silent' : 'closed'));
    const ports = portRange(1, 30);
    const { hosts } = await sweep({
      addresses: ['192.0.2.1'],
      ports,
      engine,
      lanes: 3,
      concurrency: 3,
      initialConcurrency: 3,
      timeoutMs: 300,
      retries: 0,
    });
    const order = engine.startedPorts('192.0.2.1');
    const laneZero = ports.filter((_, j) => j % 3 === 0);
    const others = ports.filter((_, j) => j % 3 !== 0);
    // Every other share was started before that lane's second port.
    const secondOfLaneZero = order.indexOf(laneZero[1]!);
    for (const port of others) expect(order.indexOf(port)).toBeLessThan(secondOfLaneZero);
    // That lane went through its own share in order.
    expect(order.filter((port) => laneZero.includes(port))).toEqual(laneZero);
    expect(hosts[0]).toMatchObject({ filteredPorts: [1], closedCount: 29 });
  });

  it('reports each of several named hosts once, with all of its ports', async () => {
    const engine = new ScriptedConnector((address, port) =>
      port === 20 + Number(address.split('.')[3]) ? 'open' : 'closed',
    );
    const hosts = addresses(5);
    const ports = portRange(1, 50);
    const { summary, hosts: results, progress } = await sweep({ addresses: hosts, ports, engine, lanes: 3 });

    expect(summary).toMatchObject({ hosts: 5, alive: 5, lanes: 3 });
    expect(results.map((r) => r.address).sort()).toEqual(hosts);
    for (const address of hosts) {
      const result = results.find((r) => r.address === address)!;
      expect(verdict(result)).toEqual({
        address,
        alive: true,
        openPorts: [20 + Number(address.split('.')[3])],
        filteredPorts: [],
        closedCount: 49,
      });
      expect(engine.startedPorts(address).sort((a, b) => a - b)).toEqual(ports);
    }
    expect(progress.at(-1)).toBe(5 * 50);
  });
});

describe('sweepTcpHosts over several lanes with a liveness check', () => {
  it('knocks on each host once per knock port, sweeps only the live ones, each fully', async () => {
    const up = new Set(['192.0.2.2', '192.0.2.7', '192.0.2.9']);
    const engine = new ScriptedConnector((address, port) =>
      up.has(address) ? (port === 1010 ? 'open' : 'closed') : 'silent',
    );
    const hosts = addresses(10);
    const ports = portRange(1000, 1059);
    // 1000 is both a knock port and one of the sweep's: its knock's answer is its verdict.
    const {
      summary,
      hosts: results,
      progress,
    } = await sweep({
      addresses: hosts,
      ports,
      engine,
      lanes: 3,
      liveness: { ports: [80, 1000], timeoutMs: 30 },
    });

    expect(summary).toMatchObject({ hosts: 10, alive: 3, lanes: 3 });
    expect(results.map((r) => r.address).sort()).toEqual([...hosts].sort());
    for (const address of hosts) {
      // Were a host split over the lanes, each lane would knock on it.
      expect(engine.triesOf(80, address)).toBe(1);
      expect(engine.triesOf(1000, address)).toBe(1);
      const result = results.find((r) => r.address === address)!;
      if (up.has(address)) {
        expect(engine.startedPorts(address).sort((a, b) => a - b)).toEqual([80, ...ports]);
        expect(verdict(result)).toEqual({
          address,
          alive: true,
          openPorts: [1010],
          filteredPorts: [],
          closedCount: 59,
        });
      } else {
        expect(engine.startedPorts(address).sort((a, b) => a - b)).toEqual([80, 1000]);
        expect(result).toMatchObject({ alive: false, openPorts: [], filteredPorts: [], closedCount: 0 });
      }
    }
    expect(progress.at(-1)).toBe(10 * 60);
  });
});

describe('sweepTcpHosts over several lanes, open ports', () => {
  it('reports each open port before its host is done', async () => {
    const open = new Set([5, 17, 29]);
    const engine = new ScriptedConnector((_address, port) => (open.has(port) ? 'open' : 'closed'));
    const events: string[] = [];
    const rtts: (number | undefined)[] = [];
    const hosts = addresses(3);
    await sweepTcpHosts({
      addresses: hosts,
      ports: portRange(1, 30),
      assertAllowed: allow,
      engine,
      lanes: 3,
      onOpenPort: ({ address, port, smoothedRttMs }) => {
        events.push(`open ${address}:${port}`);
        rtts.push(smoothedRttMs);
      },
      onHostDone: (result) => events.push(`done ${result.address} ${result.openPorts.join(',')}`),
    });

    for (const address of hosts) {
      const done = events.indexOf(`done ${address} 5,17,29`);
      expect(done).toBeGreaterThanOrEqual(0);
      for (const port of open) {
        const seen = events.indexOf(`open ${address}:${port}`);
        expect(seen).toBeGreaterThanOrEqual(0);
        expect(seen).toBeLessThan(done);
      }
    }
    expect(events).toHaveLength(3 * 3 + 3);
    // An open port is an answer: the lane has a round-trip time by then.
    for (const rtt of rtts) expect(rtt).toBeTypeOf('number');
  });
});

describe('sweepTcpHosts over several lanes, concurrency', () => {
  it.each([
    { concurrency: 9, ceiling: 9 },
    { concurrency: 10, ceiling: 12 }, // 4 per lane: the share is rounded up
  ])('keeps at most $ceiling attempts in flight over 3 lanes for concurrency $concurrency', async (c) => {
    const engine = new ScriptedConnector(() => 'closed', { delayMs: 1 });
    await sweepTcpHosts({
      addresses: ['192.0.2.1'],
      ports: portRange(1, 600),
      assertAllowed: allow,
      engine,
      lanes: 3,
      concurrency: c.concurrency,
    });
    // Reached, so the lanes ran side by side; never exceeded.
    expect(engine.maxInFlight).toBe(c.ceiling);
    expect(new Set(engine.started).size).toBe(600);
  });

  it('shares the ceiling when whole hosts are given to lanes', async () => {
    const engine = new ScriptedConnector(() => 'closed', { delayMs: 1 });
    await sweepTcpHosts({
      addresses: addresses(6),
      ports: portRange(1, 200),
      assertAllowed: allow,
      engine,
      lanes: 3,
      concurrency: 9,
      liveness: { ports: [80], timeoutMs: 100 },
    });
    expect(engine.maxInFlight).toBe(9);
    expect(engine.started).toHaveLength(6 * 200); // 80 is one of the ports: its knock is its answer
  });
});

describe('sweepTcpHosts over several lanes, stopping', () => {
  it('cancels every attempt of every lane on abort and rejects with the reason', async () => {
    const engine = new ScriptedConnector(() => 'silent');
    const controller = new AbortController();
    const running = sweepTcpHosts({
      addresses: addresses(2),
      ports: portRange(1, 300),
      assertAllowed: allow,
      engine,
      lanes: 3,
      concurrency: 30,
      initialConcurrency: 30,
      timeoutMs: 10_000,
      signal: controller.signal,
    });
    // 10 in flight in each of the 3 lanes.
    await expect.poll(() => engine.inFlight).toBe(30);
    const reason = new Error('cancelled by the user');
    controller.abort(reason);
    await expect(running).rejects.toBe(reason);
    expect(engine.inFlight).toBe(0);
    expect([...engine.cancelled].sort()).toEqual([...engine.started].sort());
    expect(engine.started).toHaveLength(30);
  });

  it("fails the whole sweep when one lane fails, cancelling the other lanes' attempts", async () => {
    // Lane 0 (ports 1, 4, 7, …) can never open a socket; the other lanes' attempts hang.
    const engine = new ScriptedConnector((_address, port) => ((port - 1) % 3 === 0 ? 'resource' : 'silent'), {
      delayMs: 0,
    });
    const running = sweepTcpHosts({
      addresses: ['192.0.2.1'],
      ports: portRange(1, 30),
      assertAllowed: allow,
      engine,
      lanes: 3,
      timeoutMs: 10_000,
      resourceWaitMs: 100,
    });
    await expect(running).rejects.toBeInstanceOf(ScanResourceError);
    expect(engine.inFlight).toBe(0);
    const hanging = portRange(1, 30)
      .filter((port) => (port - 1) % 3 !== 0)
      .map((port) => `192.0.2.1:${port}`);
    expect(engine.cancelled).toEqual(expect.arrayContaining(hanging));
  });
});
