import type { Knex } from 'knex';
import type { Db } from '../db/index.ts';
import type { Plan } from '../schemas/common.ts';

/** The `organizations` table: each tenant, its plan and its overrides of the plan's limits. */

export interface OrganizationRow {
  id: string;
  name: string;
  plan: Plan;
  /** Overrides of the plan's limits: null = the plan's default, -1 = unlimited. */
  hourly_request_limit: number | null;
  daily_request_limit: number | null;
  monthly_scan_limit: number | null;
  concurrent_scan_limit: number | null;
  monthly_ai_credits: number | null;
  created_at: Date;
  updated_at: Date;
}

/** The columns an insert must give; the others have defaults (no overrides, now). */
export type NewOrganizationRow = Pick<OrganizationRow, 'id' | 'name' | 'plan'> &
  Partial<Omit<OrganizationRow, 'id' | 'name' | 'plan'>>;

export type OrganizationChanges = Partial<OrganizationRow>;

/**
 * The sign-in switch (auth/login.ts, auth/oidc.ts) is a column of the table, read and
 * written only by the two queries below, so it is not part of every row a principal carries.
 */
interface OrganizationTableRow extends OrganizationRow {
  /** Whether its people may log in with a password; false: single sign-on only. */
  password_login: boolean;
  /** Single sign-on for its people (auth/oidc.ts): on, the e-mail domains it covers, and whether the provider's MFA counts. */
  sso_enabled: boolean;
  sso_domains: string[];
  sso_trusts_idp_mfa: boolean;
  /** The audience its CI jobs' ID tokens carry (auth/ci-audience.ts); null until first minted. */
  ci_audience: string | null;
}

declare module 'knex/types/tables.js' {
  interface Tables {
    organizations: Knex.CompositeTableType<
      OrganizationTableRow,
      NewOrganizationRow,
      Partial<OrganizationTableRow>
    >;
  }
}

export async function insertOrganization(db: Db, row: NewOrganizationRow): Promise<OrganizationRow> {
  const [created] = await db('organizations').insert(row).returning('*');
  return created!;
}

export async function findOrganization(db: Db, orgId: string): Promise<OrganizationRow | undefined> {
  return db('organizations').where({ id: orgId }).first();
}

/**
 * Locks the organization's row until the transaction ends and returns it fresh
 * (limits included): what scan creation and the runner serialise on.
 */
export async function findOrganizationForUpdate(
  trx: Db,
  orgId: string,
): Promise<OrganizationRow | undefined> {
  return trx('organizations').where({ id: orgId }).forUpdate().first();
}

/** Every organization, oldest first (operator command line). */
export async function listOrganizations(db: Db): Promise<OrganizationRow[]> {
  return db('organizations').orderBy([{ column: 'created_at' }, { column: 'id' }]);
}

/** Changes the organization's columns; undefined when there is no such organization. */
export async function updateOrganization(
  db: Db,
  orgId: string,
  changes: OrganizationChanges,
): Promise<OrganizationRow | undefined> {
  const [row] = await db('organizations').where({ id: orgId }).update(changes).returning('*');
  return row;
}

/**
 * The organization's columns as a join selects them (`o` the organizations alias),
 * renamed where they would collide with the joined table's own; read back with
 * {@link organizationOf}.
 */
export const JOINED_ORGANIZATION_COLUMNS = [
  'o.id as org_id',
  'o.name as org_name',
  'o.plan as org_plan',
  'o.hourly_request_limit',
  'o.daily_request_limit',
  'o.monthly_scan_limit',
  'o.concurrent_scan_limit',
  'o.monthly_ai_credits',
  'o.created_at as org_created_at',
  'o.updated_at as org_updated_at',
] as const;

/** A joined row's organization columns, as {@link JOINED_ORGANIZATION_COLUMNS} names them. */
export interface JoinedOrganization {
  org_id: string;
  org_name: string;
  org_plan: Plan;
  hourly_request_limit: number | null;
  daily_request_limit: number | null;
  monthly_scan_limit: number | null;
  concurrent_scan_limit: number | null;
  monthly_ai_credits: number | null;
  org_created_at: Date;
  org_updated_at: Date;
}

export function organizationOf(row: JoinedOrganization): OrganizationRow {
  return {
    id: row.org_id,
    name: row.org_name,
    plan: row.org_plan,
    hourly_request_limit: row.hourly_request_limit,
    daily_request_limit: row.daily_request_limit,
    monthly_scan_limit: row.monthly_scan_limit,
    concurrent_scan_limit: row.concurrent_scan_limit,
    monthly_ai_credits: row.monthly_ai_credits,
    created_at: row.org_created_at,
    updated_at: row.org_updated_at,
  };
}

/** Whether the organization's people may log in with a password; undefined when there is no such organization. */
export async function findPasswordLogin(db: Db, orgId: string): Promise<boolean | undefined> {
  const row = await db('organizations').where({ id: orgId }).first('password_login');
  return row?.password_login;
}

/** Switches password log-in on or off for the organization. */
export async function updatePasswordLogin(db: Db, orgId: string, enabled: boolean, now: Date): Promise<void> {
  await db('organizations').where({ id: orgId }).update({ password_login: enabled, updated_at: now });
}

/** The organization's CI audience, or null when none was minted yet; undefined when there is no such organization. */
export async function findCiAudience(db: Db, orgId: string): Promise<string | null | undefined> {
  const row = await db('organizations').where({ id: orgId }).first('ci_audience');
  return row ? row.ci_audience : undefined;
}

/** Sets the organization's CI audience unless it has one already (the first writer wins); answers the one in force. */
export async function mintCiAudience(db: Db, orgId: string, audience: string): Promise<string | undefined> {
  await db('organizations').where({ id: orgId }).whereNull('ci_audience').update({ ci_audience: audience });
  return (await findCiAudience(db, orgId)) ?? undefined;
}

/** The organization that owns a CI audience, if any. */
export async function findOrganizationIdByCiAudience(db: Db, audience: string): Promise<string | undefined> {
  const row = await db('organizations').where({ ci_audience: audience }).first('id');
  return row?.id;
}

/** An organization's sign-in settings. */
export interface SignInSettingsRow {
  password_login: boolean;
  sso_enabled: boolean;
  sso_domains: string[];
  sso_trusts_idp_mfa: boolean;
}

/** The organization's sign-in settings; undefined when there is no such organization. */
export async function findSignInSettings(db: Db, orgId: string): Promise<SignInSettingsRow | undefined> {
  return db('organizations')
    .where({ id: orgId })
    .first('password_login', 'sso_enabled', 'sso_domains', 'sso_trusts_idp_mfa');
}

/** Changes the organization's sign-in settings (the fields given). */
export async function updateSignInSettings(
  db: Db,
  orgId: string,
  changes: Partial<SignInSettingsRow>,
  now: Date,
): Promise<void> {
  await db('organizations')
    .where({ id: orgId })
    .update({ ...changes, updated_at: now });
}

/** The organizations with single sign-on on, and their domains (auto-provisioning picks among them). */
export async function listSsoOrganizations(db: Db): Promise<{ id: string; sso_domains: string[] }[]> {
  return db('organizations').where({ sso_enabled: true }).orderBy('id').select('id', 'sso_domains');
}
