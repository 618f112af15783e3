/**
 * TCP connect port scan of literal IP addresses (one, or the hosts of a range in one
 * sweep): which of the given ports accept a connection. No raw sockets, no privileges: each port gets a plain connect(), which
 * either completes (open), is reset (closed) or is not answered in time (filtered).
 *
 * The scan keeps a window of attempts in flight (see `concurrency-window.ts`) and times
 * attempts out adaptively from the observed round-trip times (see `rtt-estimator.ts`).
 * Unanswered ports are retried once with a doubled timeout before they count as filtered.
 */
import { ConcurrencyWindow } from './concurrency-window.ts';
import {
  connectorByName,
  type ConnectAttempt,
  type ConnectListener,
  type ConnectOutcome,
  type Connector,
  type ConnectorName,
} from './connectors.ts';
import { MAX_PORT, MIN_PORT } from './ports.ts';
import { RttEstimator } from './rtt-estimator.ts';
import { approveTarget, type AssertAllowed } from './target-address.ts';

export interface TcpScanOptions {
  /** A literal IPv4 or IPv6 address; names are rejected (the scanner never resolves DNS). */
  address: string;
  ports: readonly number[];
  /** The scope policy: called once before any connection; a throw means no connection is made. */
  assertAllowed: AssertAllowed;
  /** Aborting destroys every pending socket and rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Longest wait for one connection attempt (default 1250 ms, nmap -T4's ceiling); also the wait before the first answer. */
  timeoutMs?: number;
  /** Shortest wait the adaptive timeout may shrink to (default 100 ms). */
  minTimeoutMs?: number;
  /** Most attempts in flight at once (default 512); the window adapts below this. */
  concurrency?: number;
  /** Attempts in flight at the start (default 64). */
  initialConcurrency?: number;
  /** Extra tries for a port whose attempt timed out (default 1). */
  retries?: number;
  /** How long to keep retrying while this machine refuses to open sockets (default 10 s). */
  resourceWaitMs?: number;
  /** Called about every 100 ms while scanning and once at the end. */
  onProgress?: (progress: TcpScanProgress) => void;
  /** Which connect engine to use (default `auto`: the fastest available); tests may pass their own. */
  engine?: 'auto' | ConnectorName | Connector;
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

export interface TcpScanStats {
  engine: string;
  attempts: number;
  timeouts: number;
  resourceShortages: number;
  peakConcurrency: number;
  finalConcurrency: number;
  smoothedRttMs: number | undefined;
  finalTimeoutMs: number;
}

/** The scan could not make progress because this machine kept refusing to open sockets. */
export class ScanResourceError extends Error {
  constructor(code: string | undefined, waitedMs: number) {
    super(
      `the port scan could not open sockets for ${Math.round(waitedMs)} ms (${code ?? 'resource shortage'})`,
    );
    this.name = 'ScanResourceError';
  }
}

/** Many hosts, one window: what `sweepTcpHosts` takes besides the options of a single-host scan. */
export interface TcpSweepOptions extends Omit<TcpScanOptions, 'address' | 'onProgress'> {
  /**
   * Literal addresses, read lazily as the window has room: the sweep of a large range
   * holds state only for the few hosts in progress, never a socket or a promise per
   * host and port.
   */
  addresses: Iterable<string>;
  /**
   * Knock on these ports of a host first (one try each, `timeoutMs` each) and sweep the
   * host only when one of them answered (open or refused); others count as down. Hosts
   * are knocked on while earlier hosts are still being swept, in the same window.
   */
  liveness?: { ports: readonly number[]; timeoutMs: number };
  /** Hosts knocked on or swept at once (default 64). */
  maxActiveHosts?: number;
  /** Called once per host as it finishes (its address refused by the scope policy included). */
  onHostDone?: (result: HostSweepResult) => void;
  /** Called about every 100 ms and once at the end. */
  onProgress?: (progress: SweepProgress) => void;
}

export interface SweepProgress {
  /** Host-ports with a final answer; a host found down or refused counts all its ports. */
  done: number;
  /** Open ports of the first host in progress (or of the last one finished). */
  openPorts: readonly number[];
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
  stats: TcpScanStats;
}

const DEFAULTS = {
  timeoutMs: 1250,
  minTimeoutMs: 100,
  concurrency: 512,
  initialConcurrency: 64,
  retries: 1,
  resourceWaitMs: 10_000,
  maxActiveHosts: 64,
};
const MIN_CONCURRENCY = 4;
const PROGRESS_EVERY_MS = 100;
const RESOURCE_BACKOFF_MAX_MS = 1000;

const now = (): number => performance.now();
const byPort = (a: number, b: number): number => a - b;

/** One host in progress: knocked on first when a liveness check is asked for, then swept. */
class HostWork {
  stage: 'knocking' | 'sweeping' = 'sweeping';
  /** Next index into `ports` to launch while sweeping. */
  next = 0;
  /** Liveness knocks still out. */
  knocksLeft = 0;
  alive = false;
  inFlight = 0;
  readonly open: number[] = [];
  readonly filtered: number[] = [];
  closedCount = 0;
  /** Ports of the sweep a knock already answered (open or closed): not tried again. */
  readonly known = new Set<number>();
  /** Ports of this host with a final answer, counted for progress. */
  done = 0;

  constructor(
    readonly address: string,
    readonly family: 4 | 6,
  ) {}
}

class Attempt implements ConnectListener {
  connection: ConnectAttempt | undefined;
  readonly startedAt = now();

  constructor(
    private readonly scan: TcpSweep,
    readonly host: HostWork,
    readonly port: number,
    readonly tries: number,
    /** When the previous, timed-out try of this port started. */
    readonly lostStartedAt: number | undefined,
    /** A liveness knock: its own fixed timeout, no retry, no verdict on the port. */
    readonly knock: boolean,
  ) {}

  onConnectResult(outcome: ConnectOutcome, code: string | undefined): void {
    this.scan.complete(this, outcome, code);
  }
}

interface PendingRetry {
  host: HostWork;
  port: number;
  tries: number;
  lostStartedAt: number | undefined;
  knock: boolean;
}

export async function scanTcpPorts(options: TcpScanOptions): Promise<TcpScanResult> {
  const family = await approveTarget(options.address, options.assertAllowed, options.signal);
  const ports = uniquePorts(options.ports);
  const { onProgress, address, ...rest } = options;
  let result: HostSweepResult | undefined;
  const summary = await new TcpSweep(
    {
      ...rest,
      addresses: [address],
      onHostDone: (r) => (result = r),
      ...(onProgress
        ? {
            onProgress: ({ done, openPorts }: SweepProgress) =>
              onProgress({ scanned: done, total: ports.length, openPorts: [...openPorts] }),
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
 * TCP connect sweep of the same ports on many hosts with one shared window and one
 * round-trip estimate, hosts taken in order as the window has room. With `liveness`,
 * each host is knocked on first and swept only when it answered, so discovery and the
 * sweep of a range overlap instead of running one after the other. A host the scope
 * policy refuses is reported (`refused`) and skipped; the sweep goes on.
 */
export async function sweepTcpHosts(options: TcpSweepOptions): Promise<TcpSweepSummary> {
  options.signal?.throwIfAborted();
  return new TcpSweep(options, uniquePorts(options.ports)).run();
}

function uniquePorts(ports: readonly number[]): number[] {
  for (const port of ports) {
    if (!Number.isInteger(port) || port < MIN_PORT || port > MAX_PORT) {
      throw new RangeError(`port ${port} is not between ${MIN_PORT} and ${MAX_PORT}`);
    }
  }
  return [...new Set(ports)];
}

class TcpSweep {
  private readonly connector: Connector;
  private readonly rtt: RttEstimator;
  private readonly window: ConcurrencyWindow;
  private readonly retries: number;
  private readonly maxActiveHosts: number;
  private readonly knockPorts: number[];
  private readonly startedAt = now();

  private readonly addresses: Iterator<string>;
  private addressesLeft = true;
  /** An address is being approved by the scope policy (asynchronously). */
  private admitting = false;
  /** Hosts in progress, in the order they were taken. */
  private readonly active: HostWork[] = [];
  private readonly retryQueue: PendingRetry[] = [];
  private readonly inFlight = new Set<Attempt>();
  private hosts = 0;
  private aliveHosts = 0;
  private done = 0;
  private attempts = 0;
  private timeouts = 0;
  private resourceShortages = 0;

  private resourcePausedUntil = 0;
  private resourceBackoffMs = 10;
  /** When the current run of resource shortages began. */
  private shortageSince: number | undefined;
  private lastResourceCode: string | undefined;

  private sweepTimer: NodeJS.Timeout | undefined;
  private resumeTimer: NodeJS.Timeout | undefined;
  private lastSweepAt = now();
  private sweepIntervalMs = 100;
  private skippedSweep = false;
  private lastProgressAt = 0;
  private reportedDone = -1;
  private lastOpen: readonly number[] = [];

  private settled = false;
  private resolve!: (result: TcpSweepSummary) => void;
  private reject!: (reason: unknown) => void;
  private readonly onAbort = (): void => this.fail(this.options.signal?.reason);

  constructor(
    private readonly options: TcpSweepOptions,
    private readonly ports: number[],
    /** The family of the only address, already approved (scanTcpPorts). */
    private readonly approvedFamily?: 4 | 6,
  ) {
    const engine = options.engine ?? 'auto';
    this.connector = typeof engine === 'string' ? connectorByName(engine) : engine;
    const maxTimeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
    this.rtt = new RttEstimator({
      initialTimeoutMs: maxTimeoutMs,
      minTimeoutMs: Math.min(options.minTimeoutMs ?? DEFAULTS.minTimeoutMs, maxTimeoutMs),
      maxTimeoutMs,
    });
    const max = Math.max(1, Math.floor(options.concurrency ?? DEFAULTS.concurrency));
    this.window = new ConcurrencyWindow({
      initial: options.initialConcurrency ?? DEFAULTS.initialConcurrency,
      min: Math.min(MIN_CONCURRENCY, max),
      max,
    });
    this.retries = Math.max(0, options.retries ?? DEFAULTS.retries);
    this.maxActiveHosts = Math.max(1, options.maxActiveHosts ?? DEFAULTS.maxActiveHosts);
    this.knockPorts = options.liveness ? uniquePorts(options.liveness.ports) : [];
    this.addresses = options.addresses[Symbol.iterator]();
  }

  run(): Promise<TcpSweepSummary> {
    return new Promise<TcpSweepSummary>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
      this.options.signal?.addEventListener('abort', this.onAbort, { once: true });
      this.scheduleSweep();
      this.pump();
      this.finishIfDone();
    });
  }

  /** Starts attempts until the window is full or nothing is left to start. */
  private pump(): void {
    while (!this.settled && this.inFlight.size < this.window.limit) {
      if (this.resourcePausedUntil > now()) return;
      const retry = this.retryQueue.shift();
      if (retry) {
        this.launch(retry.host, retry.port, retry.tries, retry.lostStartedAt, retry.knock);
        continue;
      }
      if (this.launchNextPort()) continue;
      if (!this.admitNextHost()) return;
    }
  }

  /** Launches the next port of the first host in progress that has one; false when none has. */
  private launchNextPort(): boolean {
    for (const host of this.active) {
      if (host.stage !== 'sweeping') continue;
      while (host.next < this.ports.length) {
        const port = this.ports[host.next++]!;
        if (host.known.has(port)) continue;
        this.launch(host, port, 1, undefined, false);
        return true;
      }
    }
    return false;
  }

  /**
   * Takes the next address (knocking on it when a liveness check is asked for). Answers
   * whether the pump may go on at once: false while the scope policy is being asked, or
   * when no more hosts may be taken now.
   */
  private admitNextHost(): boolean {
    if (this.admitting || !this.addressesLeft || this.active.length >= this.maxActiveHosts) return false;
    const next = this.addresses.next();
    if (next.done) {
      this.addressesLeft = false;
      return false;
    }
    const address = next.value;
    this.hosts++;
    if (this.approvedFamily !== undefined) {
      this.startHost(new HostWork(address, this.approvedFamily));
      return true;
    }
    this.admitting = true;
    approveTarget(address, this.options.assertAllowed, this.options.signal).then(
      (family) => {
        this.admitting = false;
        if (this.settled) return;
        this.startHost(new HostWork(address, family));
        this.pump();
        this.finishIfDone();
      },
      (refused: unknown) => {
        this.admitting = false;
        if (this.settled) return;
        if (this.options.signal?.aborted) return this.fail(this.options.signal.reason);
        this.done += this.ports.length;
        this.report({ address, alive: false, openPorts: [], filteredPorts: [], closedCount: 0, refused });
        this.pump();
        this.finishIfDone();
      },
    );
    return false;
  }

  private startHost(host: HostWork): void {
    this.active.push(host);
    if (this.knockPorts.length === 0) {
      host.alive = true;
      this.aliveHosts++;
      return;
    }
    host.stage = 'knocking';
    host.knocksLeft = this.knockPorts.length;
    for (const port of this.knockPorts) this.launch(host, port, 1, undefined, true);
  }

  private launch(
    host: HostWork,
    port: number,
    tries: number,
    lostStartedAt: number | undefined,
    knock: boolean,
  ): void {
    const attempt = new Attempt(this, host, port, tries, lostStartedAt, knock);
    this.attempts++;
    host.inFlight++;
    this.inFlight.add(attempt);
    attempt.connection = this.connector.start(host.address, host.family, port, attempt);
  }

  complete(attempt: Attempt, outcome: ConnectOutcome, code: string | undefined): void {
    if (!this.inFlight.delete(attempt) || this.settled) return;
    const host = attempt.host;
    host.inFlight--;
    const at = now();
    if (outcome !== 'resource') {
      this.shortageSince = undefined;
      this.resourceBackoffMs = 10;
    }
    switch (outcome) {
      case 'open':
      case 'closed':
        this.rtt.sample(at - attempt.startedAt);
        this.window.onAnswer(this.rtt.isQueueing());
        if (attempt.lostStartedAt !== undefined) this.window.onLoss(attempt.lostStartedAt, at);
        if (attempt.knock) {
          host.alive = true;
          if (this.ports.includes(attempt.port)) {
            host.known.add(attempt.port);
            this.record(host, attempt.port, outcome);
          }
          this.knockAnswered(host);
        } else {
          this.record(host, attempt.port, outcome);
        }
        break;
      case 'unreachable':
        if (attempt.knock) this.knockAnswered(host);
        else this.record(host, attempt.port, 'filtered');
        break;
      case 'resource':
        this.onResourceShortage(attempt, code, at);
        break;
    }
    this.settleHost(host);
    this.pump();
    this.finishIfDone();
  }

  private record(host: HostWork, port: number, verdict: 'open' | 'closed' | 'filtered'): void {
    if (verdict === 'open') host.open.push(port);
    else if (verdict === 'closed') host.closedCount++;
    else host.filtered.push(port);
    host.done++;
    this.done++;
  }

  /** One knock of the host is over (answered, unreachable or timed out). */
  private knockAnswered(host: HostWork): void {
    host.knocksLeft--;
    if (host.knocksLeft > 0 || host.stage !== 'knocking') return;
    if (host.alive) {
      host.stage = 'sweeping';
      this.aliveHosts++;
    } else {
      // Down: none of its ports will be tried, and they all count as done.
      host.stage = 'sweeping';
      host.next = this.ports.length;
    }
  }

  /** Reports and forgets a host that has nothing left to do. */
  private settleHost(host: HostWork): void {
    if (host.stage !== 'sweeping' || host.inFlight > 0 || host.next < this.ports.length) return;
    if (this.retryQueue.some((r) => r.host === host)) return;
    const index = this.active.indexOf(host);
    if (index < 0) return;
    this.active.splice(index, 1);
    this.done += this.ports.length - host.done;
    this.lastOpen = host.open;
    this.report({
      address: host.address,
      alive: host.alive,
      openPorts: host.open.sort(byPort),
      filteredPorts: host.filtered.sort(byPort),
      closedCount: host.closedCount,
      smoothedRttMs: this.rtt.smoothedRttMs,
    });
  }

  private report(result: HostSweepResult): void {
    try {
      this.options.onHostDone?.(result);
    } catch (error) {
      this.fail(error);
    }
  }

  /** The port goes back to the front of the queue; the window shrinks, and with nothing in flight we wait. */
  private onResourceShortage(attempt: Attempt, code: string | undefined, at: number): void {
    this.resourceShortages++;
    this.lastResourceCode = code;
    this.window.onResourceShortage(this.inFlight.size + 1, at);
    this.retryQueue.unshift({
      host: attempt.host,
      port: attempt.port,
      tries: attempt.tries,
      lostStartedAt: attempt.lostStartedAt,
      knock: attempt.knock,
    });
    this.shortageSince ??= at;
    const waited = at - this.shortageSince;
    if (waited > (this.options.resourceWaitMs ?? DEFAULTS.resourceWaitMs)) {
      this.fail(new ScanResourceError(code, waited));
      return;
    }
    if (this.inFlight.size === 0) {
      this.resourcePausedUntil = at + this.resourceBackoffMs;
      clearTimeout(this.resumeTimer);
      this.resumeTimer = setTimeout(() => {
        this.pump();
        this.finishIfDone();
      }, this.resourceBackoffMs);
      this.resourceBackoffMs = Math.min(this.resourceBackoffMs * 2, RESOURCE_BACKOFF_MAX_MS);
    }
  }

  private scheduleSweep(): void {
    this.sweepIntervalMs = Math.min(100, Math.max(5, this.rtt.timeoutMs() / 4));
    this.sweepTimer = setTimeout(() => this.sweep(), this.sweepIntervalMs);
  }

  /** Times out overdue attempts and reports progress. */
  private sweep(): void {
    if (this.settled) return;
    const at = now();
    // After the event loop was stalled (a long GC pause, a busy process), answers that
    // already arrived may still be waiting behind this timer: give them one turn first.
    const stalled = at - this.lastSweepAt > 2 * this.sweepIntervalMs + 20 && !this.skippedSweep;
    this.skippedSweep = stalled;
    this.lastSweepAt = at;
    if (!stalled) {
      const knockTimeout = this.options.liveness?.timeoutMs ?? Infinity;
      const touched = new Set<HostWork>();
      for (const attempt of this.inFlight) {
        const limit = attempt.knock ? knockTimeout : this.rtt.timeoutMs(attempt.tries);
        if (at - attempt.startedAt > limit) {
          this.timeOut(attempt);
          touched.add(attempt.host);
        }
      }
      for (const host of touched) this.settleHost(host);
    }
    if (at - this.lastProgressAt >= PROGRESS_EVERY_MS) this.reportProgress();
    this.pump();
    this.finishIfDone();
    if (!this.settled) this.scheduleSweep();
  }

  private timeOut(attempt: Attempt): void {
    this.inFlight.delete(attempt);
    attempt.host.inFlight--;
    attempt.connection?.cancel();
    this.timeouts++;
    if (attempt.knock) {
      this.knockAnswered(attempt.host);
    } else if (attempt.tries <= this.retries) {
      this.retryQueue.push({
        host: attempt.host,
        port: attempt.port,
        tries: attempt.tries + 1,
        lostStartedAt: attempt.startedAt,
        knock: false,
      });
    } else {
      this.record(attempt.host, attempt.port, 'filtered');
    }
  }

  private reportProgress(): void {
    if (!this.options.onProgress || this.done === this.reportedDone) return;
    this.lastProgressAt = now();
    this.reportedDone = this.done;
    try {
      this.options.onProgress({ done: this.done, openPorts: this.active[0]?.open ?? this.lastOpen });
    } catch (error) {
      this.fail(error);
    }
  }

  private finishIfDone(): void {
    if (this.settled || this.inFlight.size > 0 || this.retryQueue.length > 0) return;
    if (this.admitting || this.active.length > 0) return;
    if (this.addressesLeft) {
      // Nothing in progress but addresses may remain: take the next one (or learn there is none).
      this.pump();
      if (this.settled || this.admitting || this.active.length > 0 || this.addressesLeft) return;
    }
    this.reportProgress();
    if (this.settled) return;
    this.stop();
    this.resolve({
      hosts: this.hosts,
      alive: this.aliveHosts,
      elapsedMs: now() - this.startedAt,
      stats: {
        engine: this.connector.name,
        attempts: this.attempts,
        timeouts: this.timeouts,
        resourceShortages: this.resourceShortages,
        peakConcurrency: this.window.peakLimit,
        finalConcurrency: this.window.limit,
        smoothedRttMs: this.rtt.smoothedRttMs,
        finalTimeoutMs: this.rtt.timeoutMs(),
      },
    });
  }

  private fail(reason: unknown): void {
    if (this.settled) return;
    this.stop();
    this.reject(reason ?? new Error(`port scan failed (${this.lastResourceCode ?? 'unknown reason'})`));
  }

  /** Destroys every pending socket and stops all timers: nothing runs after this. */
  private stop(): void {
    this.settled = true;
    clearTimeout(this.sweepTimer);
    clearTimeout(this.resumeTimer);
    this.options.signal?.removeEventListener('abort', this.onAbort);
    for (const attempt of this.inFlight) attempt.connection?.cancel();
    this.inFlight.clear();
    this.retryQueue.length = 0;
    this.active.length = 0;
  }
}
