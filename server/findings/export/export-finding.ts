import type { Readable } from 'node:stream';

/**
 * The shapes the export renderers consume and produce. The renderers know nothing of
 * the database or HTTP: the route hands them an async iterable of rows (a database
 * cursor) and sends the returned body with the returned content type and file name.
 */

/** In the order the report presents them, most severe first. */
export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const FINDING_STATUSES = ['open', 'in_progress', 'resolved', 'false_positive', 'accepted'] as const;
export type FindingStatus = (typeof FINDING_STATUSES)[number];

export interface FrameworkMapping {
  name: string;
  /** Control identifiers within the framework. */
  controls: string[];
  /** The controls of `controls`, named (the detail view and the JSON export). */
  control_details?: MappedControl[];
}

export interface MappedControl {
  id: string;
  /** The framework's own identifier (`11.3.1`). */
  reference: string;
  name: string;
}

export interface Remediation {
  summary: string;
  steps: string[];
  code_example: string;
  /** URLs. */
  references: string[];
}

export interface Evidence {
  request: string;
  response: string;
  screenshot_url: string | null;
  /** How the weakness is known: `confirmed` or `inferred from version` (absent on older findings). */
  established?: 'confirmed' | 'inferred from version';
}

export type Priority = 'p1' | 'p2' | 'p3' | 'p4';

/** A comment as the detail view shows it. */
export interface FindingComment {
  id: string;
  /** The author's e-mail address. */
  user: string;
  text: string;
  created_at: string;
}

/** A history entry as the detail view shows it. */
export interface FindingHistoryEntry {
  action: string;
  from: string | null;
  to: string;
  /** An e-mail address, or `system`. */
  user: string;
  /** The reason given with a move to `accepted` or `false_positive`. */
  justification?: string | null;
  /** The note sent with the change. */
  note?: string | null;
  timestamp: string;
}

/**
 * A finding in its detail view (interface-spec "Finding"). The triage fields,
 * comments and history are optional: only the JSON export needs them, so only
 * its source reads them (see `exportFindings`).
 */
export interface ExportFinding {
  id: string;
  title: string;
  severity: Severity;
  status: FindingStatus;
  cvss_score: number;
  cvss_vector?: string | null;
  /** Fraction between 0 and 1; null when EPSS has no score for the finding. */
  epss_score: number | null;
  /** `YYYY-MM-DD`: the EPSS snapshot behind `epss_score`; null when it is null. */
  epss_snapshot_date?: string | null;
  target: string;
  affected_component: string;
  tool: string;
  template_id: string;
  cve_ids: string[];
  cwe_ids: string[];
  /** The owning scan: the first scan that detected the finding. */
  scan_id: string;
  /** ISO 8601 UTC. */
  detected_at: string;
  frameworks: FrameworkMapping[];
  description: string;
  impact: string;
  remediation: Remediation;
  evidence: Evidence;
  first_seen_at: string;
  last_seen_at: string;
  times_seen: number;
  last_scan_id: string;
  /** The asset the finding is on (docs/assets.md); null when none is known. */
  asset_id?: string | null;
  /** Oldest first, as in the detail view. */
  comments?: FindingComment[];
  /** Oldest first, as in the detail view. */
  history?: FindingHistoryEntry[];
  /** Every source that saw it, strongest first, as in the detail view (docs/finding-lifecycle.md, "Sources"). */
  sources?: ExportFindingSource[];
  /** Tracker issues opened for the finding (the detail view's `tickets`; docs/integrations.md). */
  tickets?: ExportTicket[];
  assignee?: string | null;
  priority?: Priority | null;
  /** ISO 8601 UTC. */
  due_date?: string | null;
  /** Past its due date and still open or in progress when the export was made. */
  overdue?: boolean;
  notes?: string | null;
  /** The risk decision (`accepted`, `false_positive`): why, who, when (ISO 8601 UTC), until when. */
  justification?: string | null;
  justified_by?: string | null;
  justified_at?: string | null;
  acceptance_expires_at?: string | null;
  /** ISO 8601 UTC. */
  updated_at?: string;
}

/** A tracker issue of a finding, as the detail view's `tickets` shows it. */
export interface ExportTicket {
  integration_id: string;
  key: string;
  url: string;
  state: 'open' | 'closed';
}

/** One source's view of a finding, as the detail view's `sources` shows it. */
export interface ExportFindingSource {
  source: 'scan' | 'import';
  tool: string;
  headline: boolean;
  status: 'active' | 'resolved';
  established: 'confirmed' | 'inferred from version';
  severity: Severity;
  cvss_score: number;
  cvss_vector: string | null;
  first_scan_id: string | null;
  last_scan_id: string | null;
  first_seen_at: string;
  last_seen_at: string;
  evidence: Evidence;
}

/** Counts over the whole export; missing keys count as 0. */
export interface ExportTotals {
  by_severity: Partial<Record<Severity, number>>;
  by_status: Partial<Record<FindingStatus, number>>;
  total: number;
}

export interface ExportMetadata {
  organization: string;
  generatedAt: Date;
  /** The `from_date` / `to_date` the export was limited to, if any. */
  from?: Date;
  to?: Date;
  /** The list filters applied, by query parameter name (e.g. `severity: 'high'`). */
  filters: Record<string, string>;
  /** Needed by the PDF before its rows; computed by one SQL query in the route. */
  totals?: ExportTotals;
}

export type ExportFormat = 'csv' | 'json' | 'pdf';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['csv', 'json', 'pdf'];

export interface RenderedExport {
  contentType: string;
  /** `scanward-findings-<YYYY-MM-DD>.<ext>`, for `Content-Disposition: attachment`. */
  fileName: string;
  /** Streams the file; pulling from it pulls rows from the source, so backpressure reaches the cursor. */
  body: Readable;
}

/** The download name for an export generated at `generatedAt` (UTC date). */
export function exportFileName(format: ExportFormat, generatedAt: Date): string {
  return `scanward-findings-${generatedAt.toISOString().slice(0, 10)}.${format}`;
}
