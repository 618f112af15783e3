import type { Db } from '../db/index.ts';

/**
 * The asset inventory's reads and writes of `findings` (inventory.ts): which host each
 * finding a scan observed is on, and the link from a finding to its asset. Every query takes
 * the organization id.
 */

export interface FindingPlace {
  id: string;
  target: string;
  affected_component: string;
  asset_id: string | null;
}

/** The findings the scan observed, with where they are. */
export async function selectFindingPlacesOfScan(
  db: Db,
  orgId: string,
  scanId: string,
): Promise<FindingPlace[]> {
  return db('findings')
    .join('finding_observations as o', 'o.finding_id', 'findings.id')
    .where({ 'findings.org_id': orgId, 'o.scan_id': scanId })
    .select('findings.id', 'findings.target', 'findings.affected_component', 'findings.asset_id')
    .orderBy('findings.id');
}

/** Links these findings to the asset. */
export async function linkFindingsToAsset(
  db: Db,
  orgId: string,
  assetId: string,
  findingIds: readonly string[],
): Promise<void> {
  if (findingIds.length === 0) return;
  await db('findings').where({ org_id: orgId }).whereIn('id', findingIds).update({ asset_id: assetId });
}

/** Links the organization's findings with no asset yet whose target is one of the asset's names or its address. */
export async function linkUnplacedFindingsByTarget(
  db: Db,
  orgId: string,
  assetId: string,
  hosts: readonly string[],
): Promise<void> {
  if (hosts.length === 0) return;
  await db('findings')
    .where({ org_id: orgId })
    .whereNull('asset_id')
    .whereRaw(`lower(target) in (${hosts.map(() => '?').join(', ')})`, [...hosts])
    .update({ asset_id: assetId });
}
