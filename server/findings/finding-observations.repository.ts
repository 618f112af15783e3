import type { Db } from '../db/index.ts';
import type { ScanFinding } from '../schemas/scans.ts';

/**
 * Typed queries over `finding_observations`: which scans observed which
 * findings, with the severity seen then. Every query takes the organization id.
 */

// --- read side (findings-read)

/** Filters of a scan's findings list. */
export interface ScanFindingFilters {
  severity?: ScanFinding['severity'] | undefined;
  status?: ScanFinding['status'] | undefined;
  change?: ScanFinding['change'] | undefined;
}

/** A finding as one scan observed it: the severity and change of the sighting, the finding's current rest. */
export interface ScanFindingRow {
  id: string;
  title: string;
  severity: ScanFinding['severity'];
  cvss_score: number | string;
  status: ScanFinding['status'];
  tool: string;
  affected_component: string;
  description: string;
  remediation_summary: string | null;
  cve_ids: string[] | null;
  detected_at: Date | string;
  last_seen_at: Date | string;
  times_seen: number | string;
  last_scan_id: string;
  change: ScanFinding['change'];
}

/** Most severe first, then newest first, ties by id: a total order, so pages never overlap. */
const SEVERITY_RANK = `case o.severity when 'critical' then 4 when 'high' then 3 when 'medium' then 2 when 'low' then 1 else 0 end`;

function observedByScan(db: Db, orgId: string, scanId: string, filters: ScanFindingFilters) {
  const base = db('finding_observations as o')
    .join('findings as f', function () {
      this.on('f.id', '=', 'o.finding_id').andOn('f.org_id', '=', 'o.org_id');
    })
    .where({ 'o.org_id': orgId, 'o.scan_id': scanId });
  if (filters.severity) base.where('o.severity', filters.severity);
  if (filters.status) base.where('f.status', filters.status);
  if (filters.change) base.where('o.change', filters.change);
  return base;
}

/** How many of the organization's findings the scan observed, over the filters. */
export async function countScanFindings(
  db: Db,
  orgId: string,
  scanId: string,
  filters: ScanFindingFilters,
): Promise<number> {
  const [row] = await observedByScan(db, orgId, scanId, filters).count<{ total: number | string }[]>({
    total: '*',
  });
  return Number(row!.total);
}

/** One page of the findings the scan observed, over the filters, most severe (as seen then) first. */
export async function selectScanFindingsPage(
  db: Db,
  orgId: string,
  scanId: string,
  filters: ScanFindingFilters,
  page: { limit: number; offset: number },
): Promise<ScanFindingRow[]> {
  return observedByScan(db, orgId, scanId, filters)
    .select<ScanFindingRow[]>(
      'f.id',
      'f.title',
      'o.severity',
      'f.cvss_score',
      'f.status',
      'f.tool',
      'f.affected_component',
      'f.description',
      db.raw(`f.remediation->>'summary' as remediation_summary`),
      'f.cve_ids',
      'f.detected_at',
      'f.last_seen_at',
      'f.times_seen',
      'f.last_scan_id',
      'o.change',
    )
    .orderByRaw(`${SEVERITY_RANK} desc, f.detected_at desc, f.id asc`)
    .limit(page.limit)
    .offset(page.offset);
}
