import type { Knex } from 'knex';

/**
 * Scans: where a scan's results came from. `source` is `scan` (Scanward's engine ran it)
 * or `import` (another tool's report, POST /api/v1/imports); `tool` names the tool that
 * produced an imported report (`nuclei`, `zap`, `nmap`, `openvas`, `scanward`), null for
 * the engine's own scans. The lifecycle uses the pair (tool, target) to resolve what a
 * later import of the same tool no longer reports (docs/imports.md).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('scans', (t) => {
    t.text('source').notNullable().defaultTo('scan');
    t.text('tool');
  });
  await knex.raw(`alter table scans add constraint scans_source_check check (source in ('scan', 'import'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table scans drop constraint scans_source_check');
  await knex.schema.alterTable('scans', (t) => {
    t.dropColumn('source');
    t.dropColumn('tool');
  });
}
