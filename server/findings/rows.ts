import type { FindingPriority, FindingSeverity, FindingStatus } from '../schemas/findings.ts';

/** Typed rows of the findings tables (migrations/20261122000002_scanning.ts). */

export interface RemediationValue {
  summary: string;
  steps: string[];
  code_example: string;
  references: string[];
}

export interface EvidenceValue {
  request: string;
  response: string;
  screenshot_url: string | null;
  /** How the weakness is known; absent on findings recorded before it was kept. */
  established?: 'confirmed' | 'inferred from version';
}

export interface FrameworkValue {
  name: string;
  controls: string[];
}

export interface FindingRow {
  id: string;
  org_id: string;
  fingerprint: string;
  scan_id: string;
  last_scan_id: string;
  title: string;
  severity: FindingSeverity;
  severity_rank: number;
  status: FindingStatus;
  cvss_score: number;
  cvss_vector: string | null;
  epss_score: number | null;
  target: string;
  affected_component: string;
  port: number | null;
  tool: string;
  template_id: string;
  category: string | null;
  cve_ids: string[];
  cwe_ids: string[];
  description: string;
  impact: string;
  remediation: RemediationValue;
  evidence: EvidenceValue;
  frameworks: FrameworkValue[];
  kev: boolean;
  assignee: string | null;
  priority: FindingPriority | null;
  due_date: Date | null;
  /** A person set `due_date` (PATCH); an SLA change applied to open findings leaves it. */
  due_date_by_person?: boolean;
  notes: string | null;
  /** Why the finding is `accepted` or `false_positive` (docs/finding-lifecycle.md); null otherwise. */
  justification: string | null;
  justified_by: string | null;
  justified_at: Date | null;
  /** When an acceptance lapses and the finding reopens by itself; null: it does not. */
  acceptance_expires_at: Date | null;
  detected_at: Date;
  last_seen_at: Date;
  times_seen: number;
  resolved_at: Date | null;
  created_at: Date;
  /** The host the finding is on, in the asset inventory (docs/assets.md); null until a scan or import placed it. */
  asset_id: string | null;
  updated_at: Date;
}

/** The columns a list item needs: no descriptions, evidence or remediation. */
export const LIST_COLUMNS = [
  'id',
  'title',
  'severity',
  'status',
  'cvss_score',
  'epss_score',
  'target',
  'affected_component',
  'tool',
  'template_id',
  'cve_ids',
  'cwe_ids',
  'scan_id',
  'detected_at',
  'frameworks',
  'last_seen_at',
  'times_seen',
  'last_scan_id',
  'due_date',
] as const satisfies readonly (keyof FindingRow)[];

export type ListRow = Pick<FindingRow, (typeof LIST_COLUMNS)[number]>;

/** The risk decision on a finding: shown on the detail view and in every export. */
export const ACCEPTANCE_COLUMNS = [
  'justification',
  'justified_by',
  'justified_at',
  'acceptance_expires_at',
] as const satisfies readonly (keyof FindingRow)[];

/** The columns of the detail view, comments and history aside. */
export const DETAIL_COLUMNS = [
  ...LIST_COLUMNS,
  'cvss_vector',
  'description',
  'impact',
  'remediation',
  'evidence',
  'assignee',
  'priority',
  'notes',
  ...ACCEPTANCE_COLUMNS,
  'asset_id',
  'updated_at',
] as const satisfies readonly (keyof FindingRow)[];

export type DetailRow = Pick<FindingRow, (typeof DETAIL_COLUMNS)[number]>;

export interface CommentRow {
  id: string;
  org_id: string;
  finding_id: string;
  user_id: string | null;
  user_email: string;
  text: string;
  created_at: Date;
}

export interface HistoryRow {
  id: string;
  org_id: string;
  finding_id: string;
  action: string;
  from_status: string | null;
  to_status: string;
  actor: string;
  /** The justification given with a move to `accepted` or `false_positive`. */
  justification?: string | null;
  /** The note sent with this change (PATCH or bulk `notes`); null without one. */
  note?: string | null;
  created_at: Date;
}

/** Who changed a status: a user's e-mail, or `system` for the scan engine. */
export const SYSTEM_ACTOR = 'system';
