import type { Db } from '../db/index.ts';
import type { HistoryRow } from './rows.ts';

// --- written by the scan lifecycle

declare module 'knex/types/tables.js' {
  interface Tables {
    finding_history: HistoryRow;
  }
}

/** Appends history entries (status changes), in the order given. */
export async function insertHistoryRows(db: Db, rows: readonly HistoryRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db('finding_history').insert([...rows]);
}
