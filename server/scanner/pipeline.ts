import { setMaxListeners } from 'node:events';
import type { Logger } from 'pino';
import { recordResults } from '../results/record.ts';
import {
  completeScan as completeScanRow,
  failScan,
  releaseScan,
  renewLease,
  resumePoint,
  savePhaseDone,
} from '../scans/lifecycle.ts';
import { phasesOf } from '../scans/phases.ts';
import type { Services } from '../services.ts';
import { analyseFindingsAhead } from './phases/ai-analysis.ts';
import { assessedControls } from './phases/compliance-mapping.ts';
import { PHASE_MODULES } from './phases/index.ts';
import { sweepCoverage } from './phases/enumeration.ts';
import { scanMetrics } from '../metrics/registry.ts';
import type { Phase as PhaseName, PhaseTimings } from '../schemas/scans.ts';
import { ProgressTracker } from './progress.ts';
import { createScopeGuard } from './scope-guard.ts';
import { prepareSweepThreads } from './net/sweep-threads.ts';
import { heartbeatIntervalMs } from './scan-rows.ts';
import { inventoryOf } from './inventory.ts';
import { emptyState, ScanAborted, type PhaseContext, type ScanRecord, type ScanState } from './types.ts';

interface ExecuteOptions {
  runnerId: string;
  signal: AbortSignal;
  takeover: boolean;
  log: Logger;
}

/** Progress, phase and current tool reach the scan row at most this often (and at least this soon). */
const PROGRESS_WRITE_MS = 500;

/** Why a scan stopped before completing, as seen from its runner. */
type StopReason = 'cancelled' | 'lease-lost' | 'runner-stopping';

/**
 * Runs one claimed scan through the phases of its type. Progress, phase and
 * current tool are written with every heartbeat, which also renews the lease
 * and notices a cancel (the scan is no longer `running` for this runner): then
 * every probe is aborted through the scan's AbortSignal.
 */
export async function executeScan(
  services: Services,
  scan: ScanRecord,
  options: ExecuteOptions,
): Promise<void> {
  const { db } = services;
  const log = options.log.child({ scan_id: scan.id });
  // The sweep threads load (tens of milliseconds) while the scan reads its state and runs
  // discovery; they are started by the first scan of a process and serve every later one.
  if (services.config.scanThreads > 0) prepareSweepThreads(services.config.scanThreads);
  const stored = await resumePoint(db, scan.id);
  if (!stored) return;
  const timings: PhaseTimings = { phases: {}, ...stored.phase_timings };
  // The state is the engine's own JSON, saved by savePhaseDone after each phase.
  const state: ScanState = { ...emptyState(), ...stored.state };
  const phases = phasesOf(scan.scan_type);
  const done = new Set(stored.phases_completed);
  const modules = phases.map((name) => PHASE_MODULES[name as keyof typeof PHASE_MODULES]);
  const completedWeight = modules.filter((m) => done.has(m.name)).reduce((sum, m) => sum + m.weight, 0);

  const controller = new AbortController();
  // Every queued probe listens on this one signal.
  setMaxListeners(0, controller.signal);
  let stopReason: StopReason | undefined;
  const abort = (reason: StopReason) => {
    stopReason ??= reason;
    controller.abort(new ScanAborted(reason));
  };
  options.signal.addEventListener('abort', () => abort('runner-stopping'), { once: true });

  let dirty = true;
  let currentPhase: PhaseName = phases.find((p) => !done.has(p)) ?? phases[phases.length - 1]!;
  /** When progress was last written, and a write that waits for the throttle. */
  let progressWrittenAt = 0;
  let progressTimer: NodeJS.Timeout | undefined;
  const tracker = new ProgressTracker(
    modules.map((m) => m.weight),
    completedWeight,
    () => {
      dirty = true;
      // A person sees the change within PROGRESS_WRITE_MS, and the row is written at most that often.
      progressTimer ??= setTimeout(
        () => {
          progressTimer = undefined;
          beat();
        },
        Math.max(0, progressWrittenAt + PROGRESS_WRITE_MS - performance.now()),
      );
    },
  );

  /** Renews the lease and writes progress; aborts the work when the scan is no longer ours. */
  const heartbeat = async () => {
    let progress: Parameters<typeof renewLease>[4];
    if (dirty) {
      progressWrittenAt = performance.now();
      progress = { progress: tracker.value, phase: currentPhase, current_tool: tracker.currentTool ?? null };
      dirty = false;
    }
    const held = await renewLease(
      db,
      scan.id,
      options.runnerId,
      services.config.runnerLeaseSeconds,
      progress,
    );
    if (held !== 'held') abort(held === 'cancelled' ? 'cancelled' : 'lease-lost');
  };
  let beating = Promise.resolve();
  let finished = false;
  const beat = () => {
    if (finished) return;
    beating = beating.then(heartbeat).catch((err: unknown) => log.warn({ err }, 'heartbeat failed'));
  };
  const timer = setInterval(beat, heartbeatIntervalMs(services.config.runnerLeaseSeconds));
  const stopBeating = async () => {
    finished = true;
    clearInterval(timer);
    clearTimeout(progressTimer);
    await beating;
  };

  const ctx: Omit<PhaseContext, 'progress'> = {
    scan,
    state,
    signal: controller.signal,
    services,
    log,
    assertAllowed: createScopeGuard(services.config, state),
  };

  try {
    const remaining = modules.filter((m) => !done.has(m.name));
    for (const [index, phase] of remaining.entries()) {
      if (controller.signal.aborted) throw controller.signal.reason;
      // The phase and progress reach the row with the next heartbeat or the phase's completion.
      currentPhase = phase.name;
      const progress = tracker.startPhase(phase.weight);
      log.debug({ phase: phase.name }, 'phase started');
      const startedAt = performance.now();
      const outcome = await phase.run({ ...ctx, progress });
      if (controller.signal.aborted) throw controller.signal.reason;
      const ms = Math.round(performance.now() - startedAt);
      // A phase with nothing to do is `skipped` with its reason, not done in 0.0 s.
      if (outcome?.skipped) timings.skipped = { ...timings.skipped, [phase.name]: outcome.skipped };
      else timings.phases[phase.name] = ms;
      scanMetrics.phaseDuration.observe({ phase: phase.name }, ms / 1000);
      tracker.finishPhase();
      done.add(phase.name);
      const next = remaining[index + 1];
      // The last phase is saved with the completion itself, a moment later.
      if (!next) break;
      const nextPhase = next.name;
      currentPhase = nextPhase;
      // In line with the heartbeats, so an older progress write never lands after this one.
      const saving = beating.then(() => {
        progressWrittenAt = performance.now();
        dirty = false;
        return savePhaseDone(db, scan.id, options.runnerId, services.config.runnerLeaseSeconds, {
          phasesCompleted: phases.filter((p) => done.has(p)),
          state,
          timings,
          progress: tracker.value,
          nextPhase,
        });
      });
      beating = saving.then(
        () => undefined,
        () => undefined,
      );
      const saved = await saving;
      if (!saved) await heartbeat();
    }
    await stopBeating();
    const completingAt = performance.now();
    const completed = await completeScan(services, scan, options.runnerId, state, timings, completingAt);
    if (completed) {
      scanMetrics.scanDuration.observe(
        { status: 'completed' },
        (Date.now() - new Date(stored.created_at).getTime()) / 1000,
      );
      log.info({ detections: state.detections.length, phase_timings: timings }, 'scan completed');
      // AI guidance is cached per finding, so it is worked out once the findings exist.
      // The scan is complete whatever happens here: a failure is a warning, never a failed scan.
      if (phases.includes('ai_analysis')) {
        await analyseFindingsAhead(services, scan, controller.signal, log).then(
          (note) => note && log.info(note),
          (err: unknown) => log.warn({ err }, 'AI analysis ahead failed'),
        );
      }
    }
  } catch (err) {
    await stopBeating();
    if (stopReason === 'cancelled' || stopReason === 'lease-lost') {
      log.info({ reason: stopReason }, 'scan stopped');
      return;
    }
    if (stopReason === 'runner-stopping') {
      // Hand the scan back at once: the next runner resumes after the last completed phase.
      await releaseScan(db, scan.id, options.runnerId);
      log.info('scan released for another runner');
      return;
    }
    log.error({ err, phase_timings: timings }, 'scan failed');
    const reason = err instanceof Error && err.name === 'ScanError' ? err.message : 'internal scanner error';
    await db.transaction((trx) => failScan(trx, scan.id, scan.org_id, reason));
    scanMetrics.scanDuration.observe(
      { status: 'failed' },
      (Date.now() - new Date(stored.created_at).getTime()) / 1000,
    );
  }
}

/**
 * Completes the scan in one transaction (the scan lifecycle's `completeScan`): the scan's
 * results go through the recorder (results/record.ts: findings, sources, assets, evidence,
 * events), then the scan becomes completed and `scan.completed` is queued with its changes.
 */
async function completeScan(
  services: Services,
  scan: ScanRecord,
  runnerId: string,
  state: ScanState,
  timings: PhaseTimings,
  startedAt: number,
): Promise<boolean> {
  return completeScanRow(services.db, scan, runnerId, { state, timings, startedAt }, async (trx, now) => {
    await recordResults(trx, {
      scan,
      source: { kind: 'scan', tool: 'scanward' },
      detections: state.detections,
      coverage: [...state.coverage, ...sweepCoverage(scan, state.hosts)],
      hosts: inventoryOf(state),
      assessedControls: state.compliance?.assessed ?? assessedControls(scan),
      evidence: {
        title: `${scan.scan_type} scan of ${scan.target}`,
        description: `Assessed by scan ${scan.id}, completed ${now.toISOString()}.`,
      },
      now,
    });
  });
}
