import type { Db } from '../db/index.ts';
import { FINDING_SEVERITIES, FINDING_STATUSES, type FindingStats } from '../schemas/findings.ts';
import type { FindingFilter } from './findings.repository.ts';
import {
  selectFindingTotals,
  selectStatsGroups,
  type StatsFilter,
  type StatsGroup,
} from './findings-stats.repository.ts';
import { statsCache } from './caches.ts';
import { findingsVersion } from './finding-versions.repository.ts';

const DAY_SECONDS = 86_400;
/** Severity by severity_rank (0 = info … 4 = critical). */
const BY_RANK = [...FINDING_SEVERITIES].reverse();

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
  db: Db,
  orgId: string,
  filter: StatsFilter,
  now = new Date(),
): Promise<FindingStats> {
  return foldStatsGroups(await selectStatsGroups(db, orgId, filter, now));
}

/**
 * The statistics, served from a cache while the organization's findings are
 * unchanged (finding-versions.repository.ts) and for at most a minute, so a
 * dashboard polled by many people costs one aggregation per change rather
 * than one per request.
 */
export async function findingStats(db: Db, orgId: string, filter: StatsFilter): Promise<FindingStats> {
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
export async function findingTotals(db: Db, orgId: string, filter: FindingFilter) {
  const row = await selectFindingTotals(db, orgId, filter);
  return {
    total: row.total,
    by_severity: Object.fromEntries(FINDING_SEVERITIES.map((s) => [s, row[`sev_${s}`]])),
    by_status: Object.fromEntries(FINDING_STATUSES.map((s) => [s, row[`st_${s}`]])),
  };
}
