import type { Db } from '../db/index.ts';
import type { HistoryRow } from './rows.ts';

/**
 * Typed queries over `finding_history` (row type in rows.ts). Every query takes
 * the organization id. Entries read back in creation order, ties by insertion
 * order (`seq`), so changes made in the same millisecond keep their order.
 */

declare module 'knex/types/tables.js' {
  interface Tables {
    finding_history: HistoryRow;
  }
}

const HISTORY_ORDER = [{ column: 'created_at' }, { column: 'seq' }];

/** The history of one of the organization's findings, oldest first. */
export async function selectHistoryOfFinding(
  db: Db,
  orgId: string,
  findingId: string,
): Promise<HistoryRow[]> {
  return db('finding_history').where({ org_id: orgId, finding_id: findingId }).orderBy(HISTORY_ORDER);
}

/** The history of several of the organization's findings, oldest first. */
export async function selectHistoryOfFindings(
  db: Db,
  orgId: string,
  findingIds: readonly string[],
): Promise<HistoryRow[]> {
  return db('finding_history')
    .where('org_id', orgId)
    .whereIn('finding_id', findingIds)
    .orderBy(HISTORY_ORDER);
}

/**
 * Appends history entries (status changes by people or by the system), in the order
 * given, in the caller's transaction. Every row is written as the organization's.
 */
export async function insertHistoryRows(db: Db, orgId: string, rows: readonly HistoryRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db('finding_history').insert(rows.map((row) => ({ ...row, org_id: orgId })));
}
