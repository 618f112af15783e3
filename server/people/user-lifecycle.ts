import { revokeUserApiKeys } from '../auth/api-keys.repository.ts';
import { resetMfa } from '../auth/mfa.ts';
import { hashPassword } from '../identity/passwords.ts';
import { revokeUnrevokedSessions } from '../auth/sessions.repository.ts';
import type { Db } from '../db/index.ts';
import { conflict, notFound } from '../errors.ts';
import { removesAnActiveAdmin, standingChangeVerb, type StandingChange } from '../policies/people.ts';
import type { Role } from '../schemas/common.ts';
import { findOrganizationForUpdate } from '../identity/organizations.repository.ts';
import {
  deleteInviteWithoutUser,
  findInviteWithoutUser,
  setInviteWithoutUserDisabled,
  setInviteWithoutUserRole,
  type UserInviteRow,
} from '../identity/user-invites.repository.ts';
import {
  countActiveAdmins,
  deleteUserRow,
  findUser,
  setUserDisabled,
  setUserRole,
  updateUserPassword,
  type UserRow,
} from '../identity/users.repository.ts';

/**
 * The lifecycle of an account, one owner for every caller (the operator command
 * line today, an admin's People API tomorrow): disable, enable, delete, reset the
 * password, reset MFA, revoke sessions. Every function names its user by
 * organization and id, so a caller scoped to one organization cannot reach
 * another's user: a foreign id is NOT_FOUND, like a missing one.
 *
 * The rules:
 * - Disabling or deleting revokes every session and API key of the user at once;
 *   while disabled the user cannot log in and nothing of theirs authenticates.
 *   Enabling lets them log in again; what was revoked stays revoked.
 * - The last active (not disabled) admin of an organization can be neither
 *   disabled nor deleted. Changes that could take an organization's last admin
 *   away run one at a time per organization (its row is locked), so two
 *   concurrent requests cannot each remove one of the last two admins.
 * - Deleting removes the user's row, sessions, keys and MFA recovery codes; what
 *   they did stays, under their e-mail (finding history and comments, evidence),
 *   and what they created for the organization (scans, schedules, webhooks) stays
 *   with the organization.
 * - A password reset revokes every session and, unless kept on purpose, every API
 *   key: after an account is compromised, keys its attacker made stop working.
 */

/** Whose account: every function is scoped by organization. */
export interface UserRef {
  orgId: string;
  userId: string;
}

/** What a change took away from the user at once. */
export interface AccessRevoked {
  sessions: number;
  apiKeys: number;
}

export interface UserChange {
  user: UserRow;
  revoked: AccessRevoked;
}

const noUser = () => notFound('user');

/** What the last-admin rule reads of a person (a user, or an invitation kept without a user). */
type AdminCandidate = Pick<UserRow, 'id' | 'org_id' | 'email' | 'role' | 'disabled_at'>;

/**
 * Refuses (409 CONFLICT) a change that takes away the organization's last active admin
 * (the people policy, policies/people.ts). Call it inside a transaction that locked the
 * organization (findOrganizationForUpdate).
 */
export async function assertNotLastActiveAdmin(
  trx: Db,
  user: AdminCandidate,
  change: StandingChange,
): Promise<void> {
  if (!removesAnActiveAdmin(user, change)) return;
  if ((await countActiveAdmins(trx, user.org_id, user.id)) === 0) {
    throw conflict(
      `cannot ${standingChangeVerb(change)} ${user.email}: the last active admin of the organization; ` +
        'make another user an admin first',
    );
  }
}

/** Revokes every session and every API key of the user; returns how many of each. */
async function revokeAccess(trx: Db, ref: UserRef, now: Date): Promise<AccessRevoked> {
  return {
    sessions: await revokeUnrevokedSessions(trx, ref.orgId, ref.userId, now),
    apiKeys: await revokeUserApiKeys(trx, ref.orgId, ref.userId, now),
  };
}

/**
 * Runs a change of the user's standing with the organization locked: the user is
 * read under the lock, so the last-admin rule sees every concurrent change.
 */
async function withOrganizationLocked<T>(
  db: Db,
  ref: UserRef,
  change: (trx: Db, user: UserRow) => Promise<T>,
): Promise<T> {
  return db.transaction(async (trx) => {
    if (!(await findOrganizationForUpdate(trx, ref.orgId))) throw noUser();
    const user = await findUser(trx, ref.orgId, ref.userId);
    if (!user) throw noUser();
    return change(trx, user);
  });
}

/** Disables the user and revokes their sessions and keys; refused for the last active admin. */
export async function disableUser(db: Db, ref: UserRef, now = new Date()): Promise<UserChange> {
  return withOrganizationLocked(db, ref, async (trx, user) => {
    await assertNotLastActiveAdmin(trx, user, 'disable');
    const updated = await setUserDisabled(trx, ref.orgId, ref.userId, true, now);
    return { user: updated!, revoked: await revokeAccess(trx, ref, now) };
  });
}

/**
 * Changes the user's role; refused (409) when it would demote the organization's last
 * active admin. Takes effect on the user's next request: every request reads the role.
 */
export async function changeUserRole(
  db: Db,
  ref: UserRef,
  role: Role,
  now = new Date(),
): Promise<{ user: UserRow; previous: Role }> {
  return withOrganizationLocked(db, ref, async (trx, user) => {
    if (user.role === role) return { user, previous: role };
    await assertNotLastActiveAdmin(trx, user, { role });
    await setUserRole(trx, ref.orgId, ref.userId, role, now);
    return { user: { ...user, role, updated_at: now }, previous: user.role };
  });
}

/** Lets a disabled user log in again (sessions and keys revoked meanwhile stay revoked). */
export async function enableUser(db: Db, ref: UserRef, now = new Date()): Promise<UserRow> {
  const updated = await setUserDisabled(db, ref.orgId, ref.userId, false, now);
  if (!updated) throw noUser();
  return updated;
}

/**
 * Deletes the user with their sessions, keys and recovery codes; refused for the last
 * active admin. Their comments and history keep their e-mail.
 */
export async function deleteUser(db: Db, ref: UserRef, now = new Date()): Promise<UserChange> {
  return withOrganizationLocked(db, ref, async (trx, user) => {
    await assertNotLastActiveAdmin(trx, user, 'delete');
    // Counted as revocations first, so the caller learns what stopped working.
    const revoked = await revokeAccess(trx, ref, now);
    await deleteUserRow(trx, ref.orgId, ref.userId);
    return { user, revoked };
  });
}

/**
 * Sets a new password and revokes every session of the user, and every API key
 * unless `keepApiKeys` (off by default: keys an intruder made must stop working too).
 */
export async function resetPassword(
  db: Db,
  ref: UserRef,
  password: string,
  options: { keepApiKeys?: boolean } = {},
  now = new Date(),
): Promise<UserChange> {
  const hash = await hashPassword(password);
  return db.transaction(async (trx) => {
    const user = await findUser(trx, ref.orgId, ref.userId);
    if (!user) throw noUser();
    await updateUserPassword(trx, ref.orgId, ref.userId, hash, now);
    const revoked: AccessRevoked = {
      sessions: await revokeUnrevokedSessions(trx, ref.orgId, ref.userId, now),
      apiKeys: options.keepApiKeys ? 0 : await revokeUserApiKeys(trx, ref.orgId, ref.userId, now),
    };
    return { user, revoked };
  });
}

/**
 * Turns the user's MFA off without a code (lost authenticator and recovery codes):
 * the secret, a pending enrolment and the recovery codes go. Sessions and keys are
 * left alone; reset the password as well when the account may be compromised.
 * Answers the user and whether MFA was on (or being set up).
 */
export async function resetUserMfa(
  db: Db,
  ref: UserRef,
  now = new Date(),
): Promise<{ user: UserRow; mfaWasOn: boolean }> {
  const user = await findUser(db, ref.orgId, ref.userId);
  if (!user) throw noUser();
  return { user, mfaWasOn: await resetMfa(db, ref, now) };
}

/** Revokes every session of the user not revoked yet; returns how many. */
export async function revokeUserSessions(db: Db, ref: UserRef, now = new Date()): Promise<number> {
  const user = await findUser(db, ref.orgId, ref.userId);
  if (!user) throw noUser();
  return revokeUnrevokedSessions(db, ref.orgId, ref.userId, now);
}

/*
 * Invitations kept without a user (an address with an account in another organization, issue
 * 31 item 6) follow the same rules as the invited user each stands for, under the id its
 * answer showed: the role changes, disabling and enabling, deleting, the last-admin rule. They
 * have no session or key, so nothing is revoked.
 */

/** The person an invitation kept without a user stands for. */
export interface InvitedPerson extends AdminCandidate {
  role: Role;
}

const personOf = (invite: UserInviteRow): InvitedPerson => ({
  id: invite.invitee_id!,
  org_id: invite.org_id,
  email: invite.email!,
  role: invite.role as Role,
  disabled_at: invite.disabled_at,
});

/** The invitation kept without a user under this id, or undefined (then the id names a user, or nobody). */
export async function findInvitedPerson(db: Db, ref: UserRef): Promise<InvitedPerson | undefined> {
  const invite = await findInviteWithoutUser(db, ref.orgId, ref.userId);
  return invite ? personOf(invite) : undefined;
}

async function withInvitationLocked<T>(
  db: Db,
  ref: UserRef,
  change: (trx: Db, person: InvitedPerson) => Promise<T>,
): Promise<T> {
  return db.transaction(async (trx) => {
    if (!(await findOrganizationForUpdate(trx, ref.orgId))) throw noUser();
    const person = await findInvitedPerson(trx, ref);
    if (!person) throw noUser();
    return change(trx, person);
  });
}

/** changeUserRole for an invitation kept without a user. */
export async function changeInvitationRole(
  db: Db,
  ref: UserRef,
  role: Role,
): Promise<{ user: InvitedPerson; previous: Role }> {
  return withInvitationLocked(db, ref, async (trx, person) => {
    if (person.role === role) return { user: person, previous: role };
    await assertNotLastActiveAdmin(trx, person, { role });
    await setInviteWithoutUserRole(trx, ref.orgId, ref.userId, role);
    return { user: { ...person, role }, previous: person.role };
  });
}

/** disableUser and enableUser for an invitation kept without a user; answers it as it was before. */
export async function setInvitationDisabled(
  db: Db,
  ref: UserRef,
  disabled: boolean,
  now = new Date(),
): Promise<InvitedPerson> {
  return withInvitationLocked(db, ref, async (trx, person) => {
    if (disabled) await assertNotLastActiveAdmin(trx, person, 'disable');
    await setInviteWithoutUserDisabled(trx, ref.orgId, ref.userId, disabled, now);
    return person;
  });
}

/** deleteUser for an invitation kept without a user: the invitation goes. */
export async function deleteInvitation(db: Db, ref: UserRef): Promise<InvitedPerson> {
  return withInvitationLocked(db, ref, async (trx, person) => {
    await assertNotLastActiveAdmin(trx, person, 'delete');
    await deleteInviteWithoutUser(trx, ref.orgId, ref.userId);
    return person;
  });
}
