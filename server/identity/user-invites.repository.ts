import type { Knex } from 'knex';
import type { Db } from '../db/index.ts';

/**
 * The `user_invites` table: one-time set-password links. Only the SHA-256 of a
 * token is stored. Scoped by organization, except the look-up by the token's hash,
 * which is how the person following the link names their invitation.
 */

export interface UserInviteRow {
  id: string;
  org_id: string;
  /** Null for an invitation of an address that has an account in another organization (no user made). */
  user_id: string | null;
  /** Such an invitation's address, role and the user id its answer showed; null otherwise. */
  email: string | null;
  role: string | null;
  invitee_id: string | null;
  /** Set while such an invitation is disabled, as a user's `disabled_at`. */
  disabled_at: Date | null;
  token_hash: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

type OptionalInviteColumns = 'created_at' | 'used_at' | 'email' | 'role' | 'invitee_id' | 'disabled_at';

export type NewUserInviteRow = Omit<UserInviteRow, OptionalInviteColumns> &
  Partial<Pick<UserInviteRow, OptionalInviteColumns>>;

declare module 'knex/types/tables.js' {
  interface Tables {
    user_invites: Knex.CompositeTableType<UserInviteRow, NewUserInviteRow, Partial<UserInviteRow>>;
  }
}

export async function insertUserInvite(db: Db, row: NewUserInviteRow): Promise<void> {
  await db('user_invites').insert(row);
}

/**
 * Marks the unused, unexpired invitation with this token hash used, in one
 * statement (two concurrent uses cannot both succeed); answers it, or undefined.
 */
export async function consumeUserInvite(
  db: Db,
  tokenHash: string,
  now: Date,
): Promise<UserInviteRow | undefined> {
  const [row] = await db('user_invites')
    .where({ token_hash: tokenHash })
    .whereNull('used_at')
    .where('expires_at', '>', now)
    .update({ used_at: now })
    .returning('*');
  return row;
}

/*
 * Invitations kept without a user (an address with an account in another organization): one of
 * the organization's people until deleted, named by the id their invitation's answer showed
 * (`invitee_id`), so they are listed, looked up, changed and deleted like an invited user who
 * has not accepted yet. An ordinary invited user stays a person after their link expires, so
 * these do too: only an unused one counts, expired or not.
 */

/** An organization's invitations kept without a user that nobody used. */
export function invitationsWithoutUser(db: Db, orgId: string) {
  return db('user_invites').where({ org_id: orgId }).whereNull('user_id').whereNull('used_at');
}

/** Whether the organization has an unused invitation of this address kept without a user (any case). */
export async function hasInviteWithoutUser(db: Db, orgId: string, email: string): Promise<boolean> {
  const row = await invitationsWithoutUser(db, orgId)
    .whereRaw('lower(email) = lower(?)', [email])
    .first('id');
  return row !== undefined;
}

/** The unused invitation kept without a user whose answer showed this id. */
export async function findInviteWithoutUser(
  db: Db,
  orgId: string,
  inviteeId: string,
): Promise<UserInviteRow | undefined> {
  return invitationsWithoutUser(db, orgId).where({ invitee_id: inviteeId }).first();
}

export async function setInviteWithoutUserRole(
  db: Db,
  orgId: string,
  inviteeId: string,
  role: string,
): Promise<void> {
  await invitationsWithoutUser(db, orgId).where({ invitee_id: inviteeId }).update({ role });
}

/** Sets or clears `disabled_at`; a disabled invitation keeps the moment it was first disabled. */
export async function setInviteWithoutUserDisabled(
  db: Db,
  orgId: string,
  inviteeId: string,
  disabled: boolean,
  now: Date,
): Promise<void> {
  const query = invitationsWithoutUser(db, orgId).where({ invitee_id: inviteeId });
  if (disabled) void query.whereNull('disabled_at');
  await query.update({ disabled_at: disabled ? now : null });
}

export async function deleteInviteWithoutUser(db: Db, orgId: string, inviteeId: string): Promise<void> {
  await invitationsWithoutUser(db, orgId).where({ invitee_id: inviteeId }).delete();
}
