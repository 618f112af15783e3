import type { Knex } from 'knex';
import type { Db } from '../db/index.ts';

/**
 * The `outbox_positions` table: the sequencer's last number (`sequence`) and each
 * durable outbox reader's position (`webhooks`, `notifications`). Not organization data: one row
 * per reader for the whole service. A missing row is position 0.
 */

export type OutboxPositionName = 'sequence' | 'webhooks' | 'notifications';

export interface OutboxPositionRow {
  name: OutboxPositionName;
  position: number;
}

declare module 'knex/types/tables.js' {
  interface Tables {
    outbox_positions: Knex.CompositeTableType<
      OutboxPositionRow,
      OutboxPositionRow,
      Partial<OutboxPositionRow>
    >;
  }
}

/** Locks the reader's position until the transaction ends (creating it at 0 first); answers it. */
export async function lockOutboxPosition(trx: Db, name: OutboxPositionName): Promise<number> {
  await trx('outbox_positions').insert({ name, position: 0 }).onConflict('name').ignore();
  const row = await trx('outbox_positions').where({ name }).forUpdate().first('position');
  return Number(row?.position ?? 0);
}

export async function saveOutboxPosition(trx: Db, name: OutboxPositionName, position: number): Promise<void> {
  await trx('outbox_positions').where({ name }).update({ position });
}

/** The reader's position without locking it (0 when it never moved). */
export async function outboxPosition(db: Db, name: OutboxPositionName): Promise<number> {
  const row = await db('outbox_positions').where({ name }).first('position');
  return Number(row?.position ?? 0);
}
