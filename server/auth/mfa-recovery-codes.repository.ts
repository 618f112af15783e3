import type { Knex } from 'knex';
import type { Db } from '../db/index.ts';

/**
 * The `mfa_recovery_codes` table: a user's single-use MFA recovery codes, each
 * stored as the SHA-256 of the normalised code. Every query is scoped by
 * organization and user.
 */

export interface MfaRecoveryCodeRow {
  id: string;
  org_id: string;
  user_id: string;
  code_hash: string;
  created_at: Date;
  /** When the code was spent; null while it can still be used. */
  used_at: Date | null;
}

export type NewMfaRecoveryCodeRow = Pick<MfaRecoveryCodeRow, 'id' | 'org_id' | 'user_id' | 'code_hash'> &
  Partial<Pick<MfaRecoveryCodeRow, 'created_at' | 'used_at'>>;

declare module 'knex/types/tables.js' {
  interface Tables {
    mfa_recovery_codes: Knex.CompositeTableType<
      MfaRecoveryCodeRow,
      NewMfaRecoveryCodeRow,
      Partial<MfaRecoveryCodeRow>
    >;
  }
}

/** Deletes every recovery code of the user; returns how many. */
export async function deleteRecoveryCodes(db: Db, orgId: string, userId: string): Promise<number> {
  return db('mfa_recovery_codes').where({ org_id: orgId, user_id: userId }).delete();
}

/** Replaces the user's recovery codes with these (use a transaction: delete and insert go together). */
export async function replaceRecoveryCodes(
  trx: Db,
  orgId: string,
  userId: string,
  rows: NewMfaRecoveryCodeRow[],
): Promise<void> {
  await deleteRecoveryCodes(trx, orgId, userId);
  await trx('mfa_recovery_codes').insert(rows);
}

/**
 * Spends the user's unused code with this hash: one conditional UPDATE, so two
 * concurrent requests cannot both use one code. Answers whether it was spent.
 */
export async function spendRecoveryCode(
  db: Db,
  orgId: string,
  userId: string,
  codeHash: string,
  now: Date,
): Promise<boolean> {
  const updated = await db('mfa_recovery_codes')
    .where({ org_id: orgId, user_id: userId, code_hash: codeHash })
    .whereNull('used_at')
    .update({ used_at: now });
  return updated > 0;
}

/** How many of the user's recovery codes are still unused. */
export async function countUnusedRecoveryCodes(db: Db, orgId: string, userId: string): Promise<number> {
  const [row] = await db('mfa_recovery_codes')
    .where({ org_id: orgId, user_id: userId })
    .whereNull('used_at')
    .select<{ total: number }[]>(db.raw('count(*)::int as total'));
  return row?.total ?? 0;
}
