import type { Knex } from 'knex';
import type { Db } from '../db/index.ts';
import type { HistoryRow } from './rows.ts';

/**
 * Typed queries over `finding_history` (row type in rows.ts). Every query takes
 * the organization id. Entries read back in creation order, ties by insertion
 * order (`seq`), so changes made in the same millisecond keep their order.
 */

// --- read side (findings-read)

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
 * The status changes people make (triage: PATCH, bulk update), written in the
 * transaction that changes the findings. Every row must be of the organization.
 */
export async function insertTriageHistory(
  trx: Knex.Transaction,
  orgId: string,
  rows: readonly HistoryRow[],
): Promise<void> {
  if (rows.length === 0) return;
  await trx('finding_history').insert(rows.map((row) => ({ ...row, org_id: orgId })));
}
