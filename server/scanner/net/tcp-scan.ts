/**
 * TCP connect port scan of one literal IP address: which of the given ports accept a
 * connection. No raw sockets, no privileges: each port gets a plain connect(), which
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

const DEFAULTS = {
  timeoutMs: 1250,
  minTimeoutMs: 100,
  concurrency: 512,
  initialConcurrency: 64,
  retries: 1,
  resourceWaitMs: 10_000,
};
const MIN_CONCURRENCY = 4;
const PROGRESS_EVERY_MS = 100;
const RESOURCE_BACKOFF_MAX_MS = 1000;

const now = (): number => performance.now();

class Attempt implements ConnectListener {
  connection: ConnectAttempt | undefined;
  readonly startedAt = now();

  constructor(
    private readonly scan: TcpScan,
    readonly port: number,
    readonly tries: number,
    /** When the previous, timed-out try of this port started. */
    readonly lostStartedAt: number | undefined,
  ) {}

  onConnectResult(outcome: ConnectOutcome, code: string | undefined): void {
    this.scan.complete(this, outcome, code);
  }
}

interface PendingRetry {
  port: number;
  tries: number;
  lostStartedAt: number | undefined;
}

export async function scanTcpPorts(options: TcpScanOptions): Promise<TcpScanResult> {
  const family = await approveTarget(options.address, options.assertAllowed, options.signal);
  const ports = uniquePorts(options.ports);
  return new TcpScan(options, family, ports).run();
}

function uniquePorts(ports: readonly number[]): number[] {
  for (const port of ports) {
    if (!Number.isInteger(port) || port < MIN_PORT || port > MAX_PORT) {
      throw new RangeError(`port ${port} is not between ${MIN_PORT} and ${MAX_PORT}`);
    }
  }
  return [...new Set(ports)];
}

class TcpScan {
  private readonly connector: Connector;
  private readonly rtt: RttEstimator;
  private readonly window: ConcurrencyWindow;
  private readonly retries: number;
  private readonly startedAt = now();

  private next = 0;
  private readonly retryQueue: PendingRetry[] = [];
  private readonly inFlight = new Set<Attempt>();
  private readonly open: number[] = [];
  private readonly filtered: number[] = [];
  private closedCount = 0;
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
  private reportedScanned = -1;

  private settled = false;
  private resolve!: (result: TcpScanResult) => void;
  private reject!: (reason: unknown) => void;
  private readonly onAbort = (): void => this.fail(this.options.signal?.reason);

  constructor(
    private readonly options: TcpScanOptions,
    private readonly family: 4 | 6,
    private readonly ports: number[],
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
  }

  run(): Promise<TcpScanResult> {
    return new Promise<TcpScanResult>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
      this.options.signal?.addEventListener('abort', this.onAbort, { once: true });
      this.scheduleSweep();
      this.pump();
      this.finishIfDone();
    });
  }

  private get scanned(): number {
    return this.open.length + this.filtered.length + this.closedCount;
  }

  /** Starts attempts until the window is full or nothing is left to start. */
  private pump(): void {
    while (!this.settled && this.inFlight.size < this.window.limit) {
      if (this.resourcePausedUntil > now()) return;
      const retry = this.retryQueue.shift();
      if (retry) {
        this.launch(retry.port, retry.tries, retry.lostStartedAt);
      } else if (this.next < this.ports.length) {
        this.launch(this.ports[this.next++] as number, 1, undefined);
      } else {
        return;
      }
    }
  }

  private launch(port: number, tries: number, lostStartedAt: number | undefined): void {
    const attempt = new Attempt(this, port, tries, lostStartedAt);
    this.attempts++;
    this.inFlight.add(attempt);
    attempt.connection = this.connector.start(this.options.address, this.family, port, attempt);
  }

  complete(attempt: Attempt, outcome: ConnectOutcome, code: string | undefined): void {
    if (!this.inFlight.delete(attempt) || this.settled) return;
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
        if (outcome === 'open') this.open.push(attempt.port);
        else this.closedCount++;
        break;
      case 'unreachable':
        this.filtered.push(attempt.port);
        break;
      case 'resource':
        this.onResourceShortage(attempt, code, at);
        break;
    }
    this.pump();
    this.finishIfDone();
  }

  /** The port goes back to the front of the queue; the window shrinks, and with nothing in flight we wait. */
  private onResourceShortage(attempt: Attempt, code: string | undefined, at: number): void {
    this.resourceShortages++;
    this.lastResourceCode = code;
    this.window.onResourceShortage(this.inFlight.size + 1, at);
    this.retryQueue.unshift({
      port: attempt.port,
      tries: attempt.tries,
      lostStartedAt: attempt.lostStartedAt,
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
      this.resumeTimer = setTimeout(() => this.pump(), this.resourceBackoffMs);
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
      for (const attempt of this.inFlight) {
        if (at - attempt.startedAt > this.rtt.timeoutMs(attempt.tries)) this.timeOut(attempt);
      }
    }
    if (at - this.lastProgressAt >= PROGRESS_EVERY_MS) this.reportProgress();
    this.pump();
    this.finishIfDone();
    if (!this.settled) this.scheduleSweep();
  }

  private timeOut(attempt: Attempt): void {
    this.inFlight.delete(attempt);
    attempt.connection?.cancel();
    this.timeouts++;
    if (attempt.tries <= this.retries) {
      this.retryQueue.push({
        port: attempt.port,
        tries: attempt.tries + 1,
        lostStartedAt: attempt.startedAt,
      });
    } else {
      this.filtered.push(attempt.port);
    }
  }

  private reportProgress(): void {
    const scanned = this.scanned;
    if (!this.options.onProgress || scanned === this.reportedScanned) return;
    this.lastProgressAt = now();
    this.reportedScanned = scanned;
    try {
      this.options.onProgress({ scanned, total: this.ports.length, openPorts: [...this.open] });
    } catch (error) {
      this.fail(error);
    }
  }

  private finishIfDone(): void {
    if (this.settled || this.inFlight.size > 0 || this.retryQueue.length > 0) return;
    if (this.next < this.ports.length) return;
    this.reportProgress();
    if (this.settled) return;
    this.stop();
    const byPort = (a: number, b: number): number => a - b;
    this.resolve({
      address: this.options.address,
      openPorts: [...this.open].sort(byPort),
      filteredPorts: [...this.filtered].sort(byPort),
      closedCount: this.closedCount,
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
  }
}
