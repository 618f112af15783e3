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

/** Columns a later sighting replaces; `first_seen_at` stays. */
const SEEN_COLUMNS = [
  'service',
  'product',
  'version',
  'tls',
  'eol_status',
  'eol_product',
  'eol_cycle',
  'eol_date',
  'last_seen_at',
  'last_scan_id',
] as const;

/** Records the services as seen now: a new port is added, a known one takes what this scan saw. */
export async function upsertAssetServices(db: Db, rows: readonly AssetServiceRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db('asset_services')
    .insert([...rows])
    .onConflict(['asset_id', 'protocol', 'port'])
    .merge([...SEEN_COLUMNS]);
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
