import type { Db } from '../db/index.ts';
import {
  FINDING_SEVERITIES,
  FINDING_STATUSES,
  type FindingSeverity,
  type FindingStatus,
} from '../schemas/findings.ts';
import { applyFilter, type FindingFilter } from './findings.repository.ts';

/**
 * The statistics' reads (findings/stats.ts): the group rows `/findings/stats`
 * folds, and the totals the PDF export prints. Every query takes the
 * organization id.
 */

const WEEK_MS = 7 * 24 * 3600 * 1000;

export type StatsFilter = Pick<FindingFilter, 'target' | 'from' | 'to'>;

/** One row per (tool, severity, status) group of the filtered findings, with the trend counts. */
export interface StatsGroup {
  tool: string;
  severity_rank: number;
  status: (typeof FINDING_STATUSES)[number];
  n: number;
  new_this_week: number;
  resolved_this_week: number;
  resolutions: number;
  resolution_seconds: number;
}

/**
 * The statistics query: at most a few hundred group rows, aggregated by the
 * database from a covering index (findings_org_stats_idx), never from the
 * findings themselves. `from`/`to` limit by detection time; the trends count
 * the 7 days before `now`.
 */
export function statsGroupsQuery(db: Db, orgId: string, filter: StatsFilter, now: Date) {
  const weekAgo = new Date(now.getTime() - WEEK_MS);
  const resolved = "status = 'resolved' and resolved_at is not null";
  // groupBy before select: knex's typing of groupBy() would narrow the selected row type.
  return applyFilter(db('findings'), orgId, filter)
    .groupBy('tool', 'severity_rank', 'status')
    .select<StatsGroup[]>(
      'tool',
      'severity_rank',
      'status',
      db.raw('count(*)::int as n'),
      db.raw('count(*) filter (where detected_at >= ?)::int as new_this_week', [weekAgo]),
      db.raw(`count(*) filter (where ${resolved} and resolved_at >= ?)::int as resolved_this_week`, [
        weekAgo,
      ]),
      db.raw(`count(*) filter (where ${resolved})::int as resolutions`),
      db.raw(
        `coalesce(sum(extract(epoch from resolved_at - detected_at)) filter (where ${resolved}), 0)::float8 as resolution_seconds`,
      ),
    );
}

/** The statistics' group rows (see {@link statsGroupsQuery}). */
export async function selectStatsGroups(
  db: Db,
  orgId: string,
  filter: StatsFilter,
  now: Date,
): Promise<StatsGroup[]> {
  return statsGroupsQuery(db, orgId, filter, now);
}

/** `total`, `sev_<severity>` and `st_<status>` counts over a filter. */
export type FindingTotalsRow = { total: number } & Record<
  `sev_${FindingSeverity}` | `st_${FindingStatus}`,
  number
>;

/** Counts by severity and status over a filter, in one aggregate row. */
export async function selectFindingTotals(
  db: Db,
  orgId: string,
  filter: FindingFilter,
): Promise<FindingTotalsRow> {
  const row = await applyFilter(db('findings'), orgId, filter)
    .select<FindingTotalsRow[]>(
      db.raw('count(*)::int as total'),
      ...FINDING_SEVERITIES.map((s) =>
        db.raw('count(*) filter (where severity = ?)::int as ??', [s, `sev_${s}`]),
      ),
      ...FINDING_STATUSES.map((s) => db.raw('count(*) filter (where status = ?)::int as ??', [s, `st_${s}`])),
    )
    .first();
  // An aggregate without GROUP BY answers exactly one row, also over no findings.
  if (!row) throw new Error('the totals query answered no row');
  return row;
}

// --- the overview (GET /api/v1/overview, findings/overview.ts)

/** One age bucket of the open findings: detected at or after `from` (when set) and before `to` (when set). */
export interface AgeRange {
  from: Date | null;
  to: Date | null;
}

/** The open findings' counts: by severity, by age bucket, overdue at `now`, on the KEV list. */
export interface OverviewCountsRow {
  sev: Record<FindingSeverity, number>;
  ages: number[];
  overdue: number;
  kev: number;
}

/**
 * The overview's counts in one aggregate row over the organization's findings: the open ones
 * (status `open`) by severity, by age bucket and on the KEV list, and the overdue ones (past
 * their due date, `open` or `in_progress`: the `overdue` filter's rule).
 */
export async function selectOverviewCounts(
  db: Db,
  orgId: string,
  ages: readonly AgeRange[],
  now: Date,
): Promise<OverviewCountsRow> {
  const ageColumns = ages.map((range, i) => {
    const conditions = ["status = 'open'"];
    const bindings: Date[] = [];
    if (range.from) {
      conditions.push('detected_at >= ?');
      bindings.push(range.from);
    }
    if (range.to) {
      conditions.push('detected_at < ?');
      bindings.push(range.to);
    }
    return db.raw(`count(*) filter (where ${conditions.join(' and ')})::int as ??`, [
      ...bindings,
      `age_${i}`,
    ]);
  });
  const row = await db('findings')
    .where('org_id', orgId)
    .first<Record<string, number>>(
      ...FINDING_SEVERITIES.map((s) =>
        db.raw("count(*) filter (where status = 'open' and severity = ?)::int as ??", [s, `sev_${s}`]),
      ),
      ...ageColumns,
      db.raw("count(*) filter (where status in ('open', 'in_progress') and due_date < ?)::int as overdue", [
        now,
      ]),
      db.raw("count(*) filter (where status = 'open' and kev)::int as kev"),
    );
  // An aggregate without GROUP BY answers exactly one row, also over no findings.
  if (!row) throw new Error('the overview counts query answered no row');
  return {
    sev: Object.fromEntries(FINDING_SEVERITIES.map((s) => [s, row[`sev_${s}`] ?? 0])) as Record<
      FindingSeverity,
      number
    >,
    ages: ages.map((_, i) => row[`age_${i}`] ?? 0),
    overdue: row.overdue ?? 0,
    kev: row.kev ?? 0,
  };
}

/** Findings detected, and findings resolved, per week (weeks start on Monday, UTC) since `since`. */
export async function selectWeeklyTrend(
  db: Db,
  orgId: string,
  since: Date,
): Promise<{ week: string; detected: number; resolved: number }[]> {
  const week = (column: string) =>
    db.raw(`to_char(date_trunc('week', ?? at time zone 'UTC'), 'YYYY-MM-DD') as week`, [column]);
  const detected = await db('findings')
    .where('org_id', orgId)
    .where('detected_at', '>=', since)
    .groupByRaw('1')
    .select<{ week: string; n: number }[]>(week('detected_at'), db.raw('count(*)::int as n'));
  const resolved = await db('findings')
    .where('org_id', orgId)
    .where('status', 'resolved')
    .where('resolved_at', '>=', since)
    .groupByRaw('1')
    .select<{ week: string; n: number }[]>(week('resolved_at'), db.raw('count(*)::int as n'));
  const weeks = new Map<string, { week: string; detected: number; resolved: number }>();
  const at = (w: string) => weeks.get(w) ?? weeks.set(w, { week: w, detected: 0, resolved: 0 }).get(w)!;
  for (const r of detected) at(r.week).detected = r.n;
  for (const r of resolved) at(r.week).resolved = r.n;
  return [...weeks.values()];
}

/** The targets with the most open findings, with their counts by severity. */
export async function selectTopTargets(
  db: Db,
  orgId: string,
  limit: number,
): Promise<({ target: string; open: number } & Record<FindingSeverity, number>)[]> {
  return db('findings')
    .where({ org_id: orgId, status: 'open' })
    .groupBy('target')
    .select<({ target: string; open: number } & Record<FindingSeverity, number>)[]>(
      'target',
      db.raw('count(*)::int as open'),
      ...FINDING_SEVERITIES.map((s) => db.raw('count(*) filter (where severity = ?)::int as ??', [s, s])),
    )
    .orderBy([
      { column: 'open', order: 'desc' },
      { column: 'target', order: 'asc' },
    ])
    .limit(limit);
}

/** The CVEs of the most open findings, those on the KEV list first, with the worst severity seen. */
export async function selectTopCves(
  db: Db,
  orgId: string,
  limit: number,
): Promise<{ cve: string; kev: boolean; open: number; severity_rank: number }[]> {
  return db
    .from(db.raw('findings, unnest(findings.cve_ids) as c(cve)'))
    .where('findings.org_id', orgId)
    .where('findings.status', 'open')
    .groupBy('c.cve')
    .select<{ cve: string; kev: boolean; open: number; severity_rank: number }[]>(
      'c.cve',
      db.raw('bool_or(findings.kev) as kev'),
      db.raw('count(*)::int as open'),
      db.raw('max(findings.severity_rank)::int as severity_rank'),
    )
    .orderByRaw('bool_or(findings.kev) desc, count(*) desc, c.cve asc')
    .limit(limit);
}
