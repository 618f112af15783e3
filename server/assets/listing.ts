import type { Db } from '../db/index.ts';
import { notFound } from '../errors.ts';
import { pageOf, type PageOf } from '../schemas/common.ts';
import type { AssetDetail, AssetListItem } from '../schemas/assets.ts';
import { FINDING_SEVERITIES } from '../schemas/findings.ts';
import { severityRank } from '../scoring/severity.ts';
import {
  countAssets,
  countOpenFindingsOfAssets,
  selectAsset,
  selectAssetsPage,
  type AssetFilter,
  type AssetListRow,
} from './assets-listing.repository.ts';
import { selectServicesOfAsset, type AssetServiceRow } from './asset-services.repository.ts';

/** The asset inventory's views (GET /api/v1/assets, /api/v1/assets/{asset_id}); docs/assets.md. */

type OpenCounts = AssetListItem['open_findings'];

function noOpenFindings(): OpenCounts {
  return { total: 0, critical: 0, high: 0, medium: 0, low: 0, info: 0 };
}

async function openCountsOf(db: Db, orgId: string, assetIds: string[]): Promise<Map<string, OpenCounts>> {
  const counts = new Map(assetIds.map((id) => [id, noOpenFindings()]));
  for (const row of await countOpenFindingsOfAssets(db, orgId, assetIds)) {
    const entry = counts.get(row.asset_id);
    const severity = FINDING_SEVERITIES.find((s) => severityRank(s) === Number(row.severity_rank));
    if (!entry || !severity) continue;
    entry[severity] += Number(row.n);
    entry.total += Number(row.n);
  }
  return counts;
}

function assetItem(row: AssetListRow, open: OpenCounts): AssetListItem {
  return {
    id: row.id,
    address: row.address,
    names: row.names,
    first_seen_at: new Date(row.first_seen_at).toISOString(),
    last_seen_at: new Date(row.last_seen_at).toISOString(),
    last_scan_id: row.last_scan_id,
    service_count: Number(row.service_count),
    end_of_life: Number(row.eol_count) > 0,
    open_findings: open,
  };
}

function serviceItem(row: AssetServiceRow): AssetDetail['services'][number] {
  return {
    port: row.port,
    protocol: row.protocol,
    service: row.service,
    product: row.product,
    version: row.version,
    cpe: row.cpe,
    fact_source: row.fact_source,
    tls: row.tls,
    eol: { status: row.eol_status, product: row.eol_product, cycle: row.eol_cycle, date: row.eol_date },
    first_seen_at: new Date(row.first_seen_at).toISOString(),
    last_seen_at: new Date(row.last_seen_at).toISOString(),
  };
}

export async function listAssets(
  db: Db,
  orgId: string,
  options: AssetFilter & { page: number; perPage: number },
): Promise<PageOf<AssetListItem>> {
  const { page, perPage, ...filter } = options;
  const rows = await selectAssetsPage(db, orgId, filter, { limit: perPage, offset: (page - 1) * perPage });
  const total =
    rows.length < perPage && (page === 1 || rows.length > 0)
      ? (page - 1) * perPage + rows.length
      : await countAssets(db, orgId, filter);
  const open = await openCountsOf(
    db,
    orgId,
    rows.map((r) => r.id),
  );
  return pageOf(
    rows.map((r) => assetItem(r, open.get(r.id) ?? noOpenFindings())),
    total,
    page,
    perPage,
  );
}

/** The asset with its services; a missing or foreign id is NOT_FOUND. */
export async function getAssetDetail(db: Db, orgId: string, assetId: string): Promise<AssetDetail> {
  const row = await selectAsset(db, orgId, assetId);
  if (!row) throw notFound('asset');
  const open = await openCountsOf(db, orgId, [row.id]);
  const services = await selectServicesOfAsset(db, orgId, row.id);
  return { ...assetItem(row, open.get(row.id) ?? noOpenFindings()), services: services.map(serviceItem) };
}
