import type { Knex } from 'knex';
import type { Db } from '../db/index.ts';

/**
 * `assets`, the table (migrations/20261126040000_assets.ts): one row per host address an
 * organization's scans saw. Its registration in knex's table map, and the inventory's writes
 * (assets/inventory.ts); the API's reads live in assets-listing.repository.ts. Every query
 * takes the organization id.
 */

export interface AssetRow {
  id: string;
  org_id: string;
  address: string;
  names: string[];
  first_seen_at: Date;
  last_seen_at: Date;
  last_scan_id: string | null;
  created_at: Date;
  updated_at: Date;
}

type NewAssetRow = Omit<AssetRow, 'created_at' | 'updated_at'> &
  Partial<Pick<AssetRow, 'created_at' | 'updated_at'>>;

/** What an UPDATE may set (a column may be set to an SQL expression). */
type AssetUpdate = { [K in keyof Omit<AssetRow, 'id' | 'org_id'>]?: AssetRow[K] | Knex.Raw };

declare module 'knex/types/tables.js' {
  interface Tables {
    assets: Knex.CompositeTableType<AssetRow, NewAssetRow, AssetUpdate>;
  }
}

/** The organization's assets at these addresses, locked for the inventory's update. */
export async function lockAssetsAt(db: Db, orgId: string, addresses: readonly string[]): Promise<AssetRow[]> {
  if (addresses.length === 0) return [];
  return db('assets').where({ org_id: orgId }).whereIn('address', addresses).orderBy('address').forUpdate();
}

export async function insertAsset(db: Db, row: NewAssetRow): Promise<void> {
  await db('assets').insert(row);
}

export async function updateAssetSeen(
  db: Db,
  orgId: string,
  assetId: string,
  update: { names: string[]; last_seen_at: Date; last_scan_id: string },
): Promise<void> {
  await db('assets')
    .where({ org_id: orgId, id: assetId })
    .update({ ...update, updated_at: update.last_seen_at });
}

/**
 * A name now seen at these addresses leaves the organization's other assets (a name follows its
 * host's latest addresses).
 */
export async function removeNameElsewhere(
  db: Db,
  orgId: string,
  name: string,
  addresses: readonly string[],
  now: Date,
): Promise<void> {
  await db('assets')
    .where({ org_id: orgId })
    .whereNotIn('address', addresses)
    .whereRaw('names @> array[?]::text[]', [name])
    .update({ names: db.raw('array_remove(names, ?)', [name]), updated_at: now });
}

/** The organization's assets a host (an address or a name, lower case) names. */
export async function selectAssetsNamed(
  db: Db,
  orgId: string,
  hosts: readonly string[],
): Promise<Pick<AssetRow, 'id' | 'address' | 'names'>[]> {
  if (hosts.length === 0) return [];
  return db('assets')
    .where({ org_id: orgId })
    .where((w) =>
      w
        .whereIn('address', hosts)
        .orWhereRaw(`names && array[${hosts.map(() => '?').join(', ')}]::text[]`, [...hosts]),
    )
    .select('id', 'address', 'names')
    .orderBy('id');
}
