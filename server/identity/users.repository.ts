import type { Knex } from 'knex';
import type { Db } from '../db/index.ts';
import type { Role } from '../schemas/common.ts';
import {
  JOINED_ORGANIZATION_COLUMNS,
  organizationOf,
  type JoinedOrganization,
  type OrganizationRow,
} from './organizations.repository.ts';
import { invitationsWithoutUser } from './user-invites.repository.ts';

/**
 * The `users` table. Every query is scoped by organization, except the look-ups by
 * e-mail a login makes before it knows the organization (e-mails are unique across
 * organizations), named `…InAnyOrganization`, and the operator's listing of all users.
 */

export interface UserRow {
  id: string;
  org_id: string;
  email: string;
  password_hash: string;
  role: Role;
  mfa_enabled: boolean;
  /** Encrypted at rest (auth/keys.ts sealSecret). */
  mfa_secret: string | null;
  /** Encrypted; set by MFA setup, moved to mfa_secret by its verification. */
  mfa_pending_secret: string | null;
  /** The last accepted TOTP time step, so a code works once (bigint). */
  mfa_last_step: number | string | null;
  /** Set while the user is disabled: no log-in, and no session or key of theirs answers. */
  disabled_at: Date | null;
  /** The single sign-on identity bound at the first SSO sign-in (`iss` + `sub`); null until then. */
  sso_issuer?: string | null;
  sso_subject?: string | null;
  created_at: Date;
  updated_at: Date;
}

/** The columns an insert must give; the others have defaults (MFA off, now). */
export type NewUserRow = Pick<UserRow, 'id' | 'org_id' | 'email' | 'password_hash' | 'role'> &
  Partial<Omit<UserRow, 'id' | 'org_id' | 'email' | 'password_hash' | 'role'>>;

declare module 'knex/types/tables.js' {
  interface Tables {
    users: Knex.CompositeTableType<UserRow, NewUserRow, Partial<UserRow>>;
  }
}

/** A user as a caller of the API: who, and with which role. */
export type CallerUser = Pick<UserRow, 'id' | 'email' | 'role'>;

export async function insertUser(db: Db, row: NewUserRow): Promise<UserRow> {
  const [created] = await db('users').insert(row).returning('*');
  return created!;
}

export async function findUser(db: Db, orgId: string, userId: string): Promise<UserRow | undefined> {
  return db('users').where({ id: userId, org_id: orgId }).first();
}

/** The user an e-mail names, whatever its organization; compared without regard to case. */
export async function findUserByEmailInAnyOrganization(db: Db, email: string): Promise<UserRow | undefined> {
  return db('users').whereRaw('lower(email) = lower(?)', [email]).first();
}

/** Whether the database has any user at all (first start). */
/** The user bound to a single sign-on identity, whatever its organization (the provider names none). */
export async function findUserBySsoIdentityInAnyOrganization(
  db: Db,
  issuer: string,
  subject: string,
): Promise<UserRow | undefined> {
  return db('users').where({ sso_issuer: issuer, sso_subject: subject }).first();
}

/** Binds the user to a single sign-on identity unless bound already; answers whether it was bound now. */
export async function bindSsoIdentity(
  db: Db,
  orgId: string,
  userId: string,
  identity: { issuer: string; subject: string },
  now: Date,
): Promise<boolean> {
  const changed = await db('users')
    .where({ id: userId, org_id: orgId })
    .whereNull('sso_subject')
    .update({ sso_issuer: identity.issuer, sso_subject: identity.subject, updated_at: now });
  return changed > 0;
}

export async function anyUserExists(db: Db): Promise<boolean> {
  return (await db('users').first('id')) !== undefined;
}

export async function updateUserPassword(
  db: Db,
  orgId: string,
  userId: string,
  passwordHash: string,
  now: Date,
): Promise<void> {
  await db('users')
    .where({ id: userId, org_id: orgId })
    .update({ password_hash: passwordHash, updated_at: now });
}

/*
 * MFA changes are conditional updates: each names the state it expects (the secret it
 * checked a code against, whether MFA is on) and accepts only a time step later than the
 * last accepted one, so two concurrent requests cannot both use one code. Each answers
 * whether the row changed.
 */

/** Only a step later than the last accepted one: `mfa_last_step` is null before the first code. */
function laterThanLastStep(query: Knex.QueryBuilder, step: number) {
  return query.where((q) => q.whereNull('mfa_last_step').orWhere('mfa_last_step', '<', step));
}

/** Consumes a login code's step of the user's active secret. */
export async function acceptMfaStep(
  db: Db,
  orgId: string,
  userId: string,
  secret: string,
  step: number,
): Promise<boolean> {
  const updated = await laterThanLastStep(
    db('users').where({ id: userId, org_id: orgId, mfa_enabled: true, mfa_secret: secret }),
    step,
  ).update({ mfa_last_step: step });
  return updated > 0;
}

/** Stores a new pending secret while MFA is off. */
export async function storePendingMfaSecret(
  db: Db,
  orgId: string,
  userId: string,
  sealedSecret: string,
  now: Date,
): Promise<void> {
  await db('users')
    .where({ id: userId, org_id: orgId, mfa_enabled: false })
    .update({ mfa_pending_secret: sealedSecret, updated_at: now });
}

/** Turns MFA on with the pending secret a code of `step` was checked against. */
export async function enableMfa(
  db: Db,
  orgId: string,
  userId: string,
  pendingSecret: string,
  step: number,
  now: Date,
): Promise<boolean> {
  const updated = await laterThanLastStep(
    db('users').where({ id: userId, org_id: orgId, mfa_enabled: false, mfa_pending_secret: pendingSecret }),
    step,
  ).update({
    mfa_enabled: true,
    mfa_secret: pendingSecret,
    mfa_pending_secret: null,
    mfa_last_step: step,
    updated_at: now,
  });
  return updated > 0;
}

/** Turns MFA off (the user's proof was checked by the caller); answers whether it was on or pending. */
export async function removeMfa(db: Db, orgId: string, userId: string, now: Date): Promise<boolean> {
  const updated = await db('users')
    .where({ id: userId, org_id: orgId })
    .where((q) => q.where('mfa_enabled', true).orWhereNotNull('mfa_pending_secret'))
    .update({
      mfa_enabled: false,
      mfa_secret: null,
      mfa_pending_secret: null,
      mfa_last_step: null,
      updated_at: now,
    });
  return updated > 0;
}

/*
 * The lifecycle of an account (people/user-lifecycle.ts): disabling, enabling,
 * deleting, and the count of active admins that keeps an organization from losing
 * its last one.
 */

/** Sets or clears `disabled_at`; a disabled user keeps the moment it was first disabled. */
export async function setUserDisabled(
  db: Db,
  orgId: string,
  userId: string,
  disabled: boolean,
  now: Date,
): Promise<UserRow | undefined> {
  const query = db('users').where({ id: userId, org_id: orgId });
  if (disabled) void query.whereNull('disabled_at');
  await query.update({ disabled_at: disabled ? now : null, updated_at: now });
  return findUser(db, orgId, userId);
}

/** Deletes the user; their sessions, keys and recovery codes go with them (foreign keys). */
export async function deleteUserRow(db: Db, orgId: string, userId: string): Promise<boolean> {
  return (await db('users').where({ id: userId, org_id: orgId }).delete()) > 0;
}

/**
 * How many admins of the organization are not disabled, leaving `exceptUserId` out. Invitations
 * kept without a user count as the invited users they stand for (an invited admin counts before
 * accepting), so the rule answers alike whichever an admin invited.
 */
export async function countActiveAdmins(db: Db, orgId: string, exceptUserId?: string): Promise<number> {
  const admins = db('users').where({ org_id: orgId, role: 'admin' }).whereNull('disabled_at');
  const invited = invitationsWithoutUser(db, orgId).where({ role: 'admin' }).whereNull('disabled_at');
  if (exceptUserId !== undefined) {
    void admins.whereNot('id', exceptUserId);
    void invited.whereNot('invitee_id', exceptUserId);
  }
  const [row] = await db
    .queryBuilder()
    .select<{ total: number }[]>(db.raw('(? + ?)::int as total', [admins.count('*'), invited.count('*')]));
  return row?.total ?? 0;
}

/** A user with the name of its organization (operator listing). */
export interface UserListRow {
  id: string;
  email: string;
  role: Role;
  org_id: string;
  org_name: string;
  mfa_enabled: boolean;
  disabled_at: Date | null;
  created_at: Date;
}

/** Users of one organization, or of every organization when `orgId` is undefined; oldest first. */
export async function listUsersWithOrganization(db: Db, orgId: string | undefined): Promise<UserListRow[]> {
  const query = db('users as u')
    .join('organizations as o', 'o.id', 'u.org_id')
    .select<UserListRow[]>(
      'u.id',
      'u.email',
      'u.role',
      'u.org_id',
      'o.name as org_name',
      'u.mfa_enabled',
      'u.disabled_at',
      'u.created_at',
    )
    .orderBy([{ column: 'u.created_at' }, { column: 'u.id' }]);
  if (orgId) void query.where('u.org_id', orgId);
  return query;
}

/** What a password login as a caller needs: the user, its password check and its organization. */
export interface PasswordCaller {
  user: CallerUser;
  passwordHash: string;
  mfaEnabled: boolean;
  disabled: boolean;
  org: OrganizationRow;
}

/** The user an e-mail names, whatever its organization, with its organization (HTTP Basic). */
export async function findPasswordCallerInAnyOrganization(
  db: Db,
  email: string,
): Promise<PasswordCaller | undefined> {
  const row = await db('users as u')
    .join('organizations as o', 'o.id', 'u.org_id')
    .whereRaw('lower(u.email) = lower(?)', [email])
    .first<
      | (JoinedOrganization & {
          user_id: string;
          email: string;
          role: UserRow['role'];
          password_hash: string;
          mfa_enabled: boolean;
          disabled_at: Date | null;
        })
      | undefined
    >(
      'u.id as user_id',
      'u.email',
      'u.role',
      'u.password_hash',
      'u.mfa_enabled',
      'u.disabled_at',
      ...JOINED_ORGANIZATION_COLUMNS,
    );
  if (!row) return undefined;
  return {
    user: { id: row.user_id, email: row.email, role: row.role },
    passwordHash: row.password_hash,
    mfaEnabled: row.mfa_enabled,
    disabled: row.disabled_at !== null,
    org: organizationOf(row),
  };
}

/*
 * The People API (people/people.ts): an organization's users with whether an
 * invitation of theirs is still unused, and role changes.
 */

/** A user as the People API shows them. */
export type PersonRow = Pick<
  UserRow,
  'id' | 'email' | 'role' | 'mfa_enabled' | 'disabled_at' | 'created_at'
> & { invite_pending: boolean };

/**
 * The organization's people: its users, and its invitations kept without a user (an address
 * with an account elsewhere) as the invited user each stands for: under the id its answer
 * showed, MFA off, the invitation pending (user-invites.repository.ts).
 */
function people(db: Db, orgId: string) {
  const users = db('users as u')
    .where('u.org_id', orgId)
    .select(
      'u.id',
      'u.email',
      'u.role',
      'u.mfa_enabled',
      'u.disabled_at',
      'u.created_at',
      db.raw(
        'exists (select 1 from user_invites i where i.user_id = u.id and i.used_at is null) as invite_pending',
      ),
    );
  const invited = invitationsWithoutUser(db, orgId).select(
    'invitee_id as id',
    'email',
    'role',
    db.raw('false as mfa_enabled'),
    'disabled_at',
    'created_at',
    db.raw('true as invite_pending'),
  );
  return db.queryBuilder().from(users.unionAll(invited, true).as('p')).select<PersonRow[]>('p.*');
}

/** How many people the organization has (users and invitations kept without a user). */
export async function countPeople(db: Db, orgId: string): Promise<number> {
  const [row] = await db
    .queryBuilder()
    .from(people(db, orgId).as('p'))
    .select<{ total: number }[]>(db.raw('count(*)::int as total'));
  return row?.total ?? 0;
}

/** A page of the organization's people, oldest first, ties broken by id. */
export async function listPeople(
  db: Db,
  orgId: string,
  page: { limit: number; offset: number },
): Promise<PersonRow[]> {
  return people(db, orgId)
    .orderBy([{ column: 'p.created_at' }, { column: 'p.id' }])
    .limit(page.limit)
    .offset(page.offset);
}

export async function findPerson(db: Db, orgId: string, userId: string): Promise<PersonRow | undefined> {
  const [row] = await people(db, orgId).where('p.id', userId);
  return row;
}

export async function setUserRole(
  db: Db,
  orgId: string,
  userId: string,
  role: Role,
  now: Date,
): Promise<void> {
  await db('users').where({ id: userId, org_id: orgId }).update({ role, updated_at: now });
}
