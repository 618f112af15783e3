import type { Db } from '../db/index.ts';
import type { ScheduleRow } from './schedules.ts';

// --- added by scan-lifecycle

/**
 * Scheduler-internal (any organization): the schedule due longest, locked,
 * skipping those another scheduler holds.
 */
export async function lockNextDueSchedule(db: Db, now: Date): Promise<ScheduleRow | undefined> {
  return db<ScheduleRow>('scan_schedules')
    .where({ enabled: true })
    .where('next_run_at', '<=', now)
    .orderBy([
      { column: 'next_run_at', order: 'asc' },
      { column: 'id', order: 'asc' },
    ])
    .forUpdate()
    .skipLocked()
    .first();
}

/** What a scheduler run writes back to its schedule. */
export type ScheduleRunUpdate = Partial<
  Pick<ScheduleRow, 'enabled' | 'next_run_at' | 'last_run_at' | 'last_error' | 'last_scan_id' | 'updated_at'>
>;

export async function updateScheduleRun(
  db: Db,
  orgId: string,
  scheduleId: string,
  changes: ScheduleRunUpdate,
): Promise<void> {
  await db<ScheduleRow>('scan_schedules').where({ id: scheduleId, org_id: orgId }).update(changes);
}
