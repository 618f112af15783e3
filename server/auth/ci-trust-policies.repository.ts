import type { Knex } from 'knex';
import type { Db } from '../db/index.ts';
import {
  JOINED_ORGANIZATION_COLUMNS,
  organizationOf,
  type JoinedOrganization,
  type OrganizationRow,
} from '../identity/organizations.repository.ts';
import type { CallerUser } from '../identity/users.repository.ts';
import type { Permission } from '../schemas/common.ts';

/**
 * The `ci_trust_policies` table (docs/ci-trust.md). Every query is scoped by organization;
 * deleted policies keep their row (`deleted_at`) and are never read again.
 */

export interface CiTrustPolicyRow {
  id: string;
  org_id: string;
  name: string;
  issuer: string;
  audience: string;
  conditions: Record<string, string>;
  permissions: Permission[];
  allow_forks: boolean;
  created_by: string;
  created_at: Date;
  deleted_at: Date | null;
}

export type NewCiTrustPolicyRow = Omit<CiTrustPolicyRow, 'created_at' | 'deleted_at'> & {
  created_at?: Date;
};

declare module 'knex/types/tables.js' {
  interface Tables {
    ci_trust_policies: Knex.CompositeTableType<
      CiTrustPolicyRow,
      NewCiTrustPolicyRow,
      Partial<Pick<CiTrustPolicyRow, 'deleted_at' | 'audience'>>
    >;
  }
}

/** A policy with the e-mail of the admin who created it. */
export type CiTrustPolicyWithCreator = CiTrustPolicyRow & { created_by_email: string };

function parsed<T extends { conditions: unknown }>(row: T): T & { conditions: Record<string, string> } {
  const conditions =
    typeof row.conditions === 'string'
      ? (JSON.parse(row.conditions) as Record<string, string>)
      : (row.conditions as Record<string, string>);
  return { ...row, conditions };
}

export async function insertCiTrustPolicy(db: Db, row: NewCiTrustPolicyRow): Promise<void> {
  await db('ci_trust_policies').insert({ ...row, conditions: JSON.stringify(row.conditions) as never });
}

function livePolicies(db: Db, orgId: string) {
  return db('ci_trust_policies as p')
    .join('users as u', 'u.id', 'p.created_by')
    .where('p.org_id', orgId)
    .whereNull('p.deleted_at');
}

export async function countCiTrustPolicies(db: Db, orgId: string): Promise<number> {
  const [row] = await livePolicies(db, orgId).select<{ total: number }[]>(db.raw('count(*)::int as total'));
  return row?.total ?? 0;
}

/** A page of the organization's live policies, newest first, ties broken by id. */
export async function listCiTrustPolicies(
  db: Db,
  orgId: string,
  page: { limit: number; offset: number },
): Promise<CiTrustPolicyWithCreator[]> {
  const rows = await livePolicies(db, orgId)
    .select<CiTrustPolicyWithCreator[]>('p.*', 'u.email as created_by_email')
    .orderBy([
      { column: 'p.created_at', order: 'desc' },
      { column: 'p.id', order: 'desc' },
    ])
    .limit(page.limit)
    .offset(page.offset);
  return rows.map(parsed);
}

/** One live policy of the organization, or undefined (missing, foreign or deleted alike). */
export async function findCiTrustPolicy(
  db: Db,
  orgId: string,
  policyId: string,
): Promise<CiTrustPolicyWithCreator | undefined> {
  const row = await livePolicies(db, orgId)
    .where('p.id', policyId)
    .first<CiTrustPolicyWithCreator | undefined>('p.*', 'u.email as created_by_email');
  return row ? parsed(row) : undefined;
}

/** Marks a live policy deleted; false when there is none of that id in the organization. */
export async function deleteCiTrustPolicy(
  db: Db,
  orgId: string,
  policyId: string,
  now: Date,
): Promise<boolean> {
  const changed = await db('ci_trust_policies')
    .where({ id: policyId, org_id: orgId })
    .whereNull('deleted_at')
    .update({ deleted_at: now });
  return changed > 0;
}

/**
 * The live policies of one organization trusting `issuer`, whose creator is not disabled: the
 * exchange reads only those of the organization that owns the token's audience, oldest first.
 */
export async function findCiTrustPoliciesByIssuer(
  db: Db,
  orgId: string,
  issuer: string,
): Promise<CiTrustPolicyRow[]> {
  const rows = await db('ci_trust_policies as p')
    .join('users as u', 'u.id', 'p.created_by')
    .where('p.org_id', orgId)
    .where('p.issuer', issuer)
    .whereNull('p.deleted_at')
    .whereNull('u.disabled_at')
    .orderBy([
      { column: 'p.created_at', order: 'asc' },
      { column: 'p.id', order: 'asc' },
    ])
    .select<CiTrustPolicyRow[]>('p.*');
  return rows.map(parsed);
}

/** Moves every policy of the organization to its audience (once the audience is minted). */
export async function setCiTrustPoliciesAudience(db: Db, orgId: string, audience: string): Promise<void> {
  await db('ci_trust_policies').where({ org_id: orgId }).whereNot({ audience }).update({ audience });
}

/** The caller of a CI access token: its live policy, the policy's creator (not disabled) and organization. */
export interface CiTokenCaller {
  policyId: string;
  permissions: Permission[];
  user: CallerUser;
  org: OrganizationRow;
}

export async function findCiTokenCaller(
  db: Db,
  orgId: string,
  policyId: string,
): Promise<CiTokenCaller | undefined> {
  const row = await db('ci_trust_policies as p')
    .join('users as u', 'u.id', 'p.created_by')
    .join('organizations as o', 'o.id', 'p.org_id')
    .where({ 'p.id': policyId, 'p.org_id': orgId })
    .whereNull('p.deleted_at')
    .whereNull('u.disabled_at')
    .first<
      | (JoinedOrganization & {
          policy_id: string;
          permissions: Permission[];
          user_id: string;
          email: string;
          role: CallerUser['role'];
        })
      | undefined
    >(
      'p.id as policy_id',
      'p.permissions',
      'u.id as user_id',
      'u.email',
      'u.role',
      ...JOINED_ORGANIZATION_COLUMNS,
    );
  if (!row) return undefined;
  return {
    policyId: row.policy_id,
    permissions: row.permissions,
    user: { id: row.user_id, email: row.email, role: row.role },
    org: organizationOf(row),
  };
}
