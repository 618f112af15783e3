import type { Knex } from 'knex';
import type { Db } from './index.ts';

/**
 * Statements about the database session itself rather than any table: whether the
 * database answers, and transaction-scoped advisory locks.
 */

/** Whether the database answers `select 1` within `timeoutMs`. */
export async function databaseAnswers(db: Db, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
  });
  try {
    await Promise.race([db.raw('select 1'), timeout]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Waits for the advisory lock `key` and holds it until the transaction ends, so
 * processes sharing one PostgreSQL serialise on it.
 */
export async function advisoryTransactionLock(trx: Knex.Transaction, key: number): Promise<void> {
  await trx.raw('select pg_advisory_xact_lock(?)', [key]);
}
