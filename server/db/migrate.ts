import type { Knex } from 'knex';
import { migrationSource } from '../../migrations/index.ts';

const config = { migrationSource, tableName: 'knex_migrations' } as const;

/** Brings the schema up to date; safe to run from several processes at once (knex locks). */
export async function migrateLatest(db: Knex): Promise<string[]> {
  const [, applied] = (await db.migrate.latest(config)) as [number, string[]];
  return applied;
}

export async function migrateRollbackAll(db: Knex): Promise<void> {
  await db.migrate.rollback(config, true);
}
