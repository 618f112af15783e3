import type { Db } from '../db/index.ts';
import { AppError } from '../errors.ts';
import { planAllows } from '../identity/plans.ts';
import type { Services } from '../services.ts';
import { purgeExpiredIdempotencyKeys } from './idempotency.ts';
import { announceScanQueued } from './queue-signal.ts';
import { assertMonthlyQuota, lockOrganization } from './quota.ts';
import { queueScan } from './lifecycle.ts';
import { lockNextDueSchedule, updateScheduleRun } from './scan-schedules.repository.ts';
import { nextRunAt } from './schedule-time.ts';

/**
 * Turns due schedules into scans. Any number of processes may run this at the
 * same time: each schedule is claimed with `FOR UPDATE SKIP LOCKED` in its own
 * transaction, which also creates the scan and moves `next_run_at` past now,
 * so a due schedule yields exactly one scan. Scheduled scans count against the
 * monthly quota (used up: `last_error` is set and nothing is created) but never
 * against the concurrency ceiling: they wait in `pending` until a runner has a
 * free slot. A schedule that was due several times while no scheduler ran
 * fires once, then resumes its rhythm. The runner checks the target against
 * the scope policy when it starts the scan, as for every scan.
 */

export interface ScheduleRunOutcome {
  scheduleId: string;
  orgId: string;
  /** The scan created, when one was. */
  scanId?: string;
  /** Why no scan was created. */
  error?: string;
}

type SchedulerServices = Pick<Services, 'db' | 'logger'> & Partial<Pick<Services, 'engine'>>;

/** Runs every schedule due at `now` once; answers what each one did. */
export async function runDueSchedules(
  services: SchedulerServices,
  now = new Date(),
): Promise<ScheduleRunOutcome[]> {
  const outcomes: ScheduleRunOutcome[] = [];
  for (;;) {
    const outcome = await services.db.transaction((trx) => runOneDueSchedule(trx, now));
    if (!outcome) break;
    if (outcome.scanId) {
      services.logger.info({ schedule: outcome.scheduleId, scan: outcome.scanId }, 'scheduled scan created');
      announceScanQueued(services);
    } else {
      services.logger.warn(
        { schedule: outcome.scheduleId, reason: outcome.error },
        'scheduled scan not created',
      );
    }
    outcomes.push(outcome);
  }
  return outcomes;
}

/** Claims one due schedule nobody else holds and runs it; undefined when none is left. */
async function runOneDueSchedule(trx: Db, now: Date): Promise<ScheduleRunOutcome | undefined> {
  const schedule = await lockNextDueSchedule(trx, now);
  if (!schedule) return undefined;
  const outcome: ScheduleRunOutcome = { scheduleId: schedule.id, orgId: schedule.org_id };

  let next: Date;
  try {
    next = nextRunAt(schedule, now);
  } catch (err) {
    // A zone this process cannot compute (should not happen: it was checked on creation). Stop it, say why.
    outcome.error = `schedule disabled: ${(err as Error).message}`;
    await updateScheduleRun(trx, schedule.org_id, schedule.id, {
      enabled: false,
      last_error: outcome.error,
      updated_at: now,
    });
    return outcome;
  }

  const org = await lockOrganization(trx, schedule.org_id);
  if (!planAllows(org.plan, 'schedules')) {
    outcome.error = `scheduled scans are not on the ${org.plan} plan`;
  } else {
    try {
      await assertMonthlyQuota(trx, org, now);
      const scan = await queueScan(trx, {
        orgId: schedule.org_id,
        createdBy: schedule.created_by,
        scheduleId: schedule.id,
        target: schedule.target,
        scanType: schedule.scan_type,
        frameworks: schedule.frameworks ?? [],
        ports: schedule.ports,
        credentialChecks: schedule.credential_checks,
        web: schedule.web,
        createdAt: now,
      });
      outcome.scanId = scan.id;
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      outcome.error = err.detail;
    }
  }
  await updateScheduleRun(trx, schedule.org_id, schedule.id, {
    next_run_at: next,
    last_run_at: now,
    last_error: outcome.error ?? null,
    ...(outcome.scanId ? { last_scan_id: outcome.scanId } : {}),
    updated_at: now,
  });
  return outcome;
}

/**
 * Runs the scheduler every `intervalMs` (first run at once), one pass at a
 * time, plus the expiry of old idempotency keys. Returns a function that stops
 * it and waits for a pass under way.
 */
export function startScheduler(services: SchedulerServices, intervalMs = 30_000): () => Promise<void> {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<void> | undefined;

  const tick = () => {
    pass = (async () => {
      try {
        await runDueSchedules(services, new Date());
        await purgeExpiredIdempotencyKeys(services.db);
      } catch (err) {
        services.logger.error({ err }, 'scheduler pass failed');
      }
    })();
    void pass.then(() => {
      pass = undefined;
      if (!stopped) timer = setTimeout(tick, intervalMs).unref();
    });
  };
  tick();

  return async () => {
    stopped = true;
    clearTimeout(timer);
    await pass;
  };
}
