import type { Db } from '../db/index.ts';
import { severityCounts } from '../findings/finding-observations.repository.ts';
import type { ScanDetail, ScanListItem } from '../schemas/scans.ts';
import { getScan } from './lifecycle.ts';
import { presentScanDetail, presentScanListItem } from './presenter.ts';
import { selectScansPage, type ScanFilters } from './scans.repository.ts';

/**
 * GET /api/v1/scans and GET /api/v1/scans/{scan_id}: scans as the API shows
 * them, each with the findings it observed counted by the severity seen then
 * (finding_observations), so a finished scan's counts never change.
 */

/** One page of the organization's scans, newest first, and the total over the filters. */
export async function listScans(
  db: Db,
  orgId: string,
  filters: ScanFilters,
  page: number,
  perPage: number,
): Promise<{ items: ScanListItem[]; total: number }> {
  const { rows, total } = await selectScansPage(db, orgId, filters, page, perPage);
  const counts = await severityCounts(
    db,
    orgId,
    rows.map((r) => r.id),
  );
  return { items: rows.map((r) => presentScanListItem(r, counts.get(r.id) ?? noFindings())), total };
}

/** The scan's detail view; a missing or foreign id is NOT_FOUND. */
export async function getScanDetail(db: Db, orgId: string, scanId: string): Promise<ScanDetail> {
  const scan = await getScan(db, orgId, scanId);
  const counts = await severityCounts(db, orgId, [scan.id]);
  return presentScanDetail(scan, counts.get(scan.id) ?? noFindings());
}

const noFindings = () => ({ critical: 0, high: 0, medium: 0, low: 0, info: 0 });
