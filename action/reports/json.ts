import type { Verdict } from '../core/verdict.ts';

/**
 * The JSON report (`scanward-ci --json`): the scan as the service describes it and, for a
 * completed scan, the gate, the reported findings and which of them are new or failing. For a
 * scan that failed, was cancelled or timed out, the scan and whether it timed out.
 */
export function jsonReport(verdict: Verdict): string {
  if (verdict.kind === 'unsuccessful') {
    return JSON.stringify({ scan: verdict.scan, timed_out: verdict.timedOut }, null, 2);
  }
  const { scan, gate } = verdict;
  const report = {
    scan,
    gate: {
      mode: gate.mode,
      fail_on: gate.failOn,
      failed: gate.failed,
      counts: gate.counts,
      message: gate.message,
    },
    new_finding_ids: verdict.newFindings.map((f) => f.id),
    failing_finding_ids: gate.failing.map((f) => f.id),
    findings: verdict.reported,
  };
  return JSON.stringify(report, null, 2);
}
