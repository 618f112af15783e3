import type { Knex } from 'knex';

/**
 * Web application testing (issue 33, docs/web-testing.md): the `web` options of a scan and of
 * a schedule (whether attack checks run, how the scanner signs in, the paths it never
 * requests). JSON, with the secrets in it (the form's password, every header value) sealed
 * like webhook secrets (`v1.<iv>.<tag>.<ciphertext>`, server/scans/web-options.ts). Null: the
 * scan was created without web options.
 */
const TABLES = ['scans', 'scan_schedules'] as const;

export async function up(knex: Knex): Promise<void> {
  for (const table of TABLES) {
    await knex.schema.alterTable(table, (t) => {
      t.jsonb('web');
    });
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of TABLES) {
    await knex.schema.alterTable(table, (t) => {
      t.dropColumn('web');
    });
  }
}
