import type { Knex } from 'knex';
import { FINDING_SEVERITIES, FINDING_STATUSES, type FindingStats } from '../schemas/findings.ts';
import { applyFilter, type FindingFilter } from './filters.ts';
import { statsCache } from './caches.ts';
import { findingsVersion } from './versions.ts';

const WEEK_MS = 7 * 24 * 3600 * 1000;
const DAY_SECONDS = 86_400;
/** Severity by severity_rank (0 = info … 4 = critical). */
const BY_RANK = [...FINDING_SEVERITIES].reverse();

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
export function statsGroupsQuery(db: Knex, orgId: string, filter: StatsFilter, now: Date): Knex.QueryBuilder {
  const weekAgo = new Date(now.getTime() - WEEK_MS);
  const resolved = "status = 'resolved' and resolved_at is not null";
  return applyFilter(db('findings'), orgId, filter)
    .select(
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
    )
    .groupBy('tool', 'severity_rank', 'status');
}

/** Adds the group rows up into the statistics (every severity and status key present, tools by name). */
export function foldStatsGroups(groups: StatsGroup[]): FindingStats {
  const stats: FindingStats = {
    total: 0,
    by_severity: Object.fromEntries(FINDING_SEVERITIES.map((s) => [s, 0])) as FindingStats['by_severity'],
    by_status: Object.fromEntries(FINDING_STATUSES.map((s) => [s, 0])) as FindingStats['by_status'],
    by_tool: {},
    trends: { new_this_week: 0, resolved_this_week: 0, average_resolution_days: 0 },
  };
  let resolutions = 0;
  let resolutionSeconds = 0;
  for (const g of [...groups].sort((a, b) => (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0))) {
    stats.total += g.n;
    stats.by_severity[BY_RANK[g.severity_rank]!] += g.n;
    stats.by_status[g.status] += g.n;
    stats.by_tool[g.tool] = (stats.by_tool[g.tool] ?? 0) + g.n;
    stats.trends.new_this_week += g.new_this_week;
    stats.trends.resolved_this_week += g.resolved_this_week;
    resolutions += g.resolutions;
    resolutionSeconds += g.resolution_seconds;
  }
  if (resolutions > 0) {
    const days = Math.max(0, resolutionSeconds / resolutions / DAY_SECONDS);
    stats.trends.average_resolution_days = Math.round(days * 100) / 100;
  }
  return stats;
}

/** The statistics, computed now (uncached). */
export async function computeFindingStats(
  db: Knex,
  orgId: string,
  filter: StatsFilter,
  now = new Date(),
): Promise<FindingStats> {
  return foldStatsGroups((await statsGroupsQuery(db, orgId, filter, now)) as StatsGroup[]);
}

/**
 * The statistics, served from a cache while the organization's findings are
 * unchanged (versions.ts) and for at most a minute, so a dashboard polled by many
 * people costs one aggregation per change rather than one per request.
 */
export async function findingStats(db: Knex, orgId: string, filter: StatsFilter): Promise<FindingStats> {
  const version = await findingsVersion(db, orgId);
  const key = JSON.stringify([
    orgId,
    filter.target?.toLowerCase() ?? null,
    filter.from ?? null,
    filter.to ?? null,
  ]);
  return statsCache.get(key, version, () => computeFindingStats(db, orgId, filter));
}

/** Counts by severity and status over a filter: the PDF export's summary. */
export async function findingTotals(db: Knex, orgId: string, filter: FindingFilter) {
  const row = (await applyFilter(db('findings'), orgId, filter)
    .select(
      db.raw('count(*)::int as total'),
      ...FINDING_SEVERITIES.map((s) =>
        db.raw('count(*) filter (where severity = ?)::int as ??', [s, `sev_${s}`]),
      ),
      ...FINDING_STATUSES.map((s) => db.raw('count(*) filter (where status = ?)::int as ??', [s, `st_${s}`])),
    )
    .first()) as Record<string, number>;
  return {
    total: row.total!,
    by_severity: Object.fromEntries(FINDING_SEVERITIES.map((s) => [s, row[`sev_${s}`]!])),
    by_status: Object.fromEntries(FINDING_STATUSES.map((s) => [s, row[`st_${s}`]!])),
  };
}
