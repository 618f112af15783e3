import type { Knex } from 'knex';
import * as identity from './20261122000001_identity.ts';
import * as scanning from './20261122000002_scanning.ts';
import * as findingsOrder from './20261122000003_findings_order.ts';
import * as credentialChecks from './20261123000111_credential_checks.ts';
import * as scanPhaseTimings from './20261123000120_scan_phase_timings.ts';
import * as userLifecycle from './20261125185735_user_lifecycle.ts';
import * as domainEvents from './20261125215900_domain_events.ts';
import * as findingsByCve from './20261125220000_findings_by_cve.ts';
import * as rolesPeopleAudit from './20261125220100_roles_people_audit.ts';
import * as scanImports from './20261125221000_scan_imports.ts';
import * as riskAcceptance from './20261125222000_risk_acceptance.ts';
import * as historyNotes from './20261126060000_history_notes.ts';
import * as triagePolicyAuditTarget from './20261128030000_triage_policy_audit_target.ts';
import * as scanWebOptions from './20261128050000_scan_web_options.ts';
import * as dueDateByPerson from './20261128080000_findings_due_date_by_person.ts';
import * as invitationsElsewhereDisabled from './20261128090000_invitations_elsewhere_disabled.ts';
import * as ciAudiencePerOrganization from './20261128010000_ci_audience_per_organization.ts';
import * as invitationsOfAccountsElsewhere from './20261128010100_invitations_of_accounts_elsewhere.ts';
import * as ssoPerOrganization from './20261128010200_sso_per_organization.ts';
import * as notifications from './20261128070000_notifications.ts';
import * as findingSources from './20261128040000_finding_sources.ts';
import * as slaPolicies from './20261125230500_sla_policies.ts';
import * as ciTrustPolicies from './20261126010000_ci_trust_policies.ts';
import * as passwordLoginSwitch from './20261126020000_password_login_switch.ts';
import * as assets from './20261126040000_assets.ts';
import * as findingsSearch from './20261126050000_findings_search.ts';

export interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/**
 * Every migration, in order. A static list rather than a directory scan, so the
 * same list runs under tsx, vitest and a bundler.
 */
export const migrations: ReadonlyArray<readonly [name: string, migration: Migration]> = [
  ['20261122000001_identity', identity],
  ['20261122000002_scanning', scanning],
  ['20261122000003_findings_order', findingsOrder],
  ['20261123000111_credential_checks', credentialChecks],
  ['20261123000120_scan_phase_timings', scanPhaseTimings],
  ['20261125185735_user_lifecycle', userLifecycle],
  ['20261125215900_domain_events', domainEvents],
  ['20261125220000_findings_by_cve', findingsByCve],
  ['20261125220100_roles_people_audit', rolesPeopleAudit],
  ['20261125221000_scan_imports', scanImports],
  ['20261125222000_risk_acceptance', riskAcceptance],
  ['20261125230500_sla_policies', slaPolicies],
  ['20261126010000_ci_trust_policies', ciTrustPolicies],
  ['20261126020000_password_login_switch', passwordLoginSwitch],
  ['20261126040000_assets', assets],
  ['20261126050000_findings_search', findingsSearch],
  ['20261126060000_history_notes', historyNotes],
  ['20261128010000_ci_audience_per_organization', ciAudiencePerOrganization],
  ['20261128010100_invitations_of_accounts_elsewhere', invitationsOfAccountsElsewhere],
  ['20261128010200_sso_per_organization', ssoPerOrganization],
  ['20261128030000_triage_policy_audit_target', triagePolicyAuditTarget],
  ['20261128040000_finding_sources', findingSources],
  ['20261128050000_scan_web_options', scanWebOptions],
  ['20261128070000_notifications', notifications],
  ['20261128080000_findings_due_date_by_person', dueDateByPerson],
  ['20261128090000_invitations_elsewhere_disabled', invitationsElsewhereDisabled],
];

export const migrationSource: Knex.MigrationSource<readonly [string, Migration]> = {
  getMigrations: async () => [...migrations],
  getMigrationName: ([name]) => name,
  getMigration: async ([, migration]) => migration,
};
