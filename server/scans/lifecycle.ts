import type { Db } from '../db/index.ts';
import { AppError, conflict, notFound } from '../errors.ts';
import { newId } from '../identity/ids.ts';
import { findOrganizationForUpdate } from '../identity/organizations.repository.ts';
import { effectiveLimits } from '../identity/plans.ts';
import {
  credentialChecksFor,
  type CredentialChecks,
  type Framework,
  type Phase,
  type PhaseTimings,
  type ScanStatus,
  type ScanType,
} from '../schemas/scans.ts';
import { appendEvent } from '../events/outbox.ts';
import type { ScanTally } from '../findings/lifecycle.ts';
import { estimatedDuration, firstPhase, phasesOf } from './phases.ts';
import { presentScanEvent } from './presenter.ts';
import type { StoredWebOptions } from './web-options.ts';
import {
  countLiveRunningScans,
  FINISHED_STATUSES,
  findScan,
  insertScanRow,
  lockHeldScan,
  lockNextClaimCandidate,
  lockStalledScans,
  savedProgress,
  scanChanges,
  scanStatusById,
  updateActiveScan,
  updateActiveScanById,
  updateClaimedScan,
  updateHeldScan,
  updateHeldScanReturning,
  updateScanCounts,
  type SavedProgress,
  type ScanChanges,
  type ScanRow,
} from './scans.repository.ts';

/**
 * The scan lifecycle: every change of a scan's state goes through here.
 *
 *   create ─► pending ─claim─► running ─phase done…─► completed
 *                 │              │  ▲ heartbeat (lease, progress)
 *                 │              │  └ takeover: lease expired, another runner claims it
 *                 └──cancel──────┴──► cancelled      (fail from either: failed)
 *
 * Each transition is one conditional UPDATE on the status it expects (and, for
 * the runner's, on holding the scan), so two actors can never both move a scan:
 * the one whose UPDATE touches no row lost the race. Every transition appends its
 * domain event (`scan.queued`, `scan.started`, `scan.progress`, `scan.completed`,
 * `scan.failed`, `scan.cancelled`) to the outbox in the transaction of the change
 * it reports (events/outbox.ts); webhooks and the event stream read it there. The SQL is in scans.repository.ts.
 */

/** Claims after which a scan that keeps losing its runner is failed instead. */
export const MAX_ATTEMPTS = 3;
/** Scans a claim looks at before giving up (each may belong to an organization at its ceiling). */
const CLAIM_CANDIDATES = 10;

// --- create, read, cancel (the API and the scheduler)

export interface NewScan {
  orgId: string;
  createdBy: string | null;
  scheduleId?: string | null;
  target: string;
  scanType: ScanType;
  frameworks: readonly Framework[];
  ports: string | null;
  /** Default: by scan type (`none` for quick scans, `defaults` otherwise). */
  credentialChecks?: CredentialChecks | undefined;
  /** Web application options, secrets already sealed (server/scans/web-options.ts). */
  web?: StoredWebOptions | null | undefined;
  createdAt: Date;
}

/**
 * Creates a pending scan: first phase of its type, progress 0, and appends
 * `scan.queued` (the stream's; webhooks hear of the scan when the runner starts it).
 * Call it in a transaction: the scan and its event commit together.
 */
export async function queueScan(db: Db, scan: NewScan): Promise<ScanRow> {
  const row = await insertScanRow(db, {
    id: newId('scan'),
    org_id: scan.orgId,
    created_by: scan.createdBy,
    schedule_id: scan.scheduleId ?? null,
    target: scan.target,
    scan_type: scan.scanType,
    frameworks: [...scan.frameworks],
    ports: scan.ports,
    credential_checks: credentialChecksFor(scan.scanType, scan.credentialChecks),
    web: scan.web ? JSON.stringify(scan.web) : null,
    status: 'pending',
    progress: 0,
    phase: firstPhase(scan.scanType),
    phases_completed: [],
    estimated_duration: estimatedDuration(scan.scanType),
    created_at: scan.createdAt,
    updated_at: scan.createdAt,
  });
  await appendEvent(
    db,
    scan.orgId,
    { type: 'scan.queued', subjectId: row.id, data: presentScanEvent(row) },
    scan.createdAt,
  );
  return row;
}

/** The scan, or 404 NOT_FOUND: the same answer for a missing scan and another organization's. */
export async function getScan(db: Db, orgId: string, scanId: string): Promise<ScanRow> {
  const scan = await findScan(db, orgId, scanId);
  if (!scan) throw notFound('scan');
  return scan;
}

export const scanNotCancellable = (status: ScanStatus) =>
  new AppError(409, 'SCAN_NOT_CANCELLABLE', `the scan is ${status} and can no longer be cancelled`);

/**
 * Cancels a pending or running scan, keeping its phase and progress (its
 * findings are only recorded when a scan completes, so it records none). A runner working on it sees the status change and stops.
 * Throws 404 for an unknown or foreign scan and 409 SCAN_NOT_CANCELLABLE for a
 * finished one.
 */
export async function cancelScan(
  db: Db,
  orgId: string,
  scanId: string,
  message: string,
  now = new Date(),
): Promise<ScanRow> {
  const row = await db.transaction(async (trx) => {
    const cancelled = await updateActiveScan(trx, orgId, scanId, {
      status: 'cancelled',
      message,
      current_tool: null,
      updated_at: now,
    });
    if (cancelled) {
      await appendEvent(
        trx,
        orgId,
        { type: 'scan.cancelled', subjectId: scanId, data: presentScanEvent(cancelled) },
        now,
      );
    }
    return cancelled;
  });
  if (row) return row;
  const scan = await getScan(db, orgId, scanId);
  // It existed but was not active (or finished between the two statements).
  if ((FINISHED_STATUSES as readonly string[]).includes(scan.status)) throw scanNotCancellable(scan.status);
  throw conflict('the scan changed while it was being cancelled; try again');
}

// --- the runner: claim (and takeover), heartbeat, phase done, complete, fail, release

/** What a claim hands the runner: the scan, and whether another runner had it before. */
export interface ScanClaim {
  scan: ScanRow;
  takeover: boolean;
  /** Milliseconds the scan waited between its creation and this (first) claim. */
  queueWaitMs?: number;
}

/**
 * Claims at most one scan for this runner: a pending scan, or a running scan
 * whose lease expired (its runner died: a takeover, which resumes after the
 * last completed phase). A scan that already lost its runner MAX_ATTEMPTS
 * times is failed instead. The organization row is locked while its running
 * scans are counted, so runners together never exceed the plan's concurrency.
 */
export async function claimNextScan(
  db: Db,
  runnerId: string,
  leaseSeconds: number,
  now = new Date(),
): Promise<ScanClaim | { failed: string } | undefined> {
  return db.transaction(async (trx) => {
    // One candidate at a time, so concurrent claimers each lock only the scan they try
    // (skipping those locked by others); a scan of an organization at its concurrency
    // ceiling stays locked by us until we finish and is passed over.
    const passedOver: string[] = [];
    for (let tries = 0; tries < CLAIM_CANDIDATES; tries++) {
      const candidate = await lockNextClaimCandidate(trx, now, passedOver);
      if (!candidate) return undefined;
      if (candidate.status === 'running' && candidate.attempts >= MAX_ATTEMPTS) {
        const error = `the scan lost its runner ${candidate.attempts} times (runner processes crashed or were stopped)`;
        await failScan(trx, candidate.id, candidate.org_id, error, now);
        return { failed: candidate.id };
      }
      const org = await findOrganizationForUpdate(trx, candidate.org_id);
      const limit = org ? effectiveLimits(org).concurrentScans : -1;
      if (limit >= 0 && (await countLiveRunningScans(trx, candidate.org_id, now)) >= limit) {
        passedOver.push(candidate.id);
        continue;
      }
      const takeover = candidate.status === 'running';
      const queueWaitMs = takeover
        ? undefined
        : Math.max(0, now.getTime() - new Date(candidate.created_at).getTime());
      const row = await updateClaimedScan(
        trx,
        candidate.id,
        {
          status: 'running',
          runner_id: runnerId,
          lease_expires_at: leaseUntil(now, leaseSeconds),
          attempts: candidate.attempts + 1,
          last_progress_at: now,
          updated_at: now,
          ...(takeover
            ? {}
            : {
                phase_timings: JSON.stringify({ queue_wait: queueWaitMs, phases: {} } satisfies PhaseTimings),
              }),
        },
        now,
      );
      if (!takeover) {
        await appendEvent(
          trx,
          candidate.org_id,
          { type: 'scan.started', subjectId: row.id, data: presentScanEvent(row) },
          now,
        );
      }
      return { scan: row, takeover, ...(queueWaitMs !== undefined ? { queueWaitMs } : {}) };
    }
    return undefined;
  });
}

/** Fails running scans that made no progress for the watchdog time. Returns their ids. */
export async function failStalledScans(db: Db, watchdogSeconds: number, now = new Date()): Promise<string[]> {
  const cutoff = new Date(now.getTime() - watchdogSeconds * 1000);
  return db.transaction(async (trx) => {
    const stalled = await lockStalledScans(trx, cutoff);
    for (const scan of stalled) {
      await failScan(
        trx,
        scan.id,
        scan.org_id,
        `the scan made no progress for ${watchdogSeconds} seconds`,
        now,
      );
    }
    return stalled.map((s) => s.id);
  });
}

/** What a runner resumes from: the phases done, the engine's state and the timings so far. */
export async function resumePoint(db: Db, scanId: string): Promise<SavedProgress | undefined> {
  return savedProgress(db, scanId);
}

/** Progress, phase and current tool as the runner last saw them. */
export interface ScanProgress {
  progress: number;
  phase: Phase;
  current_tool: string | null;
}

/**
 * Renews the lease of a scan the runner holds, writing its progress with it
 * when given. Answers `held`, or why the scan is no longer the runner's:
 * `cancelled`, or `lost` (failed by the watchdog, or taken over).
 */
export async function renewLease(
  db: Db,
  scanId: string,
  runnerId: string,
  leaseSeconds: number,
  progress: ScanProgress | undefined,
  now = new Date(),
): Promise<'held' | 'cancelled' | 'lost'> {
  const lease = { lease_expires_at: leaseUntil(now, leaseSeconds), updated_at: now };
  const held = progress
    ? await db.transaction(async (trx) => {
        const row = await updateHeldScanReturning(trx, scanId, runnerId, {
          ...lease,
          ...progress,
          last_progress_at: now,
        });
        if (row) await appendProgress(trx, row, now);
        return row !== undefined;
      })
    : (await updateHeldScan(db, scanId, runnerId, lease)) > 0;
  if (held) return 'held';
  return (await scanStatusById(db, scanId)) === 'cancelled' ? 'cancelled' : 'lost';
}

/** A completed phase, saved with the next phase's name and the lease in one write. */
export interface PhaseDone {
  phasesCompleted: readonly string[];
  /** The engine's state after the phase (plain JSON): a takeover resumes from it. */
  state: unknown;
  timings: PhaseTimings;
  progress: number;
  nextPhase: Phase;
}

/** Saves a completed phase; false when the scan is no longer the runner's. */
export async function savePhaseDone(
  db: Db,
  scanId: string,
  runnerId: string,
  leaseSeconds: number,
  done: PhaseDone,
  now = new Date(),
): Promise<boolean> {
  return db.transaction(async (trx) => {
    const row = await updateHeldScanReturning(trx, scanId, runnerId, {
      phases_completed: [...done.phasesCompleted],
      state: JSON.stringify(done.state),
      phase_timings: JSON.stringify(done.timings),
      progress: done.progress,
      phase: done.nextPhase,
      current_tool: null,
      lease_expires_at: leaseUntil(now, leaseSeconds),
      last_progress_at: now,
      updated_at: now,
    });
    if (row) await appendProgress(trx, row, now);
    return row !== undefined;
  });
}

/** `scan.progress`: the scan's progress, phase, phases done and current tool, for the stream. */
async function appendProgress(trx: Db, row: ScanRow, now: Date): Promise<void> {
  await appendEvent(
    trx,
    row.org_id,
    {
      type: 'scan.progress',
      subjectId: row.id,
      data: {
        id: row.id,
        status: row.status,
        progress: row.progress,
        phase: row.phase,
        phases_completed: row.phases_completed,
        current_tool: row.current_tool,
      },
    },
    now,
  );
}

/** Hands the scan back at once (runner stopping): the next runner resumes it without waiting for the lease. */
export async function releaseScan(db: Db, scanId: string, runnerId: string): Promise<void> {
  await updateHeldScan(db, scanId, runnerId, { lease_expires_at: new Date(0), runner_id: null });
}

/** The scan being completed, as the completion needs it. */
export interface HeldScan {
  id: string;
  org_id: string;
  scan_type: ScanType;
}

/**
 * Completes a scan the runner holds, in one transaction: `record` does the
 * work that commits with the completion (the scan's findings, its control
 * evidence), then the scan becomes `completed` with progress 100 and phase
 * `complete`, and `scan.completed` is queued with its changes. False when the
 * scan was cancelled (or taken over) at the last moment: nothing is written.
 */
export async function completeScan(
  db: Db,
  scan: HeldScan,
  runnerId: string,
  final: { state: unknown; timings: PhaseTimings; startedAt: number },
  record: (trx: Db, now: Date) => Promise<void>,
): Promise<boolean> {
  return db.transaction(async (trx) => {
    const now = new Date();
    if (!(await lockHeldScan(trx, scan.id, runnerId))) return false;
    await record(trx, now);
    const row = await updateHeldScanReturning(trx, scan.id, runnerId, {
      status: 'completed',
      progress: 100,
      phase: 'complete',
      phases_completed: [...phasesOf(scan.scan_type)],
      current_tool: null,
      completed_at: now,
      lease_expires_at: null,
      state: JSON.stringify(final.state),
      // The final step's own time, up to this write (the commit follows at once).
      phase_timings: JSON.stringify({
        ...final.timings,
        completion: Math.round(performance.now() - final.startedAt),
      } satisfies PhaseTimings),
      updated_at: now,
    });
    if (!row) return false;
    await appendEvent(
      trx,
      scan.org_id,
      {
        type: 'scan.completed',
        subjectId: scan.id,
        data: {
          ...presentScanEvent(row),
          changes: row.changes ?? { new: 0, reopened: 0, resolved: 0, unchanged: 0 },
        },
      },
      now,
    );
    return true;
  });
}

/**
 * Fails a pending or running scan with a reason and appends `scan.failed`, in
 * the caller's transaction. Runner-internal (by scan id). False when the scan
 * had already finished.
 */
export async function failScan(
  trx: Db,
  scanId: string,
  orgId: string,
  error: string,
  now = new Date(),
): Promise<boolean> {
  const row = await updateActiveScanById(trx, scanId, {
    status: 'failed',
    error,
    current_tool: null,
    runner_id: null,
    lease_expires_at: null,
    updated_at: now,
  });
  if (row) {
    await appendEvent(
      trx,
      orgId,
      { type: 'scan.failed', subjectId: scanId, data: { ...presentScanEvent(row), error } },
      now,
    );
  }
  return row !== undefined;
}

// --- counts (written as findings are recorded)

/**
 * Writes the scan's per-severity counts and, once the scan is complete, its
 * `changes`: the observations by change plus every finding it resolved over
 * all its recordings (`resolvedNow` more this time). Answers the changes.
 */
export async function writeScanCounts(
  db: Db,
  scan: { id: string; org_id: string },
  tally: {
    counts: ScanTally;
    byChange: Omit<ScanChanges, 'resolved'>;
    resolvedNow: number;
    completed: boolean;
  },
  now: Date,
): Promise<ScanChanges> {
  const previous = await scanChanges(db, scan.org_id, scan.id);
  const changes: ScanChanges = { ...tally.byChange, resolved: (previous?.resolved ?? 0) + tally.resolvedNow };
  const { counts } = tally;
  await updateScanCounts(db, scan.org_id, scan.id, {
    vulnerabilities_found: counts.vulnerabilities_found,
    critical_count: counts.critical,
    high_count: counts.high,
    medium_count: counts.medium,
    low_count: counts.low,
    info_count: counts.info,
    updated_at: now,
    ...(tally.completed ? { changes: JSON.stringify(changes) } : {}),
  });
  return changes;
}

function leaseUntil(now: Date, leaseSeconds: number): Date {
  return new Date(now.getTime() + leaseSeconds * 1000);
}

// --- imports (server/imports/): a scan another tool ran

export interface NewImportedScan {
  orgId: string;
  createdBy: string | null;
  target: string;
  scanType: ScanType;
  /** The tool that produced the report (`nuclei`, `zap`, `nmap`, `openvas`, `scanward`). */
  tool: string;
  /** The report's file name, when known. */
  reportName?: string | null | undefined;
  /** A local engine run's CI run, when its recorder named it. */
  ciRun?: string | null | undefined;
  resultsRead: number;
}

/**
 * Records a scan another tool ran, already finished: one row, `completed`, progress 100,
 * phase `complete`, `source: import`. `record` writes its findings (and evidence) in the
 * same transaction, after which the scan (with the counts and changes they wrote) is read
 * back and `scan.completed` is queued. The caller holds the organization's lock (quota).
 */
export async function recordImportedScan(
  trx: Db,
  scan: NewImportedScan,
  record: (row: ScanRow, now: Date) => Promise<void>,
  now = new Date(),
): Promise<ScanRow> {
  const inserted = await insertScanRow(trx, {
    id: newId('scan'),
    org_id: scan.orgId,
    created_by: scan.createdBy,
    schedule_id: null,
    target: scan.target,
    scan_type: scan.scanType,
    frameworks: [],
    ports: null,
    credential_checks: 'none',
    status: 'completed',
    progress: 100,
    phase: 'complete',
    phases_completed: [],
    estimated_duration: 0,
    source: 'import',
    tool: scan.tool,
    report_name: scan.reportName ?? null,
    ci_run: scan.ciRun ?? null,
    results_read: scan.resultsRead,
    created_at: now,
    started_at: now,
    completed_at: now,
    updated_at: now,
  });
  await record(inserted, now);
  const row = (await findScan(trx, scan.orgId, inserted.id))!;
  await appendEvent(
    trx,
    scan.orgId,
    {
      type: 'scan.completed',
      subjectId: row.id,
      data: {
        ...presentScanEvent(row),
        changes: row.changes ?? { new: 0, reopened: 0, resolved: 0, unchanged: 0 },
      },
    },
    now,
  );
  return row;
}
