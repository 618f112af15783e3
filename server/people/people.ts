import { createHash, randomBytes } from 'node:crypto';
import { throttledCheck, failedWith, passed } from '../auth/login-throttle.ts';
import { hashPassword, verifyPassword } from '../identity/passwords.ts';
import { revokeOtherSessions } from '../auth/sessions.repository.ts';
import type { Db } from '../db/index.ts';
import { AppError, conflict, notFound } from '../errors.ts';
import type { Principal } from '../policies/principal.ts';
import { pageOf, type PageOf, type Role } from '../schemas/common.ts';
import type { UserInvited, UserRecord } from '../schemas/people.ts';
import { recordAuditEvent, type AuditPerson } from '../identity/audit.ts';
import { newId } from '../identity/ids.ts';
import {
  changeInvitationRole,
  changeUserRole,
  deleteInvitation,
  deleteUser,
  disableUser,
  enableUser,
  findInvitedPerson,
  setInvitationDisabled,
  type UserRef,
} from './user-lifecycle.ts';
import {
  consumeUserInvite,
  hasInviteWithoutUser,
  insertUserInvite,
} from '../identity/user-invites.repository.ts';
import {
  countPeople,
  findPerson,
  findUser,
  listPeople,
  updateUserPassword,
  type PersonRow,
} from '../identity/users.repository.ts';
import { createUser, EmailTakenError, findUserByEmail } from '../identity/users.ts';

/**
 * The People of an organization, as its admins run them through the API and the
 * console (issue 22): invite with a role, change the role, disable, enable,
 * delete; and what every person does for themselves: accept an invitation, change
 * their password. The rules of the account lifecycle (last active admin, revoking
 * at once) are user-lifecycle.ts's; this module adds the invitations and records
 * every change in the audit trail (audit.ts).
 *
 * An invitation of an address with an account in another organization is kept without a user
 * (issue 31, item 6) and is one of the organization's people all the same: listed, looked up,
 * changed and deleted under the id its answer showed, exactly as an invited user who has not
 * accepted yet, so nothing an admin does tells them the address exists elsewhere.
 */

/** How long an invitation's set-password link works. */
export const INVITE_LIFETIME_HOURS = 72;

/** Where the console's set-password page lives under the public URL (the console is served at the root); the token goes in the fragment. */
export const SET_PASSWORD_PATH = '/set-password';

const noUser = () => notFound('user');

function present(row: PersonRow): UserRecord {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    disabled: row.disabled_at !== null,
    disabled_at: row.disabled_at ? row.disabled_at.toISOString() : null,
    mfa_enabled: row.mfa_enabled,
    invite_pending: Boolean(row.invite_pending),
    created_at: row.created_at.toISOString(),
  };
}

const actorOf = (principal: Principal): AuditPerson => ({
  id: principal.user.id,
  email: principal.user.email,
});

export async function listPeopleOf(
  db: Db,
  orgId: string,
  page: number,
  perPage: number,
): Promise<PageOf<UserRecord>> {
  const total = await countPeople(db, orgId);
  const rows = await listPeople(db, orgId, { limit: perPage, offset: (page - 1) * perPage });
  return pageOf(rows.map(present), total, page, perPage);
}

/** Most people an organization's assignee suggestions list. */
export const ASSIGNEE_SUGGESTIONS = 500;

/**
 * The organization's people a finding may be assigned to, as suggestions: the e-mail of
 * every user who is not disabled, oldest account first (at most ASSIGNEE_SUGGESTIONS).
 */
export async function assigneeSuggestionsOf(db: Db, orgId: string): Promise<{ email: string }[]> {
  const rows = await listPeople(db, orgId, { limit: ASSIGNEE_SUGGESTIONS, offset: 0 });
  return rows.filter((row) => row.disabled_at === null).map((row) => ({ email: row.email }));
}

export async function getPerson(db: Db, orgId: string, userId: string): Promise<UserRecord> {
  const row = await findPerson(db, orgId, userId);
  if (!row) throw noUser();
  return present(row);
}

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Invites a person: a user of the role with no password anyone knows (a random one,
 * hashed and forgotten), and a one-time set-password link under `publicUrl` that
 * expires after INVITE_LIFETIME_HOURS. The link is in this answer only.
 *
 * An address that has an account in another organization is answered exactly as a new one
 * (issue 31, item 6: the answer must not tell one organization about another's people): the
 * invitation is kept without a user, under the id the answer shows, and only whoever opens
 * its link is told that the address is taken ({@link acceptInvite}). An address of this
 * organization's own people is 409, as before.
 */
export async function invitePerson(
  db: Db,
  principal: Principal,
  input: { email: string; role: Role },
  publicUrl: string,
  ip: string,
  now = new Date(),
): Promise<UserInvited> {
  const token = `inv_${randomBytes(32).toString('base64url')}`;
  const expiresAt = new Date(now.getTime() + INVITE_LIFETIME_HOURS * 3600_000);
  const orgId = principal.org.id;
  const email = input.email.trim();
  const taken = () => conflict(`a user with the e-mail ${email} already exists`);
  const invited = await db
    .transaction(async (trx): Promise<UserRecord> => {
      const existing = await findUserByEmail(trx, email);
      // An invitation kept without a user stands for a person of this organization, as a user does.
      if (existing?.org_id === orgId || (await hasInviteWithoutUser(trx, orgId, email))) throw taken();
      if (existing) {
        // Elsewhere: the same work (a password hashed) and the same answer as a new account.
        await hashPassword(randomBytes(32).toString('base64url'));
        const inviteeId = newId('user');
        await insertUserInvite(trx, {
          id: newId('inv'),
          org_id: orgId,
          user_id: null,
          email,
          role: input.role,
          invitee_id: inviteeId,
          token_hash: tokenHash(token),
          created_at: now,
          expires_at: expiresAt,
        });
        return {
          id: inviteeId,
          email,
          role: input.role,
          disabled: false,
          disabled_at: null,
          mfa_enabled: false,
          invite_pending: true,
          created_at: now.toISOString(),
        };
      }
      const created = await createUser(trx, {
        orgId,
        email,
        password: randomBytes(32).toString('base64url'),
        role: input.role,
      });
      await insertUserInvite(trx, {
        id: newId('inv'),
        org_id: orgId,
        user_id: created.id,
        token_hash: tokenHash(token),
        created_at: now,
        expires_at: expiresAt,
      });
      const person = await findPerson(trx, orgId, created.id);
      return present(person!);
    })
    .catch((err: unknown) => {
      // Two invitations of one address at once: the unique index refuses the second.
      if (err instanceof EmailTakenError || (err as { code?: unknown }).code === '23505') throw taken();
      throw err;
    });
  await recordAuditEvent(
    db,
    {
      orgId,
      action: 'user.invited',
      actor: actorOf(principal),
      target: { id: invited.id, email: invited.email },
      ip,
      details: { role: input.role },
    },
    now,
  );
  return {
    user: invited,
    invite_url: `${publicUrl.replace(/\/+$/, '')}${SET_PASSWORD_PATH}#token=${encodeURIComponent(token)}`,
    invite_expires_at: expiresAt.toISOString(),
  };
}

/** The link of an invitation kept without a user: the address has an account in another organization. */
const accountElsewhere = () =>
  conflict(
    'this e-mail address already has a Scanward account in another organization; sign in with it, or ask ' +
      'whoever invited you to invite another address',
  );

const invalidInvite = () =>
  new AppError(422, 'VALIDATION_ERROR', 'token: the link is invalid, already used or expired', 'token');

/** Sets the password of an invited person with their one-time token; the token is spent. */
export async function acceptInvite(
  db: Db,
  input: { token: string; password: string },
  ip: string,
  now = new Date(),
): Promise<{ email: string; password_set: true }> {
  const hash = await hashPassword(input.password);
  const user = await db.transaction(async (trx) => {
    const invite = await consumeUserInvite(trx, tokenHash(input.token), now);
    if (!invite) throw invalidInvite();
    // Disabled: as a disabled invited user's link below.
    if (invite.user_id === null) throw invite.disabled_at ? invalidInvite() : accountElsewhere();
    const found = await findUser(trx, invite.org_id, invite.user_id);
    if (!found || found.disabled_at) throw invalidInvite();
    await updateUserPassword(trx, found.org_id, found.id, hash, now);
    return found;
  });
  const person = { id: user.id, email: user.email };
  await recordAuditEvent(
    db,
    { orgId: user.org_id, action: 'user.invite_accepted', actor: person, target: person, ip },
    now,
  );
  return { email: user.email, password_set: true };
}

/**
 * An admin's change of a person: role and/or disabled. Disabling revokes every
 * session and key of theirs at once; neither demoting nor disabling may take the
 * organization's last active admin away (409). Both parts of one change apply together or
 * not at all.
 */
export async function updatePerson(
  db: Db,
  principal: Principal,
  userId: string,
  change: { role?: Role | undefined; disabled?: boolean | undefined },
  ip: string,
  now = new Date(),
): Promise<UserRecord> {
  const ref: UserRef = { orgId: principal.org.id, userId };
  // One transaction: a role change and a disable in one request happen together or not at all
  // (demoting then failing to disable the last admin leaves the role as it was).
  await db.transaction(async (trx) => {
    const audit = (
      action: 'user.role_changed' | 'user.disabled' | 'user.enabled',
      target: AuditPerson,
      details = {},
    ) =>
      recordAuditEvent(
        trx,
        { orgId: ref.orgId, action, actor: actorOf(principal), target, ip, details },
        now,
      );
    if (await findInvitedPerson(trx, ref)) {
      await updateInvitedPerson(trx, ref, change, audit, now);
      return;
    }
    if (change.role !== undefined) {
      const { user, previous } = await changeUserRole(trx, ref, change.role, now);
      if (previous !== change.role) {
        await audit(
          'user.role_changed',
          { id: user.id, email: user.email },
          { from: previous, to: change.role },
        );
      }
    }
    if (change.disabled === true) {
      const before = await findUser(trx, ref.orgId, ref.userId);
      const { user, revoked } = await disableUser(trx, ref, now);
      if (before && before.disabled_at === null) {
        await audit(
          'user.disabled',
          { id: user.id, email: user.email },
          {
            sessions_revoked: String(revoked.sessions),
            api_keys_revoked: String(revoked.apiKeys),
          },
        );
      }
    } else if (change.disabled === false) {
      const before = await findUser(trx, ref.orgId, ref.userId);
      const user = await enableUser(trx, ref, now);
      if (before && before.disabled_at !== null)
        await audit('user.enabled', { id: user.id, email: user.email });
    }
  });
  return getPerson(db, ref.orgId, userId);
}

type PersonAudit = (
  action: 'user.role_changed' | 'user.disabled' | 'user.enabled',
  target: AuditPerson,
  details?: Record<string, string>,
) => Promise<unknown>;

/** No session or key of an invitation kept without a user, as none of an invited user's before accepting. */
const NOTHING_REVOKED = { sessions_revoked: '0', api_keys_revoked: '0' };

/** updatePerson of an invitation kept without a user: the same changes and audit events as a user's. */
async function updateInvitedPerson(
  trx: Db,
  ref: UserRef,
  change: { role?: Role | undefined; disabled?: boolean | undefined },
  audit: PersonAudit,
  now: Date,
): Promise<void> {
  if (change.role !== undefined) {
    const { user, previous } = await changeInvitationRole(trx, ref, change.role);
    if (previous !== change.role) {
      await audit(
        'user.role_changed',
        { id: user.id, email: user.email },
        { from: previous, to: change.role },
      );
    }
  }
  if (change.disabled !== undefined) {
    const before = await setInvitationDisabled(trx, ref, change.disabled, now);
    const target = { id: before.id, email: before.email };
    if (change.disabled && before.disabled_at === null) await audit('user.disabled', target, NOTHING_REVOKED);
    if (!change.disabled && before.disabled_at !== null) await audit('user.enabled', target);
  }
}

/** Deletes a person (their comments and history keep the e-mail); sessions and keys go at once. */
export async function removePerson(
  db: Db,
  principal: Principal,
  userId: string,
  ip: string,
  now = new Date(),
): Promise<{ id: string; deleted: true }> {
  const ref: UserRef = { orgId: principal.org.id, userId };
  if (await findInvitedPerson(db, ref)) {
    const person = await deleteInvitation(db, ref);
    await recordAuditEvent(
      db,
      {
        orgId: ref.orgId,
        action: 'user.deleted',
        actor: actorOf(principal),
        target: { id: person.id, email: person.email },
        ip,
        details: { role: person.role, ...NOTHING_REVOKED },
      },
      now,
    );
    return { id: person.id, deleted: true };
  }
  const { user, revoked } = await deleteUser(db, ref, now);
  await recordAuditEvent(
    db,
    {
      orgId: principal.org.id,
      action: 'user.deleted',
      actor: actorOf(principal),
      target: { id: user.id, email: user.email },
      ip,
      details: {
        role: user.role,
        sessions_revoked: String(revoked.sessions),
        api_keys_revoked: String(revoked.apiKeys),
      },
    },
    now,
  );
  return { id: user.id, deleted: true };
}

/**
 * A person changes their own password: the current one is checked (a wrong one
 * counts as a failed log-in of their e-mail, so it cannot be guessed faster than a
 * log-in), the new one is set, and every other session of theirs is revoked; the
 * calling session stays. API keys stay (a planned change, not a compromise: an
 * admin's reset revokes them).
 */
export async function changeOwnPassword(
  db: Db,
  principal: Principal,
  input: { current_password: string; new_password: string },
  ip: string,
  now = new Date(),
): Promise<{ password_changed: true; sessions_revoked: number }> {
  const ref = { orgId: principal.org.id, userId: principal.user.id };
  await throttledCheck(
    db,
    { email: principal.user.email, ip },
    async () => {
      const user = await findUser(db, ref.orgId, ref.userId);
      if (!user) throw noUser();
      if (!(await verifyPassword(input.current_password, user.password_hash))) {
        return failedWith(
          new AppError(422, 'VALIDATION_ERROR', 'current_password: is incorrect', 'current_password'),
        );
      }
      return passed(undefined);
    },
    now,
  );
  const hash = await hashPassword(input.new_password);
  const revoked = await db.transaction(async (trx) => {
    await updateUserPassword(trx, ref.orgId, ref.userId, hash, now);
    return revokeOtherSessions(trx, ref.orgId, ref.userId, principal.sessionId, now);
  });
  const me = actorOf(principal);
  await recordAuditEvent(
    db,
    {
      orgId: ref.orgId,
      action: 'user.password_changed',
      actor: me,
      target: me,
      ip,
      details: { sessions_revoked: String(revoked) },
    },
    now,
  );
  return { password_changed: true, sessions_revoked: revoked };
}
