import { getControl } from '../controls/catalogue.ts';
import { epssSnapshotInfo } from '../intel/epss.ts';
import type { ExportFinding, FrameworkMapping } from './export/index.ts';
import type { ExportSourceRow, ListSourceRow } from './findings-listing.repository.ts';
import type { CommentRow, DetailRow, HistoryRow } from './rows.ts';
import type {
  Comment,
  FindingDetail,
  FindingListItem,
  FindingSourceView,
  HistoryEntry,
} from '../schemas/findings.ts';

/**
 * Presenters: database rows to the wire shapes, with keys in the order the
 * specification lists them. `detected_at` is the first detection, so
 * `first_seen_at` is the same instant.
 */

const iso = (d: Date) => d.toISOString();

const isoOf = (value: Date | string) => (typeof value === 'string' ? value : value.toISOString());

/** Still to be dealt with: what can be overdue. */
const UNRESOLVED: ReadonlySet<string> = new Set(['open', 'in_progress']);

/** Past its due date and still open or in progress at `now`. */
export function isOverdue(
  row: { status: string; due_date: Date | string | null | undefined },
  now: Date,
): boolean {
  if (!row.due_date || !UNRESOLVED.has(row.status)) return false;
  return new Date(row.due_date).getTime() < now.getTime();
}

export function findingListItem(row: ListSourceRow): FindingListItem {
  const now = new Date();
  const detectedAt = isoOf(row.detected_at);
  return {
    id: row.id,
    title: row.title,
    severity: row.severity,
    status: row.status,
    cvss_score: row.cvss_score,
    epss_score: row.epss_score ?? null,
    target: row.target,
    affected_component: row.affected_component,
    tool: row.tool,
    template_id: row.template_id,
    cve_ids: row.cve_ids,
    cwe_ids: row.cwe_ids,
    scan_id: row.scan_id,
    detected_at: detectedAt,
    frameworks: row.frameworks.map((f) => f.name),
    first_seen_at: detectedAt,
    last_seen_at: isoOf(row.last_seen_at),
    times_seen: row.times_seen,
    last_scan_id: row.last_scan_id,
    due_date: isoOrNull(row.due_date),
    overdue: isOverdue(row, now),
  };
}

const isoOrNull = (value: Date | string | null | undefined): string | null =>
  value === null || value === undefined ? null : isoOf(value);

export function commentView(row: CommentRow): Comment {
  return { id: row.id, user: row.user_email, text: row.text, created_at: iso(row.created_at) };
}

/** A finding's framework mappings with each control's reference and name (from the catalogue). */
function namedFrameworks(frameworks: readonly FrameworkMapping[]) {
  return frameworks.map((m) => ({
    name: m.name,
    controls: m.controls,
    control_details: m.controls.map((id) => {
      const control = getControl(id);
      return { id, reference: control?.reference ?? id, name: control?.name ?? id };
    }),
  }));
}

export function historyEntry(row: HistoryRow): HistoryEntry {
  return {
    action: row.action,
    from: row.from_status,
    to: row.to_status,
    user: row.actor,
    justification: row.justification ?? null,
    note: row.note ?? null,
    timestamp: iso(row.created_at),
  };
}

const EMPTY_REMEDIATION = Object.freeze({ summary: '', steps: [], code_example: '', references: [] });
const EMPTY_EVIDENCE = Object.freeze({ request: '', response: '', screenshot_url: null });

/** The stored remediation, completed with empty values should a key be missing. */
function remediationOf(value: DetailRow['remediation']): ExportFinding['remediation'] {
  const { summary, steps, code_example, references } = value;
  if (summary !== undefined && steps && code_example !== undefined && references) return value;
  return {
    summary: summary ?? '',
    steps: steps ?? [],
    code_example: code_example ?? '',
    references: references ?? [],
  };
}

function evidenceOf(value: DetailRow['evidence']): ExportFinding['evidence'] {
  const { request, response, screenshot_url } = value;
  if (request !== undefined && response !== undefined && screenshot_url !== undefined) return value;
  return { request: request ?? '', response: response ?? '', screenshot_url: screenshot_url ?? null };
}

/**
 * The finding's detail fields without comments and history: what the export
 * renders. Built in one object literal (exports build 100,000 of them).
 * `remediation` and `evidence` are left out (empty) when the row does not carry
 * them: the CSV export reads list-view rows only.
 */
export function exportFinding(row: ExportSourceRow): ExportFinding {
  const detectedAt = isoOf(row.detected_at);
  return {
    id: row.id,
    title: row.title,
    severity: row.severity,
    status: row.status,
    cvss_score: row.cvss_score,
    cvss_vector: row.cvss_vector ?? null,
    epss_score: row.epss_score ?? null,
    epss_snapshot_date: row.epss_score == null ? null : epssSnapshotInfo().date,
    target: row.target,
    affected_component: row.affected_component,
    tool: row.tool,
    template_id: row.template_id,
    cve_ids: row.cve_ids,
    cwe_ids: row.cwe_ids,
    scan_id: row.scan_id,
    detected_at: detectedAt,
    frameworks: namedFrameworks(row.frameworks),
    description: row.description,
    impact: row.impact ?? '',
    remediation: row.remediation ? remediationOf(row.remediation) : EMPTY_REMEDIATION,
    evidence: row.evidence ? evidenceOf(row.evidence) : EMPTY_EVIDENCE,
    first_seen_at: detectedAt,
    last_seen_at: isoOf(row.last_seen_at),
    times_seen: row.times_seen,
    last_scan_id: row.last_scan_id,
    justification: row.justification ?? null,
    justified_by: row.justified_by ?? null,
    justified_at: isoOrNull(row.justified_at),
    acceptance_expires_at: isoOrNull(row.acceptance_expires_at),
    asset_id: row.asset_id ?? null,
    due_date: isoOrNull(row.due_date),
    overdue: isOverdue(row, new Date()),
  };
}

export function findingDetail(
  row: DetailRow,
  comments: CommentRow[],
  history: HistoryRow[],
  sources: FindingSourceView[] = [],
): FindingDetail {
  const base = exportFinding(row);
  return {
    id: base.id,
    title: base.title,
    severity: base.severity,
    status: base.status,
    cvss_score: base.cvss_score,
    cvss_vector: row.cvss_vector,
    epss_score: base.epss_score,
    epss_snapshot_date: base.epss_snapshot_date ?? null,
    target: base.target,
    affected_component: base.affected_component,
    tool: base.tool,
    template_id: base.template_id,
    cve_ids: base.cve_ids,
    cwe_ids: base.cwe_ids,
    scan_id: base.scan_id,
    detected_at: base.detected_at,
    description: base.description,
    impact: base.impact,
    remediation: base.remediation,
    evidence: base.evidence,
    frameworks: namedFrameworks(row.frameworks),
    comments: comments.map(commentView),
    history: history.map(historyEntry),
    sources,
    first_seen_at: base.first_seen_at,
    last_seen_at: base.last_seen_at,
    times_seen: base.times_seen,
    last_scan_id: base.last_scan_id,
    asset_id: base.asset_id ?? null,
    assignee: row.assignee,
    priority: row.priority,
    due_date: row.due_date ? iso(row.due_date) : null,
    overdue: isOverdue(row, new Date()),
    notes: row.notes,
    justification: base.justification ?? null,
    justified_by: base.justified_by ?? null,
    justified_at: base.justified_at ?? null,
    acceptance_expires_at: base.acceptance_expires_at ?? null,
    updated_at: iso(row.updated_at),
  };
}
