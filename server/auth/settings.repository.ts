import type { Knex } from 'knex';
import type { Db } from '../db/index.ts';

/** The `settings` table: server-wide values kept in the database (generated secrets), by key. */

export interface SettingRow {
  key: string;
  value: string;
  created_at: Date;
}

declare module 'knex/types/tables.js' {
  interface Tables {
    settings: Knex.CompositeTableType<
      SettingRow,
      Pick<SettingRow, 'key' | 'value'>,
      Pick<SettingRow, 'value'>
    >;
  }
}

/** Stores the value unless the key has one already (the first writer wins, race-free). */
export async function insertSettingUnlessPresent(db: Db, key: string, value: string): Promise<void> {
  await db('settings').insert({ key, value }).onConflict('key').ignore();
}

export async function findSetting(db: Db, key: string): Promise<string | undefined> {
  const row = await db('settings').where({ key }).first('value');
  return row?.value;
}
