import type { Knex } from 'knex';
import type { Db } from '../db/index.ts';

/**
 * The `rate_counters` table: fixed-window counters shared by every server process,
 * keyed by bucket (an organization's request rate, failed logins per e-mail or
 * address) and window start.
 */

export interface RateCounterRow {
  bucket: string;
  window_start: Date;
  count: number;
  /** When the counter may be swept: its window's end plus any retention. */
  expires_at: Date;
}

declare module 'knex/types/tables.js' {
  interface Tables {
    rate_counters: Knex.CompositeTableType<RateCounterRow, RateCounterRow, Partial<RateCounterRow>>;
  }
}

/**
 * Adds each row's `count` to its counter (created when missing) in one statement and
 * returns the new counts. The upsert is atomic in PostgreSQL, so any number of
 * processes sharing the database count one limit.
 */
export async function addToCounters(
  db: Db,
  rows: RateCounterRow[],
): Promise<Pick<RateCounterRow, 'bucket' | 'window_start' | 'count'>[]> {
  return db('rate_counters')
    .insert(rows)
    .onConflict(['bucket', 'window_start'])
    .merge({ count: db.raw('rate_counters.count + excluded.count') })
    .returning(['bucket', 'window_start', 'count']);
}

/**
 * Creates the counters that are missing (with the rows' counts) and locks every one of
 * them until the transaction ends, answering their counts: an upsert that changes
 * nothing still takes the row lock, so concurrent reservations of one bucket queue
 * here. Lock in a consistent order (the rows' order) to never deadlock.
 */
export async function lockCounters(
  trx: Db,
  rows: RateCounterRow[],
): Promise<Pick<RateCounterRow, 'bucket' | 'count'>[]> {
  return trx('rate_counters')
    .insert(rows)
    .onConflict(['bucket', 'window_start'])
    .merge({ count: trx.raw('rate_counters.count') })
    .returning(['bucket', 'count']);
}

/**
 * Takes one from each of these counters that is above zero (a reservation given back), one
 * counter at a time, in the keys' order. One statement for all of them locked the rows in the
 * table's order while it waited for the next, and a reservation holds them in bucket order
 * (`lockCounters`): concurrent log-ins met in a deadlock (40P01) and one answered 500.
 */
export async function takeFromCounters(
  db: Db,
  keys: Pick<RateCounterRow, 'bucket' | 'window_start'>[],
): Promise<void> {
  for (const key of keys) {
    await db('rate_counters')
      .where({ bucket: key.bucket, window_start: key.window_start })
      .where('count', '>', 0)
      .decrement('count', 1);
  }
}

/** The counters of these (bucket, window start) pairs that exist. */
export async function findCounters(
  db: Db,
  keys: Pick<RateCounterRow, 'bucket' | 'window_start'>[],
): Promise<Pick<RateCounterRow, 'bucket' | 'count'>[]> {
  return db('rate_counters')
    .whereIn(
      ['bucket', 'window_start'],
      keys.map((k) => [k.bucket, k.window_start]),
    )
    .select('bucket', 'count');
}

/** Drops counters that expired before `now`; returns how many. */
export async function deleteExpiredCounters(db: Db, now: Date): Promise<number> {
  return db('rate_counters').where('expires_at', '<', now).delete();
}
