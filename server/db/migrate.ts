import type { Knex } from 'knex';
import { migrationSource } from '../../migrations/index.ts';

/** Where knex records the migrations applied, and the lock table it keeps beside it. */
export const MIGRATION_TABLES = ['knex_migrations', 'knex_migrations_lock'] as const;

const config = { migrationSource, tableName: MIGRATION_TABLES[0] } as const;

/** An arbitrary constant naming the migration lock shared by every Scanward process. */
const MIGRATION_LOCK = 7_301_842_116;

/**
 * Whether the advisory lock can be taken: a PostgreSQL server (PGlite is opened
 * through a client class, PostgreSQL through the `pg` driver name) with a pool
 * of at least two connections (the lock holds one).
 */
function canQueueOnAdvisoryLock(db: Knex): boolean {
  const { client, pool } = (db.client as { config: { client?: unknown; pool?: { max?: number } } }).config;
  return typeof client === 'string' && (pool?.max ?? 10) >= 2;
}

/**
 * Brings the schema up to date and returns the names applied. Several processes
 * may start together on one PostgreSQL: knex's own lock makes a loser fail
 * rather than wait, so they first queue on an advisory lock held by a
 * transaction on one pooled connection while the migrations run on another.
 * PGlite has a single connection and a single process (the data-dir lock), so
 * it needs neither.
 */
export async function migrateLatest(db: Knex): Promise<string[]> {
  const run = async () => {
    const [, applied] = (await db.migrate.latest(config)) as [number, string[]];
    return applied;
  };
  if (!canQueueOnAdvisoryLock(db)) return run();
  return db.transaction(async (trx) => {
    await trx.raw('select pg_advisory_xact_lock(?)', [MIGRATION_LOCK]);
    return run();
  });
}

/** Undoes every migration (tests and the operator's clean slate). */
export async function migrateRollbackAll(db: Knex): Promise<void> {
  await db.migrate.rollback(config, true);
}
