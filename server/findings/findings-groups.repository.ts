import type { Knex } from 'knex';
import type { Db } from '../db/index.ts';
import { applyFilter, type FindingFilter } from './findings.repository.ts';

/**
 * The findings list grouped (findings/groups.ts, GET /api/v1/findings/groups): the findings
 * the list's filter keeps, counted by severity per asset, per CVE or per check. Every query
 * takes the organization id.
 */

export type FindingGroupBy = 'asset' | 'cve' | 'check';

export interface FindingGroupRow {
  key: string | null;
  title: string | null;
  total: number | string;
  critical: number | string;
  high: number | string;
  medium: number | string;
  low: number | string;
  info: number | string;
}

/** The filtered findings as (group key, severity rank, title): a finding with two CVEs is in both groups. */
function keyed(db: Db, orgId: string, filter: FindingFilter, by: FindingGroupBy): Knex.QueryBuilder {
  const key = {
    asset: 'findings.asset_id',
    check: 'findings.template_id',
    cve: 'unnest(findings.cve_ids)',
  }[by];
  return applyFilter(db('findings'), orgId, filter).select(
    db.raw(`${key} as group_key`),
    'findings.severity_rank',
    'findings.title',
  );
}

const RANKS = { critical: 4, high: 3, medium: 2, low: 1, info: 0 } as const;

/** One page of groups: the worst severity first, then the most findings, then the key. */
export async function selectFindingGroups(
  db: Db,
  orgId: string,
  filter: FindingFilter,
  by: FindingGroupBy,
  page: { limit: number; offset: number },
): Promise<FindingGroupRow[]> {
  return db
    .from(keyed(db, orgId, filter, by).as('g'))
    .groupBy('g.group_key')
    .select(
      'g.group_key as key',
      db.raw('min(g.title) as title'),
      db.raw('count(*) as total'),
      ...Object.entries(RANKS).map(([name, rank]) =>
        db.raw(`count(*) filter (where g.severity_rank = ${rank}) as ${name}`),
      ),
    )
    .orderByRaw('max(g.severity_rank) desc, count(*) desc, g.group_key asc nulls last')
    .limit(page.limit)
    .offset(page.offset) as Promise<FindingGroupRow[]>;
}

/** How many groups the filter's findings make. */
export async function countFindingGroups(
  db: Db,
  orgId: string,
  filter: FindingFilter,
  by: FindingGroupBy,
): Promise<number> {
  const groups = db
    .from(keyed(db, orgId, filter, by).as('g'))
    .groupBy('g.group_key')
    .select('g.group_key');
  const [row] = await db.from(groups.as('k')).count<{ n: number | string }[]>({ n: '*' });
  return Number(row?.n ?? 0);
}
