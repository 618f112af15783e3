import type { Knex } from 'knex';
import type { Db } from '../db/index.ts';
import { severityRank } from '../scoring/severity.ts';
import type { FindingSeverity } from '../schemas/findings.ts';
import type { AssetRow } from './assets.repository.ts';

/**
 * The assets API's reads (assets/listing.ts): a page of the list and its count, one asset,
 * and the open findings of a page of assets by severity. Every query takes the organization id.
 */

/** Findings an asset counts as open: still to fix. */
const OPEN_STATUSES = ['open', 'in_progress'] as const;

export interface AssetFilter {
  /** An address prefix, or part of a name, ignoring case. */
  q?: string | undefined;
  /** With (true) or without (false) open findings. */
  has_open_findings?: boolean | undefined;
  /** With an open finding of this severity. */
  severity?: FindingSeverity | undefined;
  /** With (true) or without (false) a service past its end of life. */
  eol?: boolean | undefined;
}

/** `text` as a LIKE pattern matching it literally (`%` and `_` escaped). */
function literal(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function applyAssetFilter(query: Knex.QueryBuilder, orgId: string, filter: AssetFilter): Knex.QueryBuilder {
  query.where('assets.org_id', orgId);
  if (filter.q) {
    const q = literal(filter.q.toLowerCase());
    query.where((w) =>
      w
        .whereRaw('assets.address like ?', [`${q}%`])
        .orWhereRaw("array_to_string(assets.names, ' ') like ?", [`%${q}%`]),
    );
  }
  const openFindings = (severity?: FindingSeverity) =>
    function openOfAsset(this: Knex.QueryBuilder) {
      this.select(this.client.raw('1'))
        .from('findings as f')
        .whereRaw('f.org_id = assets.org_id')
        .whereRaw('f.asset_id = assets.id')
        .whereIn('f.status', [...OPEN_STATUSES]);
      if (severity) this.where('f.severity_rank', severityRank(severity));
    };
  if (filter.has_open_findings === true) query.whereExists(openFindings());
  if (filter.has_open_findings === false) query.whereNotExists(openFindings());
  if (filter.severity) query.whereExists(openFindings(filter.severity));
  const endOfLife = function eolService(this: Knex.QueryBuilder) {
    this.select(this.client.raw('1'))
      .from('asset_services as s')
      .whereRaw('s.asset_id = assets.id')
      .where('s.eol_status', 'end_of_life');
  };
  if (filter.eol === true) query.whereExists(endOfLife);
  if (filter.eol === false) query.whereNotExists(endOfLife);
  return query;
}

export type AssetListRow = AssetRow & { service_count: number | string; eol_count: number | string };

const withServiceCounts = (db: Db) => [
  'assets.*',
  db.raw('(select count(*) from asset_services s where s.asset_id = assets.id) as service_count'),
  db.raw(
    "(select count(*) from asset_services s where s.asset_id = assets.id and s.eol_status = 'end_of_life') as eol_count",
  ),
];

/** One page of the organization's assets, most recently seen first (ties by id). */
export async function selectAssetsPage(
  db: Db,
  orgId: string,
  filter: AssetFilter,
  page: { limit: number; offset: number },
): Promise<AssetListRow[]> {
  return applyAssetFilter(db('assets'), orgId, filter)
    .select(withServiceCounts(db))
    .orderBy([
      { column: 'assets.last_seen_at', order: 'desc' },
      { column: 'assets.id', order: 'desc' },
    ])
    .limit(page.limit)
    .offset(page.offset);
}

export async function countAssets(db: Db, orgId: string, filter: AssetFilter): Promise<number> {
  const [row] = await applyAssetFilter(db('assets'), orgId, filter).count<{ n: number | string }[]>({
    n: '*',
  });
  return Number(row?.n ?? 0);
}

/** The asset, or undefined for a missing or foreign id. */
export async function selectAsset(db: Db, orgId: string, assetId: string): Promise<AssetListRow | undefined> {
  return db('assets')
    .where('assets.org_id', orgId)
    .where('assets.id', assetId)
    .first<AssetListRow | undefined>(withServiceCounts(db));
}

/** Open findings of these assets by severity rank. */
export async function countOpenFindingsOfAssets(
  db: Db,
  orgId: string,
  assetIds: readonly string[],
): Promise<{ asset_id: string; severity_rank: number; n: number | string }[]> {
  if (assetIds.length === 0) return [];
  return db('findings')
    .where({ org_id: orgId })
    .whereIn('asset_id', assetIds)
    .whereIn('status', [...OPEN_STATUSES])
    .groupBy('asset_id', 'severity_rank')
    .select('asset_id', 'severity_rank')
    .count({ n: '*' })
    .orderBy(['asset_id', 'severity_rank']) as unknown as Promise<
    { asset_id: string; severity_rank: number; n: number | string }[]
  >;
}

/** The address and names of these assets (labels of the findings' groups by asset). */
export async function selectAssetLabels(
  db: Db,
  orgId: string,
  assetIds: readonly string[],
): Promise<Pick<AssetRow, 'id' | 'address' | 'names'>[]> {
  if (assetIds.length === 0) return [];
  return db('assets')
    .where({ org_id: orgId })
    .whereIn('id', assetIds)
    .select('id', 'address', 'names')
    .orderBy('id');
}
