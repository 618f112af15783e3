/**
 * One lane of a TCP connect sweep: one window of attempts in flight (`concurrency-window.ts`)
 * and one round-trip estimate (`rtt-estimator.ts`), shared by every host the lane is given.
 * The sweep (`tcp-scan.ts`) runs one lane on its own thread, or one per worker thread
 * (`sweep-threads.ts`), and feeds them jobs: a host, already approved by the scope policy, and
 * which of the sweep's ports are this lane's share of it.
 *
 * Each port gets a plain connect(), which either completes (open), is reset (closed) or is
 * not answered in time (filtered); unanswered ports are retried once with a doubled timeout.
 * With a liveness check, a host is knocked on first and swept only when a knock was answered.
 * The lane holds state only for the hosts it was given and not yet finished.
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
import { RttEstimator } from './rtt-estimator.ts';
import type { IpFamily } from './target-address.ts';

/** How a sweep times and paces its attempts (every lane of it alike). */
export interface SweepTuning {
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
  /**
   * Knock on these ports of a host first (one try each, `timeoutMs` each) and sweep the
   * host only when one of them answered (open or refused); others count as down.
   */
  liveness?: { ports: readonly number[]; timeoutMs: number };
}

export interface LaneOptions extends SweepTuning {
  /** The sweep's ports, validated and without repeats. */
  ports: readonly number[];
  /** Which connect engine to use (default `auto`: the fastest available); tests may pass their own. */
  engine?: 'auto' | ConnectorName | Connector;
}

/** A host for a lane: `ports[i]` of the sweep for every i ≡ `stripe.index` (mod `stripe.count`). */
export interface LaneJob {
  id: number;
  address: string;
  family: IpFamily;
  stripe: { index: number; count: number };
}

export interface LaneHostResult {
  id: number;
  alive: boolean;
  openPorts: number[];
  filteredPorts: number[];
  closedCount: number;
  /** The lane's smoothed round-trip time when the host finished (undefined before any answer). */
  smoothedRttMs: number | undefined;
}

export interface LaneEvents {
  /** A port was found open (before its host is finished). */
  onOpenPort(jobId: number, port: number, smoothedRttMs: number | undefined): void;
  onHostDone(result: LaneHostResult): void;
  /** Host-ports of this lane with a final answer so far: about every 100 ms, and at the end. */
  onProgress(done: number): void;
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

export const SWEEP_DEFAULTS = {
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
const byPort = (a: number, b: number): number => a - b;

/** How many of `total` indexes a stripe holds. */
export function stripeSize(total: number, stripe: LaneJob['stripe']): number {
  return stripe.index >= total ? 0 : Math.floor((total - 1 - stripe.index) / stripe.count) + 1;
}

/** One host in progress: knocked on first when a liveness check is asked for, then swept. */
class HostWork {
  stage: 'knocking' | 'sweeping' = 'sweeping';
  /** Next index into the sweep's ports to launch while sweeping. */
  next: number;
  readonly step: number;
  readonly size: number;
  knocksLeft = 0;
  alive = false;
  inFlight = 0;
  /** Knocks and retries of this host waiting in the lane's queue. */
  queued = 0;
  readonly open: number[] = [];
  readonly filtered: number[] = [];
  closedCount = 0;
  /** Ports of the sweep a knock already answered (open or closed): not tried again. */
  readonly known = new Set<number>();
  /** Ports of this host with a final answer, counted for progress. */
  done = 0;

  constructor(
    readonly job: LaneJob,
    portCount: number,
  ) {
    this.next = job.stripe.index;
    this.step = job.stripe.count;
    this.size = stripeSize(portCount, job.stripe);
  }
}

class Attempt implements ConnectListener {
  connection: ConnectAttempt | undefined;
  readonly startedAt = now();

  constructor(
    private readonly lane: SweepLane,
    readonly host: HostWork,
    readonly port: number,
    readonly tries: number,
    /** When the previous, timed-out try of this port started. */
    readonly lostStartedAt: number | undefined,
    /** A liveness knock: its own fixed timeout, no retry, no verdict on the port. */
    readonly knock: boolean,
  ) {}

  onConnectResult(outcome: ConnectOutcome, code: string | undefined): void {
    this.lane.complete(this, outcome, code);
  }
}

interface QueuedAttempt {
  host: HostWork;
  port: number;
  tries: number;
  lostStartedAt: number | undefined;
  knock: boolean;
}

export class SweepLane {
  /** Settles once `end()` was called and every job is finished, or on the first failure. */
  readonly finished: Promise<TcpScanStats>;

  private readonly connector: Connector;
  private readonly rtt: RttEstimator;
  private readonly window: ConcurrencyWindow;
  private readonly retries: number;
  private readonly ports: readonly number[];
  /** Each port's index in `ports`, to tell whether a knocked port is in a host's stripe. */
  private readonly portIndex: Map<number, number>;
  private readonly knockPorts: readonly number[];
  private readonly knockTimeoutMs: number;
  private readonly resourceWaitMs: number;

  /** Jobs given and not started. */
  private readonly waiting: LaneJob[] = [];
  private ended = false;
  /** Hosts in progress, in the order they were started. */
  private readonly active: HostWork[] = [];
  /** Knocks of new hosts and retries, started before the next port of any host. */
  private readonly attemptQueue: QueuedAttempt[] = [];
  private readonly inFlight = new Set<Attempt>();
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

  private settled = false;
  private resolve!: (stats: TcpScanStats) => void;
  private reject!: (reason: unknown) => void;

  constructor(
    options: LaneOptions,
    private readonly events: LaneEvents,
  ) {
    const engine = options.engine ?? 'auto';
    this.connector = typeof engine === 'string' ? connectorByName(engine) : engine;
    const maxTimeoutMs = options.timeoutMs ?? SWEEP_DEFAULTS.timeoutMs;
    this.rtt = new RttEstimator({
      initialTimeoutMs: maxTimeoutMs,
      minTimeoutMs: Math.min(options.minTimeoutMs ?? SWEEP_DEFAULTS.minTimeoutMs, maxTimeoutMs),
      maxTimeoutMs,
    });
    const max = Math.max(1, Math.floor(options.concurrency ?? SWEEP_DEFAULTS.concurrency));
    this.window = new ConcurrencyWindow({
      initial: options.initialConcurrency ?? SWEEP_DEFAULTS.initialConcurrency,
      min: Math.min(MIN_CONCURRENCY, max),
      max,
    });
    this.retries = Math.max(0, options.retries ?? SWEEP_DEFAULTS.retries);
    this.ports = options.ports;
    this.portIndex = new Map(options.ports.map((port, index) => [port, index]));
    this.knockPorts = options.liveness ? [...new Set(options.liveness.ports)] : [];
    this.knockTimeoutMs = options.liveness?.timeoutMs ?? Infinity;
    this.resourceWaitMs = options.resourceWaitMs ?? SWEEP_DEFAULTS.resourceWaitMs;
    this.finished = new Promise<TcpScanStats>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    this.scheduleSweep();
  }

  /** Hands the lane a host; it starts as soon as the window has room. */
  add(job: LaneJob): void {
    if (this.settled) return;
    this.waiting.push(job);
    this.pump();
  }

  /** No more jobs will come: the lane finishes when the ones it has are done. */
  end(): void {
    this.ended = true;
    this.finishIfDone();
  }

  /** Destroys every pending socket and rejects `finished` with the reason. */
  abort(reason: unknown): void {
    this.fail(reason);
  }

  /** Starts attempts until the window is full or nothing is left to start. */
  private pump(): void {
    while (!this.settled && this.inFlight.size < this.window.limit) {
      if (this.resourcePausedUntil > now()) return;
      const queued = this.attemptQueue.shift();
      if (queued) {
        queued.host.queued--;
        this.launch(queued.host, queued.port, queued.tries, queued.lostStartedAt, queued.knock);
        continue;
      }
      if (this.launchNextPort()) continue;
      const job = this.waiting.shift();
      if (!job) return;
      this.startHost(new HostWork(job, this.ports.length));
    }
  }

  /** Launches the next port of the first host in progress that has one; false when none has. */
  private launchNextPort(): boolean {
    for (const host of this.active) {
      if (host.stage !== 'sweeping') continue;
      while (host.next < this.ports.length) {
        const port = this.ports[host.next]!;
        host.next += host.step;
        if (host.known.has(port)) continue;
        this.launch(host, port, 1, undefined, false);
        return true;
      }
    }
    return false;
  }

  private startHost(host: HostWork): void {
    this.active.push(host);
    if (this.knockPorts.length === 0) {
      host.alive = true;
      this.settleHost(host); // an empty stripe is done at once
      return;
    }
    host.stage = 'knocking';
    host.knocksLeft = this.knockPorts.length;
    // Queued, not launched: the pump starts them as the window has room, ahead of other ports.
    for (const port of this.knockPorts) {
      host.queued++;
      this.attemptQueue.push({ host, port, tries: 1, lostStartedAt: undefined, knock: true });
    }
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
    attempt.connection = this.connector.start(host.job.address, host.job.family, port, attempt);
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
          if (this.inStripe(host, attempt.port)) {
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

  private inStripe(host: HostWork, port: number): boolean {
    const index = this.portIndex.get(port);
    return index !== undefined && index % host.step === host.job.stripe.index;
  }

  private record(host: HostWork, port: number, verdict: 'open' | 'closed' | 'filtered'): void {
    if (verdict === 'open') {
      host.open.push(port);
      this.events.onOpenPort(host.job.id, port, this.rtt.smoothedRttMs);
    } else if (verdict === 'closed') host.closedCount++;
    else host.filtered.push(port);
    host.done++;
    this.done++;
  }

  /** One knock of the host is over (answered, unreachable or timed out). */
  private knockAnswered(host: HostWork): void {
    host.knocksLeft--;
    if (host.knocksLeft > 0 || host.stage !== 'knocking') return;
    host.stage = 'sweeping';
    // Down: none of its ports will be tried, and they all count as done.
    if (!host.alive) host.next = this.ports.length;
  }

  /** Reports and forgets a host that has nothing left to do. */
  private settleHost(host: HostWork): void {
    if (host.stage !== 'sweeping' || host.inFlight > 0 || host.queued > 0 || host.next < this.ports.length)
      return;
    const index = this.active.indexOf(host);
    if (index < 0) return;
    this.active.splice(index, 1);
    this.done += host.size - host.done;
    try {
      this.events.onHostDone({
        id: host.job.id,
        alive: host.alive,
        openPorts: host.open.sort(byPort),
        filteredPorts: host.filtered.sort(byPort),
        closedCount: host.closedCount,
        smoothedRttMs: this.rtt.smoothedRttMs,
      });
    } catch (error) {
      this.fail(error);
    }
  }

  /** The port goes back to the front of the queue; the window shrinks, and with nothing in flight we wait. */
  private onResourceShortage(attempt: Attempt, code: string | undefined, at: number): void {
    this.resourceShortages++;
    this.lastResourceCode = code;
    this.window.onResourceShortage(this.inFlight.size + 1, at);
    attempt.host.queued++;
    this.attemptQueue.unshift({
      host: attempt.host,
      port: attempt.port,
      tries: attempt.tries,
      lostStartedAt: attempt.lostStartedAt,
      knock: attempt.knock,
    });
    this.shortageSince ??= at;
    const waited = at - this.shortageSince;
    if (waited > this.resourceWaitMs) {
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
      const touched = new Set<HostWork>();
      for (const attempt of this.inFlight) {
        const limit = attempt.knock ? this.knockTimeoutMs : this.rtt.timeoutMs(attempt.tries);
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
      attempt.host.queued++;
      this.attemptQueue.push({
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
    if (this.done === this.reportedDone) return;
    this.lastProgressAt = now();
    this.reportedDone = this.done;
    try {
      this.events.onProgress(this.done);
    } catch (error) {
      this.fail(error);
    }
  }

  private finishIfDone(): void {
    if (this.settled || !this.ended || this.waiting.length > 0) return;
    if (this.inFlight.size > 0 || this.attemptQueue.length > 0 || this.active.length > 0) return;
    this.reportProgress();
    if (this.settled) return;
    this.stop();
    this.resolve({
      engine: this.connector.name,
      attempts: this.attempts,
      timeouts: this.timeouts,
      resourceShortages: this.resourceShortages,
      peakConcurrency: this.window.peakLimit,
      finalConcurrency: this.window.limit,
      smoothedRttMs: this.rtt.smoothedRttMs,
      finalTimeoutMs: this.rtt.timeoutMs(),
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
    for (const attempt of this.inFlight) attempt.connection?.cancel();
    this.inFlight.clear();
    this.attemptQueue.length = 0;
    this.active.length = 0;
    this.waiting.length = 0;
  }
}
