import { FINDING_SEVERITIES } from '../server/schemas/findings.ts';
import type { FailOn, GateMode } from './inputs.ts';
import type { Finding, ScanBody, Severity } from './responses.ts';

/**
 * The build gate: the step fails when the scan has findings at or above the
 * `fail-on` severity. Findings triaged in Scanward as `false_positive` or
 * `accepted` do not count: the gate follows the team's decisions. With
 * `gate: new`, only findings this scan found for the first time or reopened
 * count (the per-scan list's `change`), so a known, tracked weakness of the
 * target does not fail every pull request.
 */

export type SeverityCounts = Record<Severity, number>;

/** Statuses a team sets to say "this does not need fixing". */
export const TRIAGED_AWAY = new Set(['false_positive', 'accepted']);

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

/** Findings a scan found for the first time or reopened. */
export function isNew(finding: Finding): boolean {
  return finding.change === 'new' || finding.change === 'reopened';
}

export function emptyCounts(): SeverityCounts {
  return { critical: 0, high: 0, medium: 0, low: 0, info: 0 };
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

/** The scan's own counts (all of its findings), for when the findings list could not be read. */
export function scanCounts(scan: ScanBody): SeverityCounts {
  return {
    critical: scan.critical_count,
    high: scan.high_count,
    medium: scan.medium_count,
    low: scan.low_count,
    info: scan.info_count ?? 0,
  };
}

/** Severities at or above the threshold, most severe first. */
export function severitiesAtOrAbove(failOn: FailOn): Severity[] {
  if (failOn === 'none') return [];
  return FINDING_SEVERITIES.slice(0, FINDING_SEVERITIES.indexOf(failOn) + 1);
}

export function formatCounts(
  counts: SeverityCounts,
  severities: readonly Severity[] = FINDING_SEVERITIES,
): string {
  return severities.map((s) => `${counts[s]} ${s}`).join(', ');
}

const RANK: Record<Severity, number> = { critical: 4, high: 3, medium: 2, low: 1, info: 0 };

/** Most severe first, then highest score, then id. */
export function bySeverity(a: Finding, b: Finding): number {
  return (
    RANK[b.severity] - RANK[a.severity] ||
    (b.cvss_score ?? 0) - (a.cvss_score ?? 0) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

/** Whether the finding's severity is `severity` or worse. */
export function atOrAbove(finding: Finding, severity: Severity): boolean {
  return RANK[finding.severity] >= RANK[severity];
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
