import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../server/db/index.ts';
import { createTestDatabase, testEngine, type TestDatabase } from '../../helpers/database.ts';

describe(`database engine (${testEngine})`, () => {
  let target: TestDatabase;
  let database: Database;
  beforeAll(async () => {
    target = await createTestDatabase();
    database = await openDatabase({ databaseUrl: target.url, dataDir: 'memory://' });
    await database.db.raw(
      'create table engine_probe (id int, tags text[], doc jsonb, score double precision)',
    );
  });
  afterAll(async () => {
    await database?.close();
    await target?.drop();
  });

  it('answers the number of rows a delete or an update touched', async () => {
    const { db } = database;
    await db('engine_probe').insert([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect(await db('engine_probe').where({ id: 9 }).delete()).toBe(0);
    expect(await db('engine_probe').where('id', '<', 3).delete()).toBe(2);
    expect(await db('engine_probe').where({ id: 3 }).update({ id: 4 })).toBe(1);
  });

  it('round-trips arrays, JSON, doubles and counts with the same JavaScript types', async () => {
    const { db } = database;
    await db('engine_probe').insert({
      id: 10,
      tags: ['a', 'b,c'],
      doc: JSON.stringify({ k: [1] }),
      score: 9.8,
    });
    const row = (await db('engine_probe').where({ id: 10 }).first()) as Record<string, unknown>;
    expect(row).toEqual({ id: 10, tags: ['a', 'b,c'], doc: { k: [1] }, score: 9.8 });
    const [{ n }] = (await db('engine_probe').select(db.raw('count(*)::int as n'))) as [{ n: number }];
    expect(typeof n).toBe('number');
  });
});
