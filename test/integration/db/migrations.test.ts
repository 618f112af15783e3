import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../../migrations/index.ts';
import { openDatabase, type Database } from '../../../server/db/index.ts';
import { migrateLatest, migrateRollbackAll } from '../../../server/db/migrate.ts';
import { createTestDatabase, testEngine, type TestDatabase } from '../../helpers/database.ts';

/** knex's own bookkeeping, which stays when every migration is undone. */
const KNEX_TABLES = ['knex_migrations', 'knex_migrations_lock'];

/** Tables the first migration creates; later migrations add more. */
const IDENTITY_TABLES = ['api_keys', 'organizations', 'rate_counters', 'sessions', 'settings', 'users'];

describe('the migration list', () => {
  it('is ordered by timestamped, unique names', () => {
    const names = migrations.map(([name]) => name);
    for (const name of names) expect(name).toMatch(/^\d{14}_[a-z0-9_]+$/);
    expect([...names].sort()).toEqual(names);
    expect(new Set(names).size).toBe(names.length);
  });
});

/** One story on one database: up, down, then up again, each step reading what the one before left. */
describe(`migrations up, down and up again (${testEngine})`, () => {
  let testDb: TestDatabase;
  let database: Database;
  beforeAll(async () => {
    testDb = await createTestDatabase();
    database = await openDatabase({ databaseUrl: testDb.url, dataDir: 'memory://' });
  });
  afterAll(async () => {
    await database?.close();
    await testDb?.drop();
  });

  async function tables(): Promise<string[]> {
    const rows = (await database
      .db('information_schema.tables')
      .where({ table_schema: 'public', table_type: 'BASE TABLE' })
      .pluck('table_name')) as string[];
    return rows.sort();
  }

  it('creates every table on the way up, removes every one on the way down, and recreates the same on the way up again', async () => {
    // Up: every migration applied and recorded, once.
    const applied = await migrateLatest(database.db);
    expect(applied).toEqual(migrations.map(([name]) => name));
    const firstUp = await tables();
    expect(firstUp).toEqual(expect.arrayContaining([...IDENTITY_TABLES, ...KNEX_TABLES]));
    expect(await migrateLatest(database.db)).toEqual([]);

    // Down: only knex's bookkeeping is left, and it records nothing.
    await migrateRollbackAll(database.db);
    expect(await tables()).toEqual(KNEX_TABLES);
    expect(await database.db('knex_migrations').count<{ n: number }[]>('* as n')).toEqual([{ n: 0 }]);

    // Up again: the same tables as the first time.
    expect(await migrateLatest(database.db)).toEqual(migrations.map(([name]) => name));
    expect(await tables()).toEqual(firstUp);
  });
});
