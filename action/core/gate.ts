import {
  SEVERITIES,
  TRIAGED_AWAY,
  bySeverity,
  formatCounts,
  emptyCounts,
  isNew,
  type Finding,
  type Severity,
  type SeverityCounts,
} from './scan.ts';

/**
 * The build gate: a completed scan fails it when it has findings at or above the `fail-on`
 * severity. Findings triaged in Scanward as `false_positive` or `accepted` do not count: the
 * gate follows the team's decisions. With `gate: new`, only findings this scan found for the
 * first time or reopened count (the finding's `change`), so a known, tracked weakness of the
 * target does not fail every pull request.
 */

export type FailOn = Severity | 'none';
/** `all`: every open finding of the scan counts; `new`: only those the scan found first or reopened. */
export type GateMode = 'all' | 'new';

export const FAIL_ON_VALUES = [...SEVERITIES, 'none'] as const;

/** What the gate and the reports are asked to do with a completed scan's findings. */
export interface GatePolicy {
  failOn: FailOn;
  mode: GateMode;
  /** The least severe finding that goes into the SARIF, summary, comment and reports. */
  reportSeverity: Severity;
}

export interface GateResult {
  failOn: FailOn;
  mode: GateMode;
  failed: boolean;
  /** The counts the gate looked at. */
  counts: SeverityCounts;
  /** How many findings the gate ignored because they were triaged away. */
  ignored: number;
  message: string;
  /** The findings that failed the gate, most severe first (empty when it passed or was not read from findings). */
  failing: Finding[];
}

/** Counts of the findings that still need attention. */
export function countOpenFindings(findings: readonly Finding[]): { counts: SeverityCounts; ignored: number } {
  const counts = emptyCounts();
  let ignored = 0;
  for (const finding of findings) {
    if (TRIAGED_AWAY.has(finding.status)) ignored++;
    else counts[finding.severity]++;
  }
  return { counts, ignored };
}

/** Severities at or above the threshold, most severe first. */
export function severitiesAtOrAbove(failOn: FailOn): Severity[] {
  if (failOn === 'none') return [];
  return SEVERITIES.slice(0, SEVERITIES.indexOf(failOn) + 1);
}

/** The gate over a completed scan's findings, in the given mode. */
export function gateFindings(findings: readonly Finding[], failOn: FailOn, mode: GateMode): GateResult {
  const counted = mode === 'new' ? findings.filter(isNew) : findings;
  const open = countOpenFindings(counted);
  const gate = evaluateGate(open.counts, failOn, open.ignored, mode);
  const gated = new Set(severitiesAtOrAbove(failOn));
  gate.failing = gate.failed
    ? counted.filter((f) => !TRIAGED_AWAY.has(f.status) && gated.has(f.severity)).sort(bySeverity)
    : [];
  return gate;
}

export function evaluateGate(
  counts: SeverityCounts,
  failOn: FailOn,
  ignored = 0,
  mode: GateMode = 'all',
): GateResult {
  const gated = severitiesAtOrAbove(failOn);
  const over = gated.filter((s) => counts[s] > 0);
  const failed = over.length > 0;
  const ignoredNote =
    ignored > 0 ? ` (${ignored} finding(s) triaged as false positive or accepted not counted)` : '';
  const kind = mode === 'new' ? 'new ' : '';
  let message: string;
  if (failOn === 'none') message = `fail-on is none: findings never fail the build${ignoredNote}.`;
  else if (failed) {
    message =
      `Scanward found ${formatCounts(counts, over)} ${kind}finding(s) at or above the fail-on threshold (${failOn}). ` +
      `All ${kind}findings: ${formatCounts(counts)}${ignoredNote}.`;
  } else message = `No ${kind}findings at or above the fail-on threshold (${failOn})${ignoredNote}.`;
  return { failOn, mode, failed, counts, ignored, message, failing: [] };
}
