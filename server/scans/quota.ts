import type { Db } from '../db/index.ts';
import { AppError, notFound, rateLimited } from '../errors.ts';
import { effectiveLimits } from '../identity/plans.ts';
import { findOrganizationForUpdate, type OrganizationRow } from '../identity/organizations.repository.ts';
import { activeScans, countScansCreatedSince } from './scans.repository.ts';

/**
 * The monthly scan quota and the concurrency ceiling (decisions.md, "Scans").
 * Both are checked with the organization row locked in the transaction that
 * creates the scan, so processes creating scans at the same moment cannot
 * both slip under a limit.
 */

/** The UTC calendar month containing `now`: its first instant and the first instant of the next. */
export function monthWindow(now: Date): { start: Date; end: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end };
}

export interface QuotaReport {
  plan: OrganizationRow['plan'];
  monthly_limit: number;
  used_this_month: number;
  remaining: number;
  resets_at: string;
}

/** The quota record of GET /api/v1/scans/quota; -1 stands for unlimited. */
export async function quotaReport(db: Db, org: OrganizationRow, now = new Date()): Promise<QuotaReport> {
  const { start, end } = monthWindow(now);
  const limit = effectiveLimits(org).monthlyScans;
  const used = await countScansCreatedSince(db, org.id, start);
  return {
    plan: org.plan,
    monthly_limit: limit,
    used_this_month: used,
    remaining: limit < 0 ? -1 : Math.max(0, limit - used),
    resets_at: end.toISOString(),
  };
}

/**
 * Locks the organization row until the transaction ends and returns it fresh
 * (limits included). Every scan creation takes this lock first, which makes
 * the count-then-insert below atomic across processes.
 */
export async function lockOrganization(trx: Db, orgId: string): Promise<OrganizationRow> {
  const org = await findOrganizationForUpdate(trx, orgId);
  if (!org) throw notFound('organization');
  return org;
}

export const scanQuotaExceeded = (limit: number, resetsAt: Date) =>
  new AppError(
    403,
    'SCAN_QUOTA_EXCEEDED',
    `the monthly scan quota of ${limit} scans is used up; it resets at ${resetsAt.toISOString()}`,
  );

/** Throws 403 SCAN_QUOTA_EXCEEDED when the organization has no scan left this month. Needs the org lock. */
export async function assertMonthlyQuota(trx: Db, org: OrganizationRow, now: Date): Promise<void> {
  const limit = effectiveLimits(org).monthlyScans;
  if (limit < 0) return;
  const { start, end } = monthWindow(now);
  if ((await countScansCreatedSince(trx, org.id, start)) >= limit) throw scanQuotaExceeded(limit, end);
}

const MIN_RETRY_SECONDS = 10;
const MAX_RETRY_SECONDS = 3600;

/**
 * Throws 429 CONCURRENT_SCAN_LIMIT when the organization's pending + running
 * scans are at its plan's ceiling. Retry-After estimates when the first of
 * them should finish (from its estimated duration), within 10 s to 1 h.
 */
export async function assertConcurrency(trx: Db, org: OrganizationRow, now: Date): Promise<void> {
  const ceiling = effectiveLimits(org).concurrentScans;
  if (ceiling < 0) return;
  const active = await activeScans(trx, org.id);
  if (active.length < ceiling) return;
  const soonest = Math.min(
    ...active.map((s) => {
      const start = s.started_at ? s.started_at.getTime() : now.getTime();
      return (start + s.estimated_duration * 1000 - now.getTime()) / 1000;
    }),
  );
  const retryAfter = Math.min(MAX_RETRY_SECONDS, Math.max(MIN_RETRY_SECONDS, soonest));
  throw rateLimited(
    'CONCURRENT_SCAN_LIMIT',
    `the organization already has ${active.length} pending or running scans, its plan's limit of ${ceiling}`,
    retryAfter,
  );
}
