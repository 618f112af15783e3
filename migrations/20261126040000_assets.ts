import type { Knex } from 'knex';

/**
 * The asset inventory (docs/assets.md): one row per host address an organization's completed
 * scans and imports saw, the names it was scanned as, and its services (port, protocol,
 * product, version, TLS, end-of-life state). A finding names its asset (`findings.asset_id`),
 * so the list filters by it and groups by it, and an asset's open findings are counted from it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('assets', (t) => {
    t.text('id').primary();
    t.text('org_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('address').notNullable();
    t.specificType('names', 'text[]').notNullable().defaultTo('{}');
    t.timestamp('first_seen_at', { useTz: true }).notNullable();
    t.timestamp('last_seen_at', { useTz: true }).notNullable();
    t.text('last_scan_id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['org_id', 'address']);
    t.index(['org_id', 'last_seen_at', 'id']);
  });
  // The `q` filter: an address prefix, or a name.
  await knex.raw('create index assets_org_address_prefix_idx on assets (org_id, address text_pattern_ops)');
  await knex.raw('create index assets_names_idx on assets using gin (names)');

  await knex.schema.createTable('asset_services', (t) => {
    t.text('asset_id').notNullable().references('assets.id').onDelete('CASCADE');
    t.text('org_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('protocol').notNullable();
    t.integer('port').notNullable();
    t.text('service').notNullable();
    t.text('product');
    t.text('version');
    t.boolean('tls').notNullable().defaultTo(false);
    t.text('eol_status').notNullable().defaultTo('unknown');
    t.text('eol_product');
    t.text('eol_cycle');
    t.text('eol_date');
    t.timestamp('first_seen_at', { useTz: true }).notNullable();
    t.timestamp('last_seen_at', { useTz: true }).notNullable();
    t.text('last_scan_id');
    t.primary(['asset_id', 'protocol', 'port']);
    t.index(['org_id', 'eol_status', 'asset_id']);
  });
  await knex.raw(
    "alter table asset_services add constraint asset_services_protocol_check check (protocol in ('tcp', 'udp'))",
  );
  await knex.raw(
    "alter table asset_services add constraint asset_services_eol_status_check check (eol_status in ('end_of_life', 'supported', 'unknown'))",
  );

  await knex.schema.alterTable('findings', (t) => {
    t.text('asset_id').references('assets.id').onDelete('SET NULL');
    t.index(['org_id', 'asset_id', 'status'], 'findings_org_asset_status');
    // The list's `template_id` filter (a group by check, drilled into).
    t.index(['org_id', 'template_id'], 'findings_org_template');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('findings', (t) => {
    t.dropIndex(['org_id', 'template_id'], 'findings_org_template');
    t.dropIndex(['org_id', 'asset_id', 'status'], 'findings_org_asset_status');
    t.dropForeign(['asset_id']);
    t.dropColumn('asset_id');
  });
  await knex.schema.dropTableIfExists('asset_services');
  await knex.schema.dropTableIfExists('assets');
}
