import type { Schemas } from './contract';

/**
 * Every enumerated value the console lists or names, with the words it shows for it, in one
 * place. Each vocabulary is typed by the generated schema (schema.d.ts): a value the API adds
 * fails `npm run typecheck` here until it has words, and a value it drops fails too. The
 * lists (filters, form choices) come from the same declaration, in the order written.
 */

export interface Vocabulary<T extends string> {
  /** Every value, in the order lists show them. */
  readonly values: readonly T[];
  /** The words for each value. */
  readonly words: Readonly<Record<T, string>>;
  label(value: T): string;
}

/** What `vocabulary` takes without its schema type: nothing, so leaving the type out does not compile. */
type NameTheSchemaType = 'name the schema type: vocabulary<Schemas[…]>({…})';

/**
 * A vocabulary of the schema type `T`, which must be named: `vocabulary<Schemas['X']>({…})`.
 * Every value of `T` needs words and nothing else may have any; left out, `T` is `never` and
 * no argument fits, so the words cannot come loose from the schema.
 */
export function vocabulary<T extends string = never>(
  words: [T] extends [never] ? NameTheSchemaType : Record<NoInfer<T>, string>,
): Vocabulary<T> {
  const table = words as Record<T, string>;
  return {
    values: Object.keys(table) as T[],
    words: table,
    label: (value) => table[value],
  };
}

export type Severity = Schemas['FindingSeverity'];
export type FindingStatus = Schemas['FindingStatus'];
export type ScanStatus = Schemas['ScanStatus'];
export type Permission = Schemas['ApiKeyCreate']['permissions'][number];
export type WebhookEvent = Schemas['CreateWebhookRequest']['events'][number];

export const SEVERITIES = vocabulary<Severity>({
  critical: 'Critical',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
  info: 'Info',
});

export const FINDING_STATUSES = vocabulary<FindingStatus>({
  open: 'Open',
  in_progress: 'In progress',
  resolved: 'Resolved',
  false_positive: 'False positive',
  accepted: 'Accepted',
});

export const SCAN_STATUSES = vocabulary<ScanStatus>({
  pending: 'Pending',
  running: 'Running',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
});

export const SCAN_TYPES = vocabulary<Schemas['ScanType']>({
  quick: 'Quick',
  full: 'Full',
  compliance: 'Compliance',
});

export const SCAN_PHASES = vocabulary<Schemas['ScanPhase']>({
  discovery: 'Discovery',
  enumeration: 'Enumeration',
  vulnerability_scanning: 'Vulnerability scanning',
  web_analysis: 'Web analysis',
  cloud_analysis: 'Cloud analysis',
  threat_intelligence: 'Threat intelligence',
  correlation: 'Correlation',
  compliance_mapping: 'Compliance mapping',
  ai_analysis: 'AI analysis',
  remediation_planning: 'Remediation planning',
  reporting: 'Reporting',
  complete: 'Complete',
});

/**
 * The frameworks a scan maps to (`Framework`) and the compliance pages show
 * (`ComplianceFramework`): one list in the API under two names, so a value new in either
 * needs words here.
 */
export const FRAMEWORKS = vocabulary<Schemas['Framework'] | Schemas['ComplianceFramework']>({
  soc2: 'SOC 2',
  'pci-dss': 'PCI DSS 4.0',
  iso27001: 'ISO/IEC 27001:2022',
});

export const REMEDIATION_PRIORITIES = vocabulary<Schemas['AiAnalysis']['remediation_priority']>({
  immediate: 'Immediate',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
});

export const CONTROL_STATUSES = vocabulary<Schemas['ControlStatus']>({
  failing: 'Failing',
  passing: 'Passing',
  not_assessed: 'Not assessed',
});

export const EVIDENCE_KINDS = vocabulary<Schemas['ControlEvidence']['kind']>({
  scan: 'from a scan',
  user: 'added by hand',
});

export const SCHEDULE_FREQUENCIES = vocabulary<Schemas['ScheduleFrequency']>({
  daily: 'Daily',
  weekly: 'Weekly',
  monthly: 'Monthly',
});

/** API-key permissions are shown as the API names them: people type them in scripts too. */
export const PERMISSIONS = vocabulary<Permission>({
  'read:scans': 'read:scans',
  'write:scans': 'write:scans',
  'read:findings': 'read:findings',
  'write:findings': 'write:findings',
  'read:grc': 'read:grc',
  'write:grc': 'write:grc',
});

/** Webhook events are shown as the API and the payloads name them. */
export const WEBHOOK_EVENTS = vocabulary<WebhookEvent>({
  'scan.started': 'scan.started',
  'scan.completed': 'scan.completed',
  'scan.failed': 'scan.failed',
  'vulnerability.critical': 'vulnerability.critical',
  'vulnerability.found': 'vulnerability.found',
});

export const DELIVERY_STATUSES = vocabulary<Schemas['WebhookDelivery']['status']>({
  pending: 'Pending',
  succeeded: 'Succeeded',
  failed: 'Failed',
});

export type Role = Schemas['User']['role'];

/** A person's role in the organization: what it lets them do, in a few words. */
export const ROLES = vocabulary<Role>({
  admin: 'Admin',
  member: 'Member',
  viewer: 'Viewer',
});

export const AUDIT_ACTIONS = vocabulary<Schemas['AuditEvent']['action']>({
  'user.invited': 'Invited',
  'user.invite_accepted': 'Accepted the invitation',
  'user.role_changed': 'Role changed',
  'user.disabled': 'Disabled',
  'user.enabled': 'Enabled',
  'user.deleted': 'Deleted',
  'user.password_changed': 'Password changed',
  'user.provisioned': 'Created at first single sign-on',
  'auth.login': 'Signed in',
  'auth.login_failed': 'Failed to sign in',
  'auth.password_login_changed': 'Password sign-in switched on or off',
  'auth.settings_changed': 'Sign-in settings changed',
  'mfa.enabled': 'MFA turned on',
  'mfa.disabled': 'MFA turned off',
  'mfa.recovery_codes_regenerated': 'MFA recovery codes replaced',
  'ci.token_issued': 'CI job signed in',
  'ci.token_refused': 'CI job refused',
  'ci_trust.created': 'CI trust policy created',
  'ci_trust.deleted': 'CI trust policy deleted',
  'risk.accepted': 'Risk accepted',
  'risk.acceptance_revoked': 'Risk acceptance revoked',
  'risk.acceptance_expired': 'Risk acceptance expired',
  'api_key.created': 'API key created',
  'api_key.revoked': 'API key revoked',
  'settings.sla_changed': 'Triage policy changed',
  'webhook.created': 'Webhook created',
  'webhook.updated': 'Webhook changed',
  'webhook.deleted': 'Webhook deleted',
  'integration.created': 'Integration added',
  'integration.updated': 'Integration changed',
  'integration.deleted': 'Integration removed',
});

/** Where a service's software stands in its release cycle (the asset pages' badges). */
export const EOL_STATUSES = vocabulary<Schemas['EolStatus']>({
  end_of_life: 'End of life',
  supported: 'Supported',
  unknown: 'Not known',
});

/** How the findings list can be grouped. */
export const FINDING_GROUP_BYS = vocabulary<Schemas['FindingGroupBy']>({
  asset: 'Asset',
  cve: 'CVE',
  check: 'Check',
});

/** A finding's priority as a person set it (p1 first). */
export const FINDING_PRIORITIES = vocabulary<NonNullable<Schemas['FindingPriority']>>({
  p1: 'P1 (first)',
  p2: 'P2',
  p3: 'P3',
  p4: 'P4 (last)',
});
