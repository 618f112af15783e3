import type { Knex } from 'knex';
import type { Db } from '../db/index.ts';

/**
 * `asset_services`, the table: what listened on each port of an asset, as the latest scan
 * that saw the port identified it. The inventory's write and the detail view's read.
 */

export type EolStatus = 'end_of_life' | 'supported' | 'unknown';

export interface AssetServiceRow {
  asset_id: string;
  org_id: string;
  protocol: 'tcp' | 'udp';
  port: number;
  service: string;
  product: string | null;
  version: string | null;
  cpe: string | null;
  /** Who said what the product and version are: `scan`, `import:nmap`. */
  fact_source: string | null;
  /** 3 product and version, 2 product, 1 service name, 0 nothing (assets/service-facts.ts). */
  fact_specificity: number;
  tls: boolean;
  eol_status: EolStatus;
  eol_product: string | null;
  eol_cycle: string | null;
  eol_date: string | null;
  first_seen_at: Date;
  last_seen_at: Date;
  last_scan_id: string | null;
}

declare module 'knex/types/tables.js' {
  interface Tables {
    asset_services: Knex.CompositeTableType<AssetServiceRow, AssetServiceRow, Partial<AssetServiceRow>>;
  }
}

/** Columns of the fact (and what is judged from it): replaced only by a fact at least as specific. */
const FACT_COLUMNS = [
  'product',
  'version',
  'cpe',
  'fact_source',
  'fact_specificity',
  'eol_status',
  'eol_product',
  'eol_cycle',
  'eol_date',
] as const;

/**
 * Records the services as seen now: a new port is added; a known one takes the sighting (last
 * seen, TLS) and the fact only when the new fact is more specific than the stored one, or as
 * specific and not an import over a scan's fact.
 */
export async function upsertAssetServices(db: Db, rows: readonly AssetServiceRow[]): Promise<void> {
  if (rows.length === 0) return;
  // More specific wins; at equal specificity the later sighting does, except that an import
  // never replaces what Scanward's own scan read.
  const better =
    '(excluded.fact_specificity > asset_services.fact_specificity or ' +
    '(excluded.fact_specificity = asset_services.fact_specificity and ' +
    "(excluded.fact_source = 'scan' or coalesce(asset_services.fact_source, '') <> 'scan')))";
  const merge: Record<string, unknown> = {
    service: db.raw(
      `case when ${better} or asset_services.service = 'unknown' then excluded.service else asset_services.service end`,
    ),
    tls: db.raw(`case when ${better} then excluded.tls else asset_services.tls end`),
    last_seen_at: db.raw('excluded.last_seen_at'),
    last_scan_id: db.raw('excluded.last_scan_id'),
  };
  for (const column of FACT_COLUMNS)
    merge[column] = db.raw(`case when ${better} then excluded.?? else asset_services.?? end`, [
      column,
      column,
    ]);
  await db('asset_services')
    .insert([...rows])
    .onConflict(['asset_id', 'protocol', 'port'])
    .merge(merge as Partial<AssetServiceRow>);
}

/** The asset's services by port, or none for a foreign asset. */
export async function selectServicesOfAsset(
  db: Db,
  orgId: string,
  assetId: string,
): Promise<AssetServiceRow[]> {
  return db('asset_services')
    .where({ org_id: orgId, asset_id: assetId })
    .orderBy([
      { column: 'port', order: 'asc' },
      { column: 'protocol', order: 'asc' },
    ]);
}
