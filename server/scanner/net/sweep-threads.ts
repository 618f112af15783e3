/**
 * Sweep lanes on worker threads. A loopback or LAN sweep is CPU work, most of it in the
 * kernel on the thread that makes each connect() call, so one thread is one core: with a
 * lane per thread a sweep uses every core, and the thread that serves the API (with
 * `SCANWARD_ROLE=all`) only coordinates. The threads live as long as the process and serve
 * every sweep of it (several scans at once take turns on them); each is held open only
 * while it has a lane running, so an idle process can exit.
 */
import type { Worker } from 'node:worker_threads';
import { runsFromSource, startModuleWorker } from '../../worker-source.ts';
import type { ConnectorName } from './connectors.ts';
import {
  ScanResourceError,
  type LaneEvents,
  type LaneHostResult,
  type LaneJob,
  type LaneOptions,
  type TcpScanStats,
} from './sweep-lane.ts';

/** Lane options that can cross to a thread: the engine is named, not an object. */
export type ThreadLaneOptions = Omit<LaneOptions, 'engine'> & { engine?: 'auto' | ConnectorName };

export type SweepThreadRequest =
  | { kind: 'start'; sweep: number; options: ThreadLaneOptions }
  | { kind: 'add'; sweep: number; job: LaneJob }
  | { kind: 'end'; sweep: number }
  | { kind: 'abort'; sweep: number };

export type SweepThreadReport =
  | { kind: 'open'; sweep: number; id: number; port: number; smoothedRttMs: number | undefined }
  | { kind: 'host'; sweep: number; result: LaneHostResult }
  | { kind: 'progress'; sweep: number; done: number }
  | { kind: 'finished'; sweep: number; stats: TcpScanStats }
  | { kind: 'failed'; sweep: number; name: string; message: string };

class SweepThread {
  readonly worker: Worker;
  readonly lanes = new Map<number, ThreadLane>();

  constructor(private readonly onGone: (thread: SweepThread) => void) {
    const extension = runsFromSource(import.meta.url) ? 'ts' : 'js';
    this.worker = startModuleWorker(new URL(`./sweep-worker.${extension}`, import.meta.url));
    this.worker.unref();
    this.worker.on('message', (report: SweepThreadReport) => this.lanes.get(report.sweep)?.receive(report));
    this.worker.once('error', (error) => this.gone(error));
    this.worker.once('exit', (code) => this.gone(new Error(`the sweep thread stopped (exit ${code})`)));
  }

  post(request: SweepThreadRequest): void {
    this.worker.postMessage(request);
  }

  attach(lane: ThreadLane): void {
    if (this.lanes.size === 0) this.worker.ref();
    this.lanes.set(lane.sweep, lane);
  }

  detach(lane: ThreadLane): void {
    if (!this.lanes.delete(lane.sweep)) return;
    if (this.lanes.size === 0) this.worker.unref();
  }

  private gone(error: Error): void {
    this.onGone(this);
    for (const lane of [...this.lanes.values()]) lane.fail(error);
  }
}

let nextSweep = 1;

class ThreadLane {
  readonly sweep = nextSweep++;
  readonly finished: Promise<TcpScanStats>;
  private resolve!: (stats: TcpScanStats) => void;
  private reject!: (reason: unknown) => void;
  private ended = false;
  private settled = false;

  constructor(
    private readonly thread: SweepThread,
    options: ThreadLaneOptions,
    private readonly events: LaneEvents,
  ) {
    this.finished = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    thread.attach(this);
    thread.post({ kind: 'start', sweep: this.sweep, options });
  }

  add(job: LaneJob): void {
    if (!this.settled) this.thread.post({ kind: 'add', sweep: this.sweep, job });
  }

  end(): void {
    if (this.ended || this.settled) return;
    this.ended = true;
    this.thread.post({ kind: 'end', sweep: this.sweep });
  }

  /** Stops the thread's lane and settles at once: nothing it reports later is heard. */
  abort(reason: unknown): void {
    if (this.settled) return;
    this.thread.post({ kind: 'abort', sweep: this.sweep });
    this.fail(reason);
  }

  fail(reason: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.thread.detach(this);
    this.reject(reason);
  }

  receive(report: SweepThreadReport): void {
    if (this.settled) return;
    switch (report.kind) {
      case 'open':
        return this.events.onOpenPort(report.id, report.port, report.smoothedRttMs);
      case 'host':
        return this.events.onHostDone(report.result);
      case 'progress':
        return this.events.onProgress(report.done);
      case 'finished':
        this.settled = true;
        this.thread.detach(this);
        return this.resolve(report.stats);
      case 'failed': {
        // The thread's error, rebuilt here: its class where callers tell it apart, its text.
        const error = report.name === 'ScanResourceError' ? new ScanResourceError(undefined, 0) : new Error();
        error.message = report.message;
        error.name = report.name;
        return this.fail(error);
      }
    }
  }
}

const threads: SweepThread[] = [];
let rotation = 0;

function ensureThreads(count: number): void {
  while (threads.length < count) {
    threads.push(
      new SweepThread((gone) => {
        const index = threads.indexOf(gone);
        if (index >= 0) threads.splice(index, 1);
      }),
    );
  }
}

/** Starts `count` sweep threads ahead of the first sweep (a thread takes a moment to load). */
export function prepareSweepThreads(count: number): void {
  ensureThreads(count);
}

/** One lane per thread for a sweep, on `count` different threads (started as needed). */
export function startThreadLanes(
  count: number,
  options: ThreadLaneOptions,
  eventsOf: (lane: number) => LaneEvents,
): ThreadLane[] {
  ensureThreads(count);
  // Consecutive sweeps start on different threads, so two small sweeps do not share one.
  const first = rotation++ % threads.length;
  return Array.from(
    { length: count },
    (_, i) => new ThreadLane(threads[(first + i) % threads.length]!, options, eventsOf(i)),
  );
}

/** Stops every sweep thread (tests; a process that exits need not call it). */
export async function stopSweepThreads(): Promise<void> {
  const stopping = threads.splice(0).map((thread) => thread.worker.terminate());
  await Promise.all(stopping);
}
