import type { Knex } from 'knex';

/**
 * One recorder for every source of results (issue 32, docs/finding-lifecycle.md "Sources"):
 *
 * - `finding_sources`: a finding's observation per source (Scanward's own scans, or one tool's
 *   imports), with what that source saw (severity, score, vector, evidence, proof or version
 *   match) and whether it still reports it. The finding's headline comes from the strongest.
 *   Existing findings get one source each, from the scan that last saw them.
 * - `asset_services`: where the product and version came from and how specific they are, so a
 *   vaguer fact never replaces a more specific one (docs/assets.md), and the CPE.
 * - `scans`: what a person needs to recognise an import (the report's file name, the CI run).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('finding_sources', (t) => {
    t.text('finding_id').notNullable().references('findings.id').onDelete('CASCADE');
    t.text('org_id').notNullable().references('organizations.id').onDelete('CASCADE');
    /** `scan` (Scanward's engine) or `import:<tool>`. */
    t.text('source_key').notNullable();
    t.text('kind').notNullable();
    t.text('tool').notNullable();
    t.text('first_scan_id');
    t.text('last_scan_id');
    t.timestamp('first_seen_at', { useTz: true }).notNullable();
    t.timestamp('last_seen_at', { useTz: true }).notNullable();
    t.text('severity').notNullable();
    t.float('cvss_score', 53).notNullable().defaultTo(0);
    t.text('cvss_vector');
    t.text('title').notNullable().defaultTo('');
    t.text('description').notNullable().defaultTo('');
    t.jsonb('evidence').notNullable();
    t.text('established').notNullable();
    t.text('status').notNullable().defaultTo('active');
    t.timestamp('resolved_at', { useTz: true });
    t.primary(['finding_id', 'source_key']);
    t.index(['org_id', 'source_key', 'status']);
  });
  await knex.raw(
    "alter table finding_sources add constraint finding_sources_kind_check check (kind in ('scan', 'import'))",
  );
  await knex.raw(
    "alter table finding_sources add constraint finding_sources_status_check check (status in ('active', 'resolved'))",
  );
  await knex.raw(
    "alter table finding_sources add constraint finding_sources_established_check check (established in ('confirmed', 'inferred from version'))",
  );
  await knex.raw(`
    insert into finding_sources (finding_id, org_id, source_key, kind, tool, first_scan_id, last_scan_id,
      first_seen_at, last_seen_at, severity, cvss_score, cvss_vector, title, description, evidence, established,
      status, resolved_at)
    select f.id, f.org_id,
      case when s.source = 'import' then 'import:' || coalesce(s.tool, f.tool) else 'scan' end,
      case when s.source = 'import' then 'import' else 'scan' end,
      f.tool, f.scan_id, f.last_scan_id, f.detected_at, f.last_seen_at, f.severity, f.cvss_score, f.cvss_vector,
      f.title, f.description, f.evidence,
      case when f.evidence->>'established' = 'inferred from version' then 'inferred from version' else 'confirmed' end,
      case when f.status = 'resolved' then 'resolved' else 'active' end,
      f.resolved_at
    from findings f left join scans s on s.id = f.last_scan_id and s.org_id = f.org_id`);

  await knex.schema.alterTable('asset_services', (t) => {
    t.text('cpe');
    /** Who said what the product and version are: `scan`, `import:nmap`, … */
    t.text('fact_source');
    /** 0 nothing, 1 a service name, 2 a product, 3 a product and version. */
    t.smallint('fact_specificity').notNullable().defaultTo(0);
  });
  await knex.raw(`update asset_services set fact_source = 'scan',
    fact_specificity = case when version is not null and product is not null then 3 when product is not null then 2
      when service <> 'unknown' then 1 else 0 end`);

  await knex.schema.alterTable('scans', (t) => {
    /** An import's report file name, as uploaded. */
    t.text('report_name');
    /** A local engine run's CI run (a URL or the run's name), as scanward-ci or the Action said. */
    t.text('ci_run');
    /** How many results an import read from its report. */
    t.integer('results_read');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('scans', (t) => {
    t.dropColumn('results_read');
    t.dropColumn('ci_run');
    t.dropColumn('report_name');
  });
  await knex.schema.alterTable('asset_services', (t) => {
    t.dropColumn('fact_specificity');
    t.dropColumn('fact_source');
    t.dropColumn('cpe');
  });
  await knex.schema.dropTableIfExists('finding_sources');
}
