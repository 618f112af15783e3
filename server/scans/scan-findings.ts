import type { Knex } from 'knex';
import type { ScanFinding } from '../schemas/scans.ts';
import { getScan } from './repository.ts';

/**
 * GET /api/v1/scans/{scan_id}/findings: the findings one scan observed, read
 * through `finding_observations`, so the list of an old scan never grows or
 * shrinks when later scans run. Severity is the one seen by that scan; status,
 * score and texts are the finding's current ones. Remediation is its summary
 * string in this view (interface-spec.md, "Finding"). `change` is what this
 * scan's sighting was (new, reopened or unchanged), as recorded then.
 */

export interface ScanFindingFilters {
  severity?: ScanFinding['severity'] | undefined;
  status?: ScanFinding['status'] | undefined;
  change?: ScanFinding['change'] | undefined;
}

interface Row {
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

export async function listScanFindings(
  db: Knex,
  orgId: string,
  scanId: string,
  filters: ScanFindingFilters,
  page: number,
  perPage: number,
): Promise<{ items: ScanFinding[]; total: number }> {
  await getScan(db, orgId, scanId); // 404 for an unknown or foreign scan
  const base = db('finding_observations as o')
    .join('findings as f', function () {
      this.on('f.id', '=', 'o.finding_id').andOn('f.org_id', '=', 'o.org_id');
    })
    .where({ 'o.org_id': orgId, 'o.scan_id': scanId });
  if (filters.severity) base.where('o.severity', filters.severity);
  if (filters.status) base.where('f.status', filters.status);
  if (filters.change) base.where('o.change', filters.change);
  const [{ total }] = (await base.clone().count({ total: '*' })) as [{ total: number | string }];
  const rows = (await base
    .clone()
    .select(
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
    .limit(perPage)
    .offset((page - 1) * perPage)) as Row[];
  return { items: rows.map(present), total: Number(total) };
}

function present(r: Row): ScanFinding {
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
    change: r.change,
  };
}
