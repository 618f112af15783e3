import type { Db } from '../db/index.ts';
import { FINDING_SEVERITIES, type FindingSeverity } from '../schemas/findings.ts';
import type { Overview } from '../schemas/overview.ts';
import {
  selectOverviewCounts,
  selectTopCves,
  selectTopTargets,
  selectWeeklyTrend,
  type AgeRange,
} from './findings-stats.repository.ts';

/**
 * The findings half of the overview (GET /api/v1/overview; docs/overview.md): counts of the
 * open findings by severity and age, overdue and KEV counts, new and resolved findings per
 * week, the top targets and CVEs. Every figure carries the findings-list query that shows
 * what it counted, built from the same bounds the counting used.
 */

const DAY_MS = 86_400_000;
const WEEKS = 12;
export const TOP_TARGETS = 5;
export const TOP_CVES = 10;

/** Age buckets in days since first detection: [min, max). */
export const AGE_BUCKETS: readonly { min: number; max: number | null }[] = [
  { min: 0, max: 8 },
  { min: 8, max: 31 },
  { min: 31, max: 91 },
  { min: 91, max: 181 },
  { min: 181, max: null },
];

const ageLabel = (b: { min: number; max: number | null }) =>
  b.max === null
    ? `Over ${b.min - 1} days`
    : b.min === 0
      ? `0–${b.max - 1} days`
      : `${b.min}–${b.max - 1} days`;

/** Monday 00:00 UTC of the week of `at`. */
export function weekStart(at: Date): Date {
  const day = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  return new Date(day.getTime() - sinceMonday * DAY_MS);
}

const BY_RANK = [...FINDING_SEVERITIES].reverse();

export type FindingsOverview = Omit<Overview, 'running_scans'>;

export async function findingsOverview(db: Db, orgId: string, now = new Date()): Promise<FindingsOverview> {
  const ranges: AgeRange[] = AGE_BUCKETS.map((b) => ({
    // Detected in (now - max days, now - min days]: at or after now - max, before now - min.
    from: b.max === null ? null : new Date(now.getTime() - b.max * DAY_MS),
    to: b.min === 0 ? null : new Date(now.getTime() - b.min * DAY_MS),
  }));
  const firstWeek = new Date(weekStart(now).getTime() - (WEEKS - 1) * 7 * DAY_MS);
  const counts = await selectOverviewCounts(db, orgId, ranges, now);
  const weekly = new Map((await selectWeeklyTrend(db, orgId, firstWeek)).map((w) => [w.week, w]));
  const targets = await selectTopTargets(db, orgId, TOP_TARGETS);
  const cves = await selectTopCves(db, orgId, TOP_CVES);
  const severities = (row: Record<FindingSeverity, number>) =>
    Object.fromEntries(FINDING_SEVERITIES.map((s) => [s, row[s] ?? 0])) as Record<FindingSeverity, number>;
  return {
    generated_at: now.toISOString(),
    open: {
      total: FINDING_SEVERITIES.reduce((n, s) => n + counts.sev[s], 0),
      by_severity: counts.sev,
      filter: { status: 'open' },
    },
    overdue: { total: counts.overdue, filter: { overdue: 'true' } },
    kev: { total: counts.kev, filter: { status: 'open', kev: 'true' } },
    trend: Array.from({ length: WEEKS }, (_, i) => {
      const start = new Date(firstWeek.getTime() + i * 7 * DAY_MS);
      const end = new Date(start.getTime() + 7 * DAY_MS);
      const w = weekly.get(start.toISOString().slice(0, 10));
      return {
        week_start: start.toISOString(),
        week_end: end.toISOString(),
        new: w?.detected ?? 0,
        resolved: w?.resolved ?? 0,
        filter: { from_date: start.toISOString(), to_date: end.toISOString() },
        resolved_filter: {
          status: 'resolved',
          resolved_from: start.toISOString(),
          resolved_to: end.toISOString(),
        },
      };
    }),
    open_by_age: AGE_BUCKETS.map((b, i) => {
      const range = ranges[i]!;
      return {
        label: ageLabel(b),
        min_days: b.min,
        max_days: b.max,
        count: counts.ages[i] ?? 0,
        filter: {
          status: 'open',
          ...(range.from ? { from_date: range.from.toISOString() } : {}),
          ...(range.to ? { to_date: range.to.toISOString() } : {}),
        },
      };
    }),
    top_targets: targets.map((t) => ({
      target: t.target,
      open: t.open,
      by_severity: severities(t),
      filter: { status: 'open', target: t.target },
    })),
    top_cves: cves.map((c) => ({
      cve: c.cve,
      kev: c.kev,
      open: c.open,
      severity: BY_RANK[c.severity_rank] ?? 'info',
      filter: { status: 'open', cve: c.cve },
    })),
  };
}
