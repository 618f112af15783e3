import type { Db } from '../db/index.ts';
import type { Principal } from '../policies/principal.ts';
import { notFound, planUpgradeRequired, validationError } from '../errors.ts';
import { newId } from '../identity/ids.ts';
import type { OrganizationRow } from '../identity/organizations.repository.ts';
import { planAllows } from '../identity/plans.ts';
import { credentialChecksFor } from '../schemas/scans.ts';
import type { CreateScheduleRequest, Schedule, UpdateScheduleRequest } from '../schemas/schedules.ts';
import type { Services } from '../services.ts';
import { frameworksFor } from './create-scan.ts';
import { canonicalTimeZone, isValidTimeZone, nextRunAt } from './schedule-time.ts';
import {
  countSchedules,
  deleteScheduleOfOrganization,
  insertSchedule,
  selectSchedulesPage,
  lockScheduleOfOrganization,
  updateScheduleWeb,
  type ScheduleRow,
} from './scan-schedules.repository.ts';
import { scopePolicyFor } from './scope.ts';
import { assertWebOptionsFit, presentWebOptions, sealWebOptions } from './web-options.ts';

/**
 * Recurring scans (decisions.md, "Schedules"): professional and enterprise
 * plans only. Every query takes the organization id.
 */

/** Throws 403 PLAN_UPGRADE_REQUIRED when the organization's plan has no schedules. */
export function assertSchedulesOnPlan(org: OrganizationRow): void {
  if (!planAllows(org.plan, 'schedules')) throw planUpgradeRequired('Scheduled scans');
}

/**
 * Validates and stores a schedule: the time zone against the IANA database,
 * the target like a scan's (syntax, then scope after DNS), and its first run.
 */
export async function createSchedule(
  services: Pick<Services, 'db' | 'config' | 'keys'>,
  principal: Principal,
  request: CreateScheduleRequest,
  now = new Date(),
): Promise<ScheduleRow> {
  assertSchedulesOnPlan(principal.org);
  if (!isValidTimeZone(request.timezone)) {
    throw validationError('timezone', `timezone "${request.timezone}" is not an IANA time zone name`);
  }
  const timezone = canonicalTimeZone(request.timezone);
  const scope = await scopePolicyFor(services.config).checkTarget(request.target);
  assertWebOptionsFit(scope.target, request.scan_type, request.web);
  const recurrence = {
    frequency: request.frequency,
    day_of_week: request.day_of_week ?? null,
    day_of_month: request.day_of_month ?? null,
    hour: request.hour,
    timezone,
  };
  return insertSchedule(services.db, principal.org.id, {
    id: newId('sched'),
    created_by: principal.user.id,
    target: scope.target,
    scan_type: request.scan_type,
    ...recurrence,
    frameworks: frameworksFor(request.scan_type, request.frameworks),
    ports: request.ports?.trim() ?? null,
    credential_checks: credentialChecksFor(request.scan_type, request.credential_checks),
    web: request.web ? JSON.stringify(sealWebOptions(services.keys.encryptionKey, request.web)) : null,
    enabled: true,
    next_run_at: nextRunAt(recurrence, now),
    created_at: now,
    updated_at: now,
  });
}

/** One page of the organization's schedules, oldest first (ties by id). */
export async function listSchedules(
  db: Db,
  orgId: string,
  page: number,
  perPage: number,
): Promise<{ rows: ScheduleRow[]; total: number }> {
  const total = await countSchedules(db, orgId);
  const rows = await selectSchedulesPage(db, orgId, { limit: perPage, offset: (page - 1) * perPage });
  return { rows, total };
}

/**
 * Replaces a schedule's `web` options (or drops them with null) for the scans it starts from
 * now on; scans it already started keep theirs. The log-in page is checked against the
 * schedule's target. 404 for an unknown or foreign id.
 */
export async function updateSchedule(
  services: Pick<Services, 'db' | 'keys'>,
  orgId: string,
  scheduleId: string,
  request: UpdateScheduleRequest,
  now = new Date(),
): Promise<ScheduleRow> {
  return services.db.transaction(async (trx) => {
    const current = await lockScheduleOfOrganization(trx, orgId, scheduleId);
    if (!current) throw notFound('schedule');
    if (request.web) assertWebOptionsFit(current.target, current.scan_type, request.web);
    const web = request.web ? JSON.stringify(sealWebOptions(services.keys.encryptionKey, request.web)) : null;
    const row = await updateScheduleWeb(trx, orgId, scheduleId, web, now);
    if (!row) throw notFound('schedule');
    return row;
  });
}

/** Deletes a schedule; scans it already created stay. 404 for an unknown or foreign id. */
export async function deleteSchedule(db: Db, orgId: string, scheduleId: string): Promise<void> {
  const deleted = await deleteScheduleOfOrganization(db, orgId, scheduleId);
  if (deleted === 0) throw notFound('schedule');
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export function presentSchedule(row: ScheduleRow): Schedule {
  return {
    id: row.id,
    target: row.target,
    scan_type: row.scan_type,
    frequency: row.frequency,
    day_of_week: row.day_of_week,
    day_of_month: row.day_of_month,
    hour: row.hour,
    timezone: row.timezone,
    frameworks: row.frameworks ?? [],
    ports: row.ports,
    credential_checks: row.credential_checks,
    ...(row.web ? { web: presentWebOptions(row.web) } : {}),
    authorized: true,
    enabled: row.enabled,
    next_run_at: iso(row.next_run_at)!,
    last_run_at: iso(row.last_run_at),
    last_scan_id: row.last_scan_id,
    last_error: row.last_error,
    created_at: iso(row.created_at)!,
  };
}
