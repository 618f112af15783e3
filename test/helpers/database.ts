import { randomBytes } from 'node:crypto';
import knexFactory from 'knex';
import type { Db } from '../../server/db/index.ts';
import { databaseUrl, migratedPostgresTemplate } from './postgres-template.ts';

/**
 * The integration suite runs on PGlite by default and on PostgreSQL when
 * DATABASE_URL is set. On PostgreSQL each test app gets a database of its own,
 * created here and dropped afterwards, so files run in parallel without sharing rows.
 */
export const testEngine: 'pglite' | 'postgres' = process.env.DATABASE_URL ? 'postgres' : 'pglite';

export interface TestDatabase {
  /** Connection string of the fresh PostgreSQL database; undefined on PGlite (in memory). */
  url: string | undefined;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const base = process.env.DATABASE_URL;
  if (!base) return { url: undefined, drop: async () => undefined };
  return createPostgresDatabase(base);
}

/**
 * Like {@link createTestDatabase}, already migrated: on PostgreSQL a copy of the migrated
 * template (postgres-template.ts); on PGlite nothing to create (the app starts from the
 * migrated snapshot, pglite-snapshot.ts).
 */
export async function createMigratedTestDatabase(): Promise<TestDatabase> {
  const base = process.env.DATABASE_URL;
  if (!base) return { url: undefined, drop: async () => undefined };
  return createPostgresDatabase(base, await migratedPostgresTemplate(base));
}

/**
 * The PostgreSQL that tests needing one whatever the suite's engine use (the
 * copy from the embedded database) when DATABASE_URL is unset: CI always runs it.
 */
export const LOCAL_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * A fresh PostgreSQL database on the server of `base`, dropped by `drop()`: empty, or a copy of
 * `template` (the migrated one of postgres-template.ts, for an app that would migrate it anyway).
 */
export async function createPostgresDatabase(
  base: string = process.env.DATABASE_URL ?? LOCAL_POSTGRES_URL,
  template?: string,
): Promise<TestDatabase & { url: string }> {
  const name = `scanward_test_${randomBytes(6).toString('hex')}`;
  const admin = knexFactory({ client: 'pg', connection: base, pool: { min: 0, max: 1 } });
  await admin.raw(template ? `create database ${name} template ${template}` : `create database ${name}`);
  await admin.destroy();
  return {
    url: databaseUrl(base, name),
    drop: async () => {
      const conn = knexFactory({ client: 'pg', connection: base, pool: { min: 0, max: 1 } });
      await conn.raw(`drop database if exists ${name} with (force)`);
      await conn.destroy();
    },
  };
}

/**
 * Every row of the organization: each table with an `org_id` column (but those in
 * `except`), and its `organizations` row, as sorted JSON lines per table. Two
 * snapshots are equal when a test changed nothing of the organization's.
 */
export async function organizationRows(
  db: Db,
  orgId: string,
  except: readonly string[] = [],
): Promise<Record<string, string[]>> {
  const tables = (
    await db('information_schema.columns')
      .where({ column_name: 'org_id' })
      .whereRaw('table_schema = current_schema()')
      .select<{ table_name: string }[]>('table_name')
  )
    .map((t) => t.table_name)
    .filter((t) => !except.includes(t))
    .sort();
  const lines = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).sort();
  const out: Record<string, string[]> = {};
  for (const table of tables) {
    const rows = (await db(table).where({ org_id: orgId })) as Record<string, unknown>[];
    // The outbox's sequencer numbers committed events in the background (server/events/): an
    // event's `seq` is the service's bookkeeping, not the organization's data.
    out[table] = lines(table === 'domain_events' ? rows.map(({ seq: _seq, ...event }) => event) : rows);
  }
  out.organizations = lines(await db('organizations').where({ id: orgId }));
  return out;
}
