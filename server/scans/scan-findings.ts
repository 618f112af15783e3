import type { Db } from '../db/index.ts';
import {
  countScanFindings,
  selectScanFindingsPage,
  type ScanFindingFilters,
  type ScanFindingRow,
} from '../findings/finding-observations.repository.ts';
import type { ScanFinding } from '../schemas/scans.ts';
import { isOverdue } from '../findings/views.ts';
import { getScan } from './lifecycle.ts';

/**
 * GET /api/v1/scans/{scan_id}/findings: the findings one scan observed, read
 * through `finding_observations`, so the list of an old scan never grows or
 * shrinks when later scans run. Severity is the one seen by that scan; status,
 * score and texts are the finding's current ones. Remediation is its summary
 * string in this view (interface-spec.md, "Finding"). `change` is what this
 * scan's sighting was (new, reopened or unchanged), as recorded then.
 */

export async function listScanFindings(
  db: Db,
  orgId: string,
  scanId: string,
  filters: ScanFindingFilters,
  page: number,
  perPage: number,
): Promise<{ items: ScanFinding[]; total: number }> {
  await getScan(db, orgId, scanId); // 404 for an unknown or foreign scan
  const total = await countScanFindings(db, orgId, scanId, filters);
  const rows = await selectScanFindingsPage(db, orgId, scanId, filters, {
    limit: perPage,
    offset: (page - 1) * perPage,
  });
  return { items: rows.map(present), total };
}

function present(r: ScanFindingRow): ScanFinding {
  return {
    id: r.id,
    title: r.title,
    severity: r.severity,
    cvss_score: Number(r.cvss_score),
    status: r.status,
    tool: r.tool,
    affected_component: r.affected_component,
    description: r.description,
    remediation: r.remediation_summary ?? '',
    cve_ids: r.cve_ids ?? [],
    detected_at: new Date(r.detected_at).toISOString(),
    // The finding's first detection is its `detected_at` (decisions.md, "Findings").
    first_seen_at: new Date(r.detected_at).toISOString(),
    last_seen_at: new Date(r.last_seen_at).toISOString(),
    times_seen: Number(r.times_seen),
    last_scan_id: r.last_scan_id,
    due_date: r.due_date ? new Date(r.due_date).toISOString() : null,
    overdue: isOverdue(r, new Date()),
    change: r.change,
  };
}
