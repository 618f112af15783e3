import { FINDING_SEVERITIES } from '../../server/schemas/findings.ts';

/**
 * What a scan is to the Action and `scanward-ci`, wherever it ran: the scan record, its
 * findings, and where a person reads more. The remote source (service/remote-scan.ts) fills
 * these from the Scanward API's answers; every report is built from them (through the
 * verdict, core/verdict.ts). Field names are the API's (snake_case), because the JSON report
 * writes findings and the scan exactly as the service describes them.
 */

export type Severity = (typeof FINDING_SEVERITIES)[number];
export const SEVERITIES: readonly Severity[] = FINDING_SEVERITIES;

export type SeverityCounts = Record<Severity, number>;

/** What this scan's sighting of a finding was: first seen, back after being resolved, or seen before. */
export type FindingChange = 'new' | 'reopened' | 'unchanged';

export interface Finding {
  id: string;
  title: string;
  severity: Severity;
  cvss_score: number | null;
  /** The triage status: `open`, `in_progress`, `false_positive`, `accepted`, `resolved`, … */
  status: string;
  /** The check or tool that detected it. */
  tool: string;
  affected_component: string;
  description: string;
  remediation: string | null;
  cve_ids: string[];
  detected_at?: string | undefined;
  /** Absent from services older than the field; `gate: new` needs it. */
  change?: FindingChange | undefined;
  /** The canonical check id, the SARIF rule id. */
  template_id?: string | undefined;
  cwe_ids?: string[] | undefined;
  target?: string | undefined;
  frameworks?: string[] | undefined;
}

export interface ScanRecord {
  id: string;
  target: string;
  scan_type: string;
  /** `pending`, `running`, `completed`, `failed`, `cancelled` (unknown ones pass through). */
  status: string;
  progress: number;
  phase: string;
  current_tool?: string | undefined;
  created_at?: string | undefined;
  started_at?: string | undefined;
  completed_at?: string | undefined;
  vulnerabilities_found: number;
  critical_count: number;
  high_count: number;
  medium_count: number;
  low_count: number;
  info_count?: number | undefined;
  /** Why a failed scan failed. */
  error?: string | undefined;
  message?: string | undefined;
}

/** Where a person reads more about the scan and its findings. */
export interface ScanLinks {
  scanUrl: string;
  /** The scan's PDF report. */
  reportUrl: string;
  findingUrl: (findingId: string) => string;
}

/** What produced the findings, for the SARIF `tool.driver`. */
export interface ToolInfo {
  version: string;
  /** The tool's documentation. */
  informationUri: string;
}

const RANK: Record<Severity, number> = { critical: 4, high: 3, medium: 2, low: 1, info: 0 };

/** Most severe first, then highest score, then id: the same input always gives the same order. */
export function bySeverity(a: Finding, b: Finding): number {
  return (
    RANK[b.severity] - RANK[a.severity] ||
    (b.cvss_score ?? 0) - (a.cvss_score ?? 0) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

/** Whether the finding's severity is `severity` or worse. */
export function atOrAbove(finding: Pick<Finding, 'severity'>, severity: Severity): boolean {
  return RANK[finding.severity] >= RANK[severity];
}

/** Statuses a team sets to say "this does not need fixing". */
export const TRIAGED_AWAY: ReadonlySet<string> = new Set(['false_positive', 'accepted']);

/** Findings a scan found for the first time or reopened. */
export function isNew(finding: Pick<Finding, 'change'>): boolean {
  return finding.change === 'new' || finding.change === 'reopened';
}

export function emptyCounts(): SeverityCounts {
  return { critical: 0, high: 0, medium: 0, low: 0, info: 0 };
}

/** The scan's own counts (all of its findings, triaged ones included), as the service keeps them. */
export function scanCounts(scan: ScanRecord): SeverityCounts {
  return {
    critical: scan.critical_count,
    high: scan.high_count,
    medium: scan.medium_count,
    low: scan.low_count,
    info: scan.info_count ?? 0,
  };
}

export function formatCounts(counts: SeverityCounts, severities: readonly Severity[] = SEVERITIES): string {
  return severities.map((s) => `${counts[s]} ${s}`).join(', ');
}
