import type { Knex } from 'knex';

/**
 * Scans and schedules carry their credential policy (`credential_checks`): `defaults`
 * lets the scan try the short fixed list of vendor-default and empty credentials,
 * `none` sends no login attempt. Existing quick scans and schedules get `none`, the
 * default of their type; the others `defaults`.
 */
const TABLES = ['scans', 'scan_schedules'] as const;

export async function up(knex: Knex): Promise<void> {
  for (const table of TABLES) {
    await knex.schema.alterTable(table, (t) => {
      t.text('credential_checks').notNullable().defaultTo('defaults');
    });
    await knex(table).where({ scan_type: 'quick' }).update({ credential_checks: 'none' });
    await knex.raw(
      `alter table ${table} add constraint ${table}_credential_checks_check check (credential_checks in ('defaults', 'none'))`,
    );
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of TABLES) {
    await knex.raw(`alter table ${table} drop constraint if exists ${table}_credential_checks_check`);
    await knex.schema.alterTable(table, (t) => {
      t.dropColumn('credential_checks');
    });
  }
}
