/**
 * The sweep with its lanes on worker threads (`threads: true`), against real sockets:
 * listeners of our own on a random loopback address (127.100-199.x.x), in a port band below
 * the ephemeral range, scanned nowhere else. The threads are the process-wide pool of `sweep-threads.ts`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  scanTcpPorts,
  sweepTcpHosts,
  type HostSweepResult,
} from '../../../../server/scanner/net/tcp-scan.ts';
import { prepareSweepThreads, stopSweepThreads } from '../../../../server/scanner/net/sweep-threads.ts';
import {
  closeAll,
  randomLoopbackAddress,
  startListeners,
  type FixtureListener,
} from '../../../fixtures/listeners.ts';
import { portRange } from '../../../helpers/ports.ts';

/** A loopback address of this file's own, which no other test or scan of 127.0.0.1 reaches. */
const HOST = randomLoopbackAddress();
const LANES = 2;

const allow = (): void => {};

let listeners: FixtureListener[] = [];
afterEach(async () => {
  await closeAll(listeners);
  listeners = [];
});

/**
 * Listeners on HOST at `offsets` from a random base port, the range `[base, base + span)`
 * lying in 10000-24000 (below the ephemeral range, where no self-connection happens); tried
 * again at another base when a port is taken. Returns the base.
 */
async function listenAt(offsets: number[], span: number): Promise<number> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 10; attempt++) {
    const base = 10_000 + Math.floor(Math.random() * (14_000 - span));
    try {
      listeners = await startListeners(
        offsets.map((offset) => base + offset),
        { host: HOST },
      );
      return base;
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

const ports = (): number[] => listeners.map((listener) => listener.port);

/** `promise`, or a rejection once `ms` have passed without it settling. */
function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still pending after ${ms} ms`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

async function connectionCounts(): Promise<number[]> {
  for (const listener of listeners) await listener.flush();
  return listeners.map((listener) => listener.connections);
}

/**
 * A sweep of no host on every thread: it ends once each thread has answered, and a thread
 * handles its messages in order, so everything posted to the threads before (an abort) has
 * been handled by then. Also how the tests wait for the threads to have loaded.
 */
async function roundTripThreads(): Promise<void> {
  await sweepTcpHosts({ addresses: [], ports: [1], assertAllowed: allow, lanes: LANES, threads: true });
}

beforeAll(async () => {
  prepareSweepThreads(LANES);
  await roundTripThreads();
});

afterAll(async () => {
  await stopSweepThreads();
});

describe('scanTcpPorts on sweep threads', () => {
  it('finds exactly the listening ports of a range, as the sweep on the calling thread does', async () => {
    const base = await listenAt([10, 411, 812, 1213, 1614], 2000);
    const scanned = portRange(base, base + 1999);

    const threaded = await scanTcpPorts({
      address: HOST,
      ports: scanned,
      assertAllowed: allow,
      lanes: LANES,
      threads: true,
    });
    const inProcess = await scanTcpPorts({
      address: HOST,
      ports: scanned,
      assertAllowed: allow,
      lanes: LANES,
      threads: false,
    });

    expect(threaded.openPorts).toEqual(ports());
    expect(threaded.filteredPorts).toEqual([]);
    expect(threaded.closedCount).toBe(scanned.length - listeners.length);
    expect(threaded.stats.attempts).toBe(scanned.length);
    expect({ ...inProcess, elapsedMs: 0, stats: undefined }).toEqual({
      ...threaded,
      elapsedMs: 0,
      stats: undefined,
    });
    // One connection from each scan, none lost or repeated between the lanes.
    expect(await connectionCounts()).toEqual(listeners.map(() => 2));
  });

  it('reports each open port as it is found, before the host is done', async () => {
    const base = await listenAt([3, 700, 1401], 1500);
    const events: string[] = [];
    let result: HostSweepResult | undefined;
    await sweepTcpHosts({
      addresses: [HOST],
      ports: portRange(base, base + 1499),
      assertAllowed: allow,
      lanes: LANES,
      threads: true,
      onOpenPort: ({ address, port, smoothedRttMs }) => {
        expect(address).toBe(HOST);
        expect(smoothedRttMs).toBeTypeOf('number');
        events.push(`open ${port}`);
      },
      onHostDone: (done) => {
        result = done;
        events.push('done');
      },
    });

    expect(result?.openPorts).toEqual(ports());
    expect(events.at(-1)).toBe('done');
    expect(events.slice(0, -1).sort()).toEqual(
      ports()
        .map((port) => `open ${port}`)
        .sort(),
    );
  });
});

describe('stopping a sweep on threads', () => {
  it('rejects promptly with the abort reason, and no connection is made once the threads heard of it', async () => {
    // Listeners over a long range, the first near its start: the sweep is aborted as soon as
    // it reports that one open, one port at a time in each lane.
    const base = await listenAt([20, ...portRange(1, 11).map((n) => n * 500)], 6000);
    const controller = new AbortController();
    const reason = new Error('stop');
    let abortedAt = 0;
    const sweep = sweepTcpHosts({
      addresses: [HOST],
      ports: portRange(base, base + 5999),
      assertAllowed: allow,
      lanes: LANES,
      threads: true,
      concurrency: LANES,
      initialConcurrency: LANES,
      signal: controller.signal,
      onOpenPort: () => {
        abortedAt = performance.now();
        controller.abort(reason);
      },
    });

    await expect(within(2000, sweep)).rejects.toBe(reason);
    expect(performance.now() - abortedAt).toBeLessThan(500);

    await roundTripThreads();
    const settled = await connectionCounts();
    expect(settled[0]).toBe(1);
    // Stopped mid-sweep: the listeners at the far end were never reached.
    expect(settled.slice(-3)).toEqual([0, 0, 0]);

    // Proving an absence needs a window: a lane that kept going (one port per loopback round
    // trip, some tens of microseconds) would reach the next listener well within it.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await connectionCounts()).toEqual(settled);
  });

  it('makes no connection when the scope policy refuses the address', async () => {
    await listenAt([0, 10, 20], 30);
    const refusal = new Error('target not allowed');
    const asked: string[] = [];
    const refuse = (address: string): void => {
      asked.push(address);
      throw refusal;
    };

    await expect(
      scanTcpPorts({ address: HOST, ports: ports(), assertAllowed: refuse, lanes: LANES, threads: true }),
    ).rejects.toBe(refusal);
    const results: HostSweepResult[] = [];
    await sweepTcpHosts({
      addresses: [HOST],
      ports: ports(),
      assertAllowed: refuse,
      lanes: LANES,
      threads: true,
      onHostDone: (result) => results.push(result),
    });

    expect(asked).toEqual([HOST, HOST]);
    expect(results).toEqual([
      { address: HOST, alive: false, openPorts: [], filteredPorts: [], closedCount: 0, refused: refusal },
    ]);
    // The threads have handled everything they were sent, and no listener saw a connection.
    await roundTripThreads();
    expect(await connectionCounts()).toEqual([0, 0, 0]);
  });

  it('rejects a sweep whose threads are stopped under it, and starts new threads for the next one', async () => {
    const base = await listenAt([20, ...portRange(1, 11).map((n) => n * 500)], 6000);
    const scanned = portRange(base, base + 5999);
    let stopping: Promise<void> | undefined;
    let stoppedAt = 0;
    const sweep = sweepTcpHosts({
      addresses: [HOST],
      ports: scanned,
      assertAllowed: allow,
      lanes: LANES,
      threads: true,
      concurrency: LANES,
      initialConcurrency: LANES,
      // The first open port stops the threads while the sweep is under way on them.
      onOpenPort: () => {
        if (stopping) return;
        stoppedAt = performance.now();
        stopping = stopSweepThreads();
      },
    });

    await expect(within(2000, sweep)).rejects.toThrow(/sweep thread stopped/);
    expect(performance.now() - stoppedAt).toBeLessThan(1000);
    await stopping;

    const again = await scanTcpPorts({
      address: HOST,
      ports: scanned,
      assertAllowed: allow,
      lanes: LANES,
      threads: true,
    });
    expect(again.openPorts).toEqual(ports());
    expect(again.closedCount).toBe(scanned.length - listeners.length);
  });
});
