import { setMaxListeners } from 'node:events';
import type { Logger } from 'pino';
import { recordScanFindings } from '../findings/lifecycle.ts';
import { newId } from '../identity/ids.ts';
import { phasesOf, type PHASES } from '../scans/phases.ts';
import type { Services } from '../services.ts';
import { enqueueWebhookEvent } from '../webhooks/outbox.ts';
import { presentScanEvent } from './events.ts';
import { assessedControls } from './phases/compliance-mapping.ts';
import { PHASE_MODULES } from './phases/index.ts';
import { sweepCoverage } from './phases/enumeration.ts';
import { scanMetrics } from '../metrics/registry.ts';
import type { PhaseTimings } from '../schemas/scans.ts';
import { ProgressTracker } from './progress.ts';
import { createScopeGuard } from './scope-guard.ts';
import { failScanRow, heartbeatIntervalMs } from './scan-rows.ts';
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
  const stored = (await db('scans')
    .where({ id: scan.id })
    .first('phases_completed', 'state', 'phase_timings', 'created_at')) as {
    phases_completed: string[];
    state: ScanState | null;
    phase_timings: PhaseTimings | null;
    created_at: Date;
  };
  const timings: PhaseTimings = { phases: {}, ...stored.phase_timings };
  const state: ScanState = { ...emptyState(), ...(stored.state ?? {}) };
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
  let currentPhase: string = phases.find((p) => !done.has(p)) ?? phases[phases.length - 1]!;
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
    const now = new Date();
    const update: Record<string, unknown> = {
      lease_expires_at: new Date(now.getTime() + services.config.runnerLeaseSeconds * 1000),
      updated_at: now,
    };
    if (dirty) {
      progressWrittenAt = performance.now();
      Object.assign(update, {
        progress: tracker.value,
        phase: currentPhase,
        current_tool: tracker.currentTool ?? null,
        last_progress_at: now,
      });
      dirty = false;
    }
    const touched = await db('scans')
      .where({ id: scan.id, runner_id: options.runnerId, status: 'running' })
      .update(update);
    if (touched === 0) {
      const row = (await db('scans').where({ id: scan.id }).first('status')) as
        { status: string } | undefined;
      abort(row?.status === 'cancelled' ? 'cancelled' : 'lease-lost');
    }
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
      await phase.run({ ...ctx, progress });
      if (controller.signal.aborted) throw controller.signal.reason;
      const ms = Math.round(performance.now() - startedAt);
      timings.phases[phase.name as (typeof PHASES)[number]] = ms;
      scanMetrics.phaseDuration.observe({ phase: phase.name }, ms / 1000);
      tracker.finishPhase();
      done.add(phase.name);
      const next = remaining[index + 1];
      // The last phase is saved with the completion itself, a moment later.
      if (!next) break;
      currentPhase = next.name;
      // In line with the heartbeats, so an older progress write never lands after this one.
      const saving = beating.then(() => {
        const now = new Date();
        progressWrittenAt = performance.now();
        dirty = false;
        return db('scans')
          .where({ id: scan.id, runner_id: options.runnerId, status: 'running' })
          .update({
            phases_completed: phases.filter((p) => done.has(p)),
            state: JSON.stringify(state),
            phase_timings: JSON.stringify(timings),
            progress: tracker.value,
            phase: next.name,
            current_tool: null,
            lease_expires_at: new Date(now.getTime() + services.config.runnerLeaseSeconds * 1000),
            last_progress_at: now,
            updated_at: now,
          });
      });
      beating = saving.then(
        () => undefined,
        () => undefined,
      );
      const saved = await saving;
      if (saved === 0) await heartbeat();
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
    }
  } catch (err) {
    await stopBeating();
    if (stopReason === 'cancelled' || stopReason === 'lease-lost') {
      log.info({ reason: stopReason }, 'scan stopped');
      return;
    }
    if (stopReason === 'runner-stopping') {
      // Hand the scan back at once: the next runner resumes after the last completed phase.
      await db('scans')
        .where({ id: scan.id, runner_id: options.runnerId, status: 'running' })
        .update({ lease_expires_at: new Date(0), runner_id: null });
      log.info('scan released for another runner');
      return;
    }
    log.error({ err, phase_timings: timings }, 'scan failed');
    const reason = err instanceof Error && err.name === 'ScanError' ? err.message : 'internal scanner error';
    await db.transaction((trx) => failScanRow(trx, scan.id, scan.org_id, reason));
    scanMetrics.scanDuration.observe(
      { status: 'failed' },
      (Date.now() - new Date(stored.created_at).getTime()) / 1000,
    );
  }
}

/**
 * Completes the scan in one transaction: resolves findings the scan covered
 * but no longer detects, records the controls it assessed as evidence, marks
 * it completed and queues `scan.completed` with its changes.
 */
async function completeScan(
  services: Services,
  scan: ScanRecord,
  runnerId: string,
  state: ScanState,
  timings: PhaseTimings,
  startedAt: number,
): Promise<boolean> {
  return services.db.transaction(async (trx) => {
    const now = new Date();
    const owned = await trx('scans')
      .where({ id: scan.id, runner_id: runnerId, status: 'running' })
      .forUpdate()
      .first('id');
    if (!owned) return false; // cancelled at the last moment
    const coverage = [...state.coverage, ...sweepCoverage(scan, state.hosts)];
    await recordScanFindings(trx, { scan, detections: [], coverage, completed: true, now });
    const assessed = state.compliance?.assessed ?? assessedControls(scan);
    if (assessed.length > 0) {
      await trx('control_evidence')
        .insert(
          assessed.map((controlId) => ({
            id: newId('evid'),
            org_id: scan.org_id,
            control_id: controlId,
            kind: 'scan',
            scan_id: scan.id,
            title: `${scan.scan_type} scan of ${scan.target}`,
            description: `Assessed by scan ${scan.id}, completed ${now.toISOString()}.`,
            created_at: now,
          })),
        )
        .onConflict(['org_id', 'control_id', 'scan_id'])
        .ignore();
    }
    const [row] = (await trx('scans')
      .where({ id: scan.id, runner_id: runnerId, status: 'running' })
      .update({
        status: 'completed',
        progress: 100,
        phase: 'complete',
        phases_completed: phasesOf(scan.scan_type),
        current_tool: null,
        completed_at: now,
        lease_expires_at: null,
        state: JSON.stringify(state),
        // The final step's own time, up to this write (the commit follows at once).
        phase_timings: JSON.stringify({
          ...timings,
          completion: Math.round(performance.now() - startedAt),
        } satisfies PhaseTimings),
        updated_at: now,
      })
      .returning('*')) as Record<string, unknown>[];
    await enqueueWebhookEvent(
      trx,
      scan.org_id,
      'scan.completed',
      {
        ...presentScanEvent(row!),
        changes: row!.changes ?? { new: 0, reopened: 0, resolved: 0, unchanged: 0 },
      },
      now,
    );
    return true;
  });
}
