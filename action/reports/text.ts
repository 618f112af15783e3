import { formatCounts, scanCounts } from '../core/scan.ts';
import type { CompletedVerdict } from '../core/verdict.ts';

/**
 * The plain-text result `scanward-ci` prints on stdout for a completed scan: the scan and its
 * counts, how many findings are new, the findings that failed the gate (10 at most, each with
 * its link) and the gate's message.
 */

const LISTED = 10;

export function renderText(verdict: CompletedVerdict): string {
  const { scan, links, gate, policy } = verdict;
  return [
    `Scanward scan ${scan.id} of ${scan.target}: completed (${formatCounts(scanCounts(scan))}).`,
    `${verdict.newFindings.length} new finding(s) at or above ${policy.reportSeverity}.`,
    ...gate.failing
      .slice(0, LISTED)
      .map((f) => `  ${f.severity}: ${f.title} on ${f.affected_component} (${links.findingUrl(f.id)})`),
    ...(gate.failing.length > LISTED ? [`  …and ${gate.failing.length - LISTED} more.`] : []),
    gate.message,
    '',
  ].join('\n');
}
