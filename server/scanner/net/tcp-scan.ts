/**
 * TCP connect port scan of literal IP addresses (one, or the hosts of a range in one
 * sweep): which of the given ports accept a connection. No raw sockets, no privileges: each
 * port gets a plain connect(), which either completes (open), is reset (closed) or is not
 * answered in time (filtered). See `sweep-lane.ts` for the window, timeouts and retries.
 *
 * The sweep splits its work over lanes: one on the calling thread by default, or one per
 * worker thread (`threads`, see `sweep-threads.ts`), which is how the scanner runs it so
 * that a sweep uses every core and leaves the API's thread free. This module is the
 * coordinator: it takes the addresses lazily, asks the scope policy about each before any
 * connection, gives each lane its share (a whole host of a range, or a stripe of the ports
 * of each host named without a liveness check) and puts each host's answers back together.
 */
import { MAX_PORT, MIN_PORT } from './ports.ts';
import {
  SWEEP_DEFAULTS,
  SweepLane,
  type LaneEvents,
  type LaneHostResult,
  type LaneJob,
  type LaneOptions,
  type SweepTuning,
  type TcpScanStats,
} from './sweep-lane.ts';
import { startThreadLanes } from './sweep-threads.ts';
import { approveTarget, type AssertAllowed, type IpFamily } from './target-address.ts';

export interface TcpScanOptions extends SweepTuning {
  /** A literal IPv4 or IPv6 address; names are rejected (the scanner never resolves DNS). */
  address: string;
  ports: readonly number[];
  /** The scope policy: called once before any connection; a throw means no connection is made. */
  assertAllowed: AssertAllowed;
  /** Aborting destroys every pending socket and rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Called about every 100 ms while scanning and once at the end. */
  onProgress?: (progress: TcpScanProgress) => void;
  /** Which connect engine to use (default `auto`: the fastest available); tests may pass their own. */
  engine?: LaneOptions['engine'];
  /** Lanes to split the sweep over (default 1); see `threads`. */
  lanes?: number;
  /** Run each lane on a worker thread (default false: on the calling thread). Needs a named engine. */
  threads?: boolean;
}

export interface TcpScanProgress {
  /** Ports with a final answer (open, closed or filtered). */
  scanned: number;
  total: number;
  openPorts: readonly number[];
}

export interface TcpScanResult {
  address: string;
  /** Ports that accepted a connection, ascending. */
  openPorts: number[];
  /** Ports that never answered, or whose network said unreachable, ascending. */
  filteredPorts: number[];
  closedCount: number;
  elapsedMs: number;
  stats: TcpScanStats;
}

/** Many hosts, one sweep: what `sweepTcpHosts` takes besides the options of a single-host scan. */
export interface TcpSweepOptions extends Omit<TcpScanOptions, 'address' | 'onProgress'> {
  /**
   * Literal addresses, read lazily as the lanes have room: the sweep of a large range
   * holds state only for the few hosts in progress, never a socket or a promise per
   * host and port.
   */
  addresses: Iterable<string>;
  /** Hosts in progress at once, over all lanes (default 64). */
  maxActiveHosts?: number;
  /** Called once per host as it finishes (its address refused by the scope policy included). */
  onHostDone?: (result: HostSweepResult) => void;
  /** Called as soon as a port is found open, before its host is finished. */
  onOpenPort?: (open: { address: string; port: number; smoothedRttMs: number | undefined }) => void;
  /** Called about every 100 ms and once at the end. */
  onProgress?: (progress: SweepProgress) => void;
}

export interface SweepProgress {
  /** Host-ports with a final answer; a host found down or refused counts all its ports. */
  done: number;
}

export interface HostSweepResult {
  address: string;
  /** Answered at least once (always true without a liveness check, unless refused). */
  alive: boolean;
  openPorts: number[];
  filteredPorts: number[];
  closedCount: number;
  /** Why the host was not scanned: the scope policy refused it. */
  refused?: unknown;
  /** The sweep's smoothed round-trip time when the host finished (undefined before any answer). */
  smoothedRttMs?: number | undefined;
}

export interface TcpSweepSummary {
  hosts: number;
  alive: number;
  elapsedMs: number;
  lanes: number;
  stats: TcpScanStats;
}

const MAX_ACTIVE_HOSTS = 64;
/** A job's id is its host's number × PARTS + its lane: at most PARTS lanes. */
const PARTS = 256;
const PROGRESS_EVERY_MS = 100;
const byPort = (a: number, b: number): number => a - b;

/** The lane interface the coordinator drives: a `SweepLane` here, or one on a worker thread. */
interface Lane {
  add(job: LaneJob): void;
  end(): void;
  abort(reason: unknown): void;
  readonly finished: Promise<TcpScanStats>;
}

export async function scanTcpPorts(options: TcpScanOptions): Promise<TcpScanResult> {
  const family = await approveTarget(options.address, options.assertAllowed, options.signal);
  const ports = uniquePorts(options.ports);
  const { onProgress, address, ...rest } = options;
  const openSoFar: number[] = [];
  let result: HostSweepResult | undefined;
  const summary = await new Sweep(
    {
      ...rest,
      addresses: [address],
      onHostDone: (r) => (result = r),
      ...(onProgress
        ? {
            onProgress: ({ done }: SweepProgress) =>
              onProgress({ scanned: done, total: ports.length, openPorts: [...openSoFar] }),
            onOpenPort: ({ port }: { port: number }) => openSoFar.push(port),
          }
        : {}),
    },
    ports,
    family,
  ).run();
  if (!result) throw new Error('port scan ended without a result');
  return {
    address,
    openPorts: result.openPorts,
    filteredPorts: result.filteredPorts,
    closedCount: result.closedCount,
    elapsedMs: summary.elapsedMs,
    stats: summary.stats,
  };
}
/**
 * TCP connect sweep of the same ports on many hosts, hosts taken in order as the lanes have
 * room. With `liveness`, each host is knocked on first and swept only when it answered, so
 * discovery and the sweep of a range overlap instead of running one after the other. A host
 * the scope policy refuses is reported (`refused`) and skipped; the sweep goes on.
 */
export async function sweepTcpHosts(options: TcpSweepOptions): Promise<TcpSweepSummary> {
  options.signal?.throwIfAborted();
  return new Sweep(options, uniquePorts(options.ports)).run();
}

function uniquePorts(ports: readonly number[]): number[] {
  for (const port of ports) {
    if (!Number.isInteger(port) || port < MIN_PORT || port > MAX_PORT) {
      throw new RangeError(`port ${port} is not between ${MIN_PORT} and ${MAX_PORT}`);
    }
  }
  return [...new Set(ports)];
}

/** A host in progress: the lanes still working on it, and its answers so far. */
interface HostInProgress {
  address: string;
  partsLeft: number;
  alive: boolean;
  open: number[];
  filtered: number[];
  closedCount: number;
  smoothedRttMs: number | undefined;
}

class Sweep {
  private readonly startedAt = performance.now();
  private readonly lanes: Lane[];
  /** Jobs given to each lane and not finished. */
  private readonly outstanding: number[];
  /** Host-ports each lane has finished, as it last reported. */
  private readonly laneDone: number[];
  private readonly striped: boolean;
  private readonly maxActiveHosts: number;
  private readonly addresses: Iterator<string>;
  private addressesLeft = true;
  private admitting = false;
  private readonly hosts = new Map<number, HostInProgress>();
  private nextId = 0;
  private hostCount = 0;
  private aliveHosts = 0;
  /** Host-ports of refused hosts, counted as done. */
  private refusedDone = 0;
  private reportedDone = -1;
  private progressTimer: NodeJS.Timeout | undefined;
  /** The end is being awaited (every host is done; the lanes are finishing). */
  private finishing = false;
  private settled = false;
  private resolve!: (summary: TcpSweepSummary) => void;
  private reject!: (reason: unknown) => void;
  private readonly onAbort = (): void => this.fail(this.options.signal?.reason);

  constructor(
    private readonly options: TcpSweepOptions,
    private readonly ports: number[],
    /** The family of the only address, already approved (scanTcpPorts). */
    private readonly approvedFamily?: IpFamily,
  ) {
    const lanes = Math.min(PARTS, Math.max(1, Math.floor(options.lanes ?? 1)));
    // Hosts of a range are shared out whole (a knock must decide for the whole host); a sweep
    // of a few named hosts without knocks splits each host's ports over every lane.
    this.striped = lanes > 1 && !options.liveness;
    this.maxActiveHosts = Math.max(1, options.maxActiveHosts ?? MAX_ACTIVE_HOSTS);
    this.addresses = options.addresses[Symbol.iterator]();
    const laneOptions: LaneOptions = {
      ...pick(options),
      ports,
      concurrency: Math.max(1, Math.ceil((options.concurrency ?? SWEEP_DEFAULTS.concurrency) / lanes)),
      initialConcurrency: Math.max(
        1,
        Math.ceil((options.initialConcurrency ?? SWEEP_DEFAULTS.initialConcurrency) / lanes),
      ),
    };
    this.lanes = this.startLanes(lanes, laneOptions);
    this.outstanding = this.lanes.map(() => 0);
    this.laneDone = this.lanes.map(() => 0);
  }

  private startLanes(count: number, options: LaneOptions): Lane[] {
    if (!this.options.threads) {
      return Array.from({ length: count }, (_, i) => new SweepLane(options, this.laneEvents(i)));
    }
    const { engine, ...rest } = options;
    if (typeof engine === 'object') throw new Error('a sweep on worker threads needs a named engine');
    return startThreadLanes(count, { ...rest, ...(engine ? { engine } : {}) }, (i) => this.laneEvents(i));
  }

  private laneEvents(lane: number): LaneEvents {
    return {
      onOpenPort: (id, port, smoothedRttMs) => {
        const host = this.hosts.get(Math.floor(id / PARTS));
        if (host && !this.settled)
          this.notify(() => this.options.onOpenPort?.({ address: host.address, port, smoothedRttMs }));
      },
      onHostDone: (result) => this.hostPartDone(lane, result),
      onProgress: (done) => {
        this.laneDone[lane] = done;
      },
    };
  }

  run(): Promise<TcpSweepSummary> {
    const running = new Promise<TcpSweepSummary>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    this.options.signal?.addEventListener('abort', this.onAbort, { once: true });
    for (const lane of this.lanes) lane.finished.catch((error: unknown) => this.fail(error));
    this.progressTimer = setInterval(() => this.reportProgress(), PROGRESS_EVERY_MS);
    this.feed();
    return running;
  }

  /** Takes addresses while fewer than `maxActiveHosts` are in progress. */
  private feed(): void {
    while (!this.settled && !this.admitting && this.addressesLeft && this.hosts.size < this.maxActiveHosts) {
      const next = this.addresses.next();
      if (next.done) {
        this.addressesLeft = false;
        break;
      }
      const address = next.value;
      this.hostCount++;
      if (this.approvedFamily !== undefined) {
        this.startHost(address, this.approvedFamily);
        continue;
      }
      this.admitting = true;
      approveTarget(address, this.options.assertAllowed, this.options.signal).then(
        (family) => {
          this.admitting = false;
          if (this.settled) return;
          this.startHost(address, family);
          this.feed();
        },
        (refused: unknown) => {
          this.admitting = false;
          if (this.settled) return;
          if (this.options.signal?.aborted) return this.fail(this.options.signal.reason);
          this.refusedDone += this.ports.length;
          const result = { address, alive: false, openPorts: [], filteredPorts: [], closedCount: 0, refused };
          this.notify(() => this.options.onHostDone?.(result));
          this.feed();
        },
      );
      return;
    }
    if (!this.addressesLeft && !this.admitting) {
      for (const lane of this.lanes) lane.end();
      void this.finishIfDone();
    }
  }

  private startHost(address: string, family: IpFamily): void {
    const key = this.nextId++;
    const parts = this.striped ? this.lanes.length : 1;
    this.hosts.set(key, {
      address,
      partsLeft: parts,
      alive: false,
      open: [],
      filtered: [],
      closedCount: 0,
      smoothedRttMs: undefined,
    });
    if (this.striped) {
      for (let i = 0; i < parts; i++)
        this.give(i, { id: key * PARTS + i, address, family, stripe: { index: i, count: parts } });
    } else {
      const lane = this.outstanding.indexOf(Math.min(...this.outstanding));
      this.give(lane, { id: key * PARTS, address, family, stripe: { index: 0, count: 1 } });
    }
  }

  private give(lane: number, job: LaneJob): void {
    this.outstanding[lane]!++;
    this.lanes[lane]!.add(job);
  }

  private hostPartDone(lane: number, part: LaneHostResult): void {
    this.outstanding[lane]!--;
    const key = Math.floor(part.id / PARTS);
    const host = this.hosts.get(key);
    if (!host || this.settled) return;
    host.alive ||= part.alive;
    host.open.push(...part.openPorts);
    host.filtered.push(...part.filteredPorts);
    host.closedCount += part.closedCount;
    if (part.smoothedRttMs !== undefined)
      host.smoothedRttMs = Math.max(host.smoothedRttMs ?? 0, part.smoothedRttMs);
    if (--host.partsLeft > 0) return;
    this.hosts.delete(key);
    if (host.alive) this.aliveHosts++;
    const result: HostSweepResult = {
      address: host.address,
      alive: host.alive,
      openPorts: host.open.sort(byPort),
      filteredPorts: host.filtered.sort(byPort),
      closedCount: host.closedCount,
      smoothedRttMs: host.smoothedRttMs,
    };
    this.notify(() => this.options.onHostDone?.(result));
    this.feed();
  }

  /** Calls back into the caller; a throw fails the sweep. */
  private notify(callback: () => void): void {
    try {
      callback();
    } catch (error) {
      this.fail(error);
    }
  }

  private reportProgress(): void {
    if (!this.options.onProgress || this.settled) return;
    const done = this.refusedDone + this.laneDone.reduce((a, b) => a + b, 0);
    if (done === this.reportedDone) return;
    this.reportedDone = done;
    this.notify(() => this.options.onProgress?.({ done }));
  }

  private async finishIfDone(): Promise<void> {
    if (this.finishing || this.settled || this.addressesLeft || this.admitting || this.hosts.size > 0) return;
    this.finishing = true;
    let stats: TcpScanStats[];
    try {
      stats = await Promise.all(this.lanes.map((lane) => lane.finished));
    } catch (error) {
      return this.fail(error);
    }
    if (this.settled) return;
    // Every host-port is done: report the total if it was not yet, then stop.
    const total = this.hostCount * this.ports.length;
    if (this.options.onProgress && total !== this.reportedDone) {
      this.reportedDone = total;
      this.notify(() => this.options.onProgress?.({ done: total }));
      if (this.settled) return;
    }
    this.stop();
    this.resolve({
      hosts: this.hostCount,
      alive: this.aliveHosts,
      elapsedMs: performance.now() - this.startedAt,
      lanes: this.lanes.length,
      stats: combine(stats),
    });
  }

  private fail(reason: unknown): void {
    if (this.settled) return;
    this.stop();
    for (const lane of this.lanes) lane.abort(reason);
    this.reject(reason);
  }

  private stop(): void {
    this.settled = true;
    clearInterval(this.progressTimer);
    this.options.signal?.removeEventListener('abort', this.onAbort);
  }
}

function pick(options: TcpSweepOptions): SweepTuning & Pick<LaneOptions, 'engine'> {
  const { timeoutMs, minTimeoutMs, retries, resourceWaitMs, liveness, engine } = options;
  const tuning: SweepTuning & Pick<LaneOptions, 'engine'> = {};
  if (timeoutMs !== undefined) tuning.timeoutMs = timeoutMs;
  if (minTimeoutMs !== undefined) tuning.minTimeoutMs = minTimeoutMs;
  if (retries !== undefined) tuning.retries = retries;
  if (resourceWaitMs !== undefined) tuning.resourceWaitMs = resourceWaitMs;
  if (liveness !== undefined) tuning.liveness = { ports: [...liveness.ports], timeoutMs: liveness.timeoutMs };
  if (engine !== undefined) tuning.engine = engine;
  return tuning;
}

/** One set of figures for the whole sweep: counts add up, windows add up, times take the worst lane. */
function combine(stats: TcpScanStats[]): TcpScanStats {
  const sum = (figure: (s: TcpScanStats) => number) => stats.reduce((total, s) => total + figure(s), 0);
  const rtts = stats.map((s) => s.smoothedRttMs).filter((rtt): rtt is number => rtt !== undefined);
  return {
    engine: stats[0]!.engine,
    attempts: sum((s) => s.attempts),
    timeouts: sum((s) => s.timeouts),
    resourceShortages: sum((s) => s.resourceShortages),
    peakConcurrency: sum((s) => s.peakConcurrency),
    finalConcurrency: sum((s) => s.finalConcurrency),
    smoothedRttMs: rtts.length > 0 ? Math.max(...rtts) : undefined,
    finalTimeoutMs: Math.max(...stats.map((s) => s.finalTimeoutMs)),
  };
}
