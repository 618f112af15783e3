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
  token_hash: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

export type NewUserInviteRow = Omit<
  UserInviteRow,
  'created_at' | 'used_at' | 'email' | 'role' | 'invitee_id'
> &
  Partial<Pick<UserInviteRow, 'created_at' | 'used_at' | 'email' | 'role' | 'invitee_id'>>;

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

/** Whether the organization has an unused, unexpired invitation of this address kept without a user. */
export async function hasPendingInviteWithoutUser(
  db: Db,
  orgId: string,
  email: string,
  now: Date,
): Promise<boolean> {
  const row = await db('user_invites')
    .where({ org_id: orgId })
    .whereNull('user_id')
    .whereRaw('lower(email) = lower(?)', [email])
    .whereNull('used_at')
    .where('expires_at', '>', now)
    .first('id');
  return row !== undefined;
}
