import type { PhaseTimings, ScanDetail, ScanListItem } from '../schemas/scans.ts';
import { PHASES, splitPhases } from './phases.ts';
import type { SeverityCounts } from '../findings/finding-observations.repository.ts';
import type { ScanRow } from './scans.repository.ts';
import { presentWebOptions } from './web-options.ts';

/**
 * Scan rows as the API shows them. Keys the specification marks "present
 * once …" are left out until they apply; `error` appears on failed scans and
 * `message` on cancelled ones.
 */

const iso = (d: Date | string) => new Date(d).toISOString();

/** The creation answer of POST /api/v1/scans. */
export function presentCreatedScan(scan: ScanRow) {
  return {
    id: scan.id,
    target: scan.target,
    scan_type: scan.scan_type,
    status: 'pending' as const,
    created_at: iso(scan.created_at),
    estimated_duration: scan.estimated_duration,
  };
}

/** The list view (also the `data` of scan.* webhook events). */
export function presentScanListItem(scan: ScanRow, counts: SeverityCounts): ScanListItem {
  return {
    id: scan.id,
    target: scan.target,
    scan_type: scan.scan_type,
    status: scan.status,
    progress: scan.progress,
    phase: scan.phase,
    created_at: iso(scan.created_at),
    ...(scan.completed_at ? { completed_at: iso(scan.completed_at) } : {}),
    vulnerabilities_found: counts.critical + counts.high + counts.medium + counts.low,
    critical_count: counts.critical,
    high_count: counts.high,
    medium_count: counts.medium,
    low_count: counts.low,
    info_count: counts.info,
    ...(scan.status === 'failed' ? { error: scan.error ?? 'the scan failed' } : {}),
    ...(scan.status === 'cancelled' ? { message: scan.message ?? 'Scan cancelled' } : {}),
    source: scan.source ?? 'scan',
    tool: scan.tool ?? null,
    report_name: scan.report_name ?? null,
    ci_run: scan.ci_run ?? null,
    results_read: scan.results_read ?? null,
    label: scanLabel(scan, counts),
  };
}

const TYPE_WORDS: Record<ScanRow['scan_type'], string> = {
  quick: 'Quick',
  full: 'Full',
  compliance: 'Compliance',
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * What the scan was, in words: an import names its tool, its report and what it brought
 * (`Imported from a nuclei report (nuclei.jsonl), 18 results, 9 findings`); a local engine run
 * recorded on the service names its CI run; Scanward's own scan its type.
 */
export function scanLabel(scan: ScanRow, counts: SeverityCounts): string {
  if (scan.source !== 'import') return `${TYPE_WORDS[scan.scan_type] ?? scan.scan_type} scan by Scanward`;
  const findings = counts.critical + counts.high + counts.medium + counts.low + counts.info;
  const what =
    scan.tool === 'scanward' && scan.ci_run
      ? `Recorded from a local engine run (${scan.ci_run})`
      : `Imported from ${/^([aeiou]|nmap)/i.test(scan.tool ?? '') ? 'an' : 'a'} ${scan.tool ?? 'other tool'} report`;
  const file = scan.report_name ? ` (${scan.report_name})` : '';
  const read = scan.results_read ?? null;
  return `${what}${file}${read === null ? '' : `, ${plural(read, 'result')}`}, ${plural(findings, 'finding')}`;
}

/** `phase_timings` with its phases in run order (jsonb does not keep key order). */
function presentPhaseTimings(stored: PhaseTimings | null): PhaseTimings {
  return {
    ...(stored?.queue_wait !== undefined ? { queue_wait: stored.queue_wait } : {}),
    phases: Object.fromEntries(
      PHASES.flatMap((p) => (stored?.phases?.[p] !== undefined ? [[p, stored.phases[p]]] : [])),
    ),
    ...(stored?.completion !== undefined ? { completion: stored.completion } : {}),
    ...(stored?.skipped && Object.keys(stored.skipped).length > 0
      ? {
          skipped: Object.fromEntries(
            PHASES.flatMap((p) => (stored.skipped?.[p] !== undefined ? [[p, stored.skipped[p]]] : [])),
          ),
        }
      : {}),
  };
}

/** The detail view of GET /api/v1/scans/{scan_id}. */
export function presentScanDetail(scan: ScanRow, counts: SeverityCounts): ScanDetail {
  return {
    ...presentScanListItem(scan, counts),
    ...(scan.status === 'running' && scan.current_tool ? { current_tool: scan.current_tool } : {}),
    ...(scan.started_at ? { started_at: iso(scan.started_at) } : {}),
    // An import ran no phase, and none will run.
    ...(scan.source === 'import'
      ? { phases_completed: [], phases_remaining: [] }
      : splitPhases(scan.scan_type, scan.phases_completed ?? [])),
    frameworks: scan.frameworks ?? [],
    ports: scan.ports,
    credential_checks: scan.credential_checks,
    estimated_duration: scan.estimated_duration,
    ...(scan.status === 'completed' && scan.changes ? { changes: scan.changes } : {}),
    phase_timings: presentPhaseTimings(scan.phase_timings),
    ...(scan.web ? { web: presentWebOptions(scan.web) } : {}),
  };
}

/** The `data` of `scan.*` webhook events: the list view, from the counts stored on the scan row. */
export function presentScanEvent(scan: ScanRow): ScanListItem {
  return presentScanListItem(scan, {
    critical: scan.critical_count,
    high: scan.high_count,
    medium: scan.medium_count,
    low: scan.low_count,
    info: scan.info_count,
  });
}
