import type { Verdict } from '../core/verdict.ts';

/**
 * The Action's step outputs that follow from the verdict (action.yml): the scan's status and
 * its own counts, and for a completed scan how many findings are new. `scan-id` and
 * `report-url` are set earlier, as soon as the scan exists; `result`, `sarif-file` and
 * `comment-url` depend on what the front end did with the reports.
 */
export function verdictOutputs(verdict: Verdict): Record<string, string> {
  const { scan } = verdict;
  return {
    status: scan.status,
    'vulnerabilities-found': String(scan.vulnerabilities_found),
    'critical-count': String(scan.critical_count),
    'high-count': String(scan.high_count),
    'medium-count': String(scan.medium_count),
    'low-count': String(scan.low_count),
    ...(verdict.kind === 'completed' ? { 'new-findings': String(verdict.newFindings.length) } : {}),
  };
}
