import type { Knex } from 'knex';
import type { Db } from '../db/index.ts';
import type { CredentialChecks, Framework, ScanType } from '../schemas/scans.ts';
import type { Frequency } from '../schemas/schedules.ts';
import type { StoredWebOptions } from './web-options.ts';

/**
 * Typed queries over `scan_schedules`: recurring scans of an organization.
 * Every query of the schedules API takes the organization id.
 */

// --- the schedules API (organization-scoped)

export interface ScheduleRow {
  id: string;
  org_id: string;
  created_by: string | null;
  target: string;
  scan_type: ScanType;
  frequency: Frequency;
  day_of_week: number | null;
  day_of_month: number | null;
  hour: number;
  timezone: string;
  frameworks: Framework[];
  ports: string | null;
  credential_checks: CredentialChecks;
  /** Web application options for the scans it starts, secrets sealed; null without. */
  web: StoredWebOptions | null;
  enabled: boolean;
  next_run_at: Date;
  last_run_at: Date | null;
  last_scan_id: string | null;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A new schedule as inserted: the columns without a default, and those with one if set. */
export type NewScheduleRow = Omit<
  ScheduleRow,
  'web' | 'enabled' | 'last_run_at' | 'last_scan_id' | 'last_error' | 'created_at' | 'updated_at'
> &
  Partial<
    Pick<ScheduleRow, 'enabled' | 'last_run_at' | 'last_scan_id' | 'last_error' | 'created_at' | 'updated_at'>
  > & {
    /** jsonb, written as JSON text (as every jsonb column here). */
    web?: string | null;
  };

declare module 'knex/types/tables.js' {
  interface Tables {
    scan_schedules: Knex.CompositeTableType<ScheduleRow, NewScheduleRow, Partial<ScheduleRow>>;
  }
}

/** Stores a schedule of the organization; returns the stored row. */
export async function insertSchedule(
  db: Db,
  orgId: string,
  values: Omit<NewScheduleRow, 'org_id'>,
): Promise<ScheduleRow> {
  const [row] = await db('scan_schedules')
    .insert({ ...values, org_id: orgId })
    .returning('*');
  if (!row) throw new Error('the schedule insert returned no row');
  return row;
}

/** How many schedules the organization has. */
export async function countSchedules(db: Db, orgId: string): Promise<number> {
  const [row] = await db('scan_schedules').where({ org_id: orgId }).count<{ total: number | string }[]>({
    total: '*',
  });
  return Number(row?.total ?? 0);
}

/** One page of the organization's schedules, oldest first (ties by id). */
export async function selectSchedulesPage(
  db: Db,
  orgId: string,
  page: { limit: number; offset: number },
): Promise<ScheduleRow[]> {
  return db('scan_schedules')
    .where({ org_id: orgId })
    .orderBy([
      { column: 'created_at', order: 'asc' },
      { column: 'id', order: 'asc' },
    ])
    .limit(page.limit)
    .offset(page.offset);
}

/** One of the organization's schedules, locked for an update; undefined for an unknown or foreign id. */
export async function lockScheduleOfOrganization(
  db: Db,
  orgId: string,
  scheduleId: string,
): Promise<ScheduleRow | undefined> {
  return db('scan_schedules').where({ org_id: orgId, id: scheduleId }).forUpdate().first();
}

/** Sets the `web` options (JSON text, secrets sealed) of one of the organization's schedules; the row, or undefined. */
export async function updateScheduleWeb(
  db: Db,
  orgId: string,
  scheduleId: string,
  web: string | null,
  now: Date,
): Promise<ScheduleRow | undefined> {
  const [row] = await db('scan_schedules')
    .where({ org_id: orgId, id: scheduleId })
    .update({ web: web as never, updated_at: now })
    .returning('*');
  return row;
}

/** Deletes one of the organization's schedules; returns how many rows went (0 or 1). */
export async function deleteScheduleOfOrganization(
  db: Db,
  orgId: string,
  scheduleId: string,
): Promise<number> {
  return db('scan_schedules').where({ org_id: orgId, id: scheduleId }).delete();
}

// --- the scheduler

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
