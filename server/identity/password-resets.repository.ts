import type { Knex } from 'knex';
import type { Db } from '../db/index.ts';

/**
 * The `password_resets` table: self-service one-time reset links (docs/email.md). Only the
 * SHA-256 of a token is stored. Scoped by organization, except the look-up by the token's
 * hash, which is how the person following the link names their reset.
 */

export interface PasswordResetRow {
  id: string;
  org_id: string;
  user_id: string;
  token_hash: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

export type NewPasswordResetRow = Omit<PasswordResetRow, 'used_at'>;

declare module 'knex/types/tables.js' {
  interface Tables {
    password_resets: Knex.CompositeTableType<
      PasswordResetRow,
      NewPasswordResetRow,
      Partial<PasswordResetRow>
    >;
  }
}

export async function insertPasswordReset(db: Db, row: NewPasswordResetRow): Promise<void> {
  await db('password_resets').insert(row);
}

/**
 * Marks the unused, unexpired reset with this token hash used, in one statement (two
 * concurrent uses cannot both succeed); answers it, or undefined.
 */
export async function consumePasswordReset(
  db: Db,
  tokenHash: string,
  now: Date,
): Promise<PasswordResetRow | undefined> {
  const [row] = await db('password_resets')
    .where({ token_hash: tokenHash })
    .whereNull('used_at')
    .where('expires_at', '>', now)
    .update({ used_at: now })
    .returning('*');
  return row;
}

/** Spends every other open reset of the user (a reset done makes older links useless). */
export async function spendPasswordResetsOfUser(
  db: Db,
  orgId: string,
  userId: string,
  now: Date,
): Promise<void> {
  await db('password_resets')
    .where({ org_id: orgId, user_id: userId })
    .whereNull('used_at')
    .update({ used_at: now });
}
