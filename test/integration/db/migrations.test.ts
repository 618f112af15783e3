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

// In file order: up, down, then up again are steps of one story on one database.
describe(`migrations up, down and up again (${testEngine})`, { shuffle: false }, () => {
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

  let firstUp: string[];

  it('creates every table on the way up and records every migration', async () => {
    const applied = await migrateLatest(database.db);
    expect(applied).toEqual(migrations.map(([name]) => name));
    firstUp = await tables();
    expect(firstUp).toEqual(expect.arrayContaining([...IDENTITY_TABLES, ...KNEX_TABLES]));
    expect(await migrateLatest(database.db)).toEqual([]);
  });

  it('removes every table on the way down', async () => {
    await migrateRollbackAll(database.db);
    expect(await tables()).toEqual(KNEX_TABLES);
    expect(await database.db('knex_migrations').count<{ n: number }[]>('* as n')).toEqual([{ n: 0 }]);
  });

  it('recreates the same tables on the way up again', async () => {
    expect(await migrateLatest(database.db)).toEqual(migrations.map(([name]) => name));
    expect(await tables()).toEqual(firstUp);
  });
});
