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
