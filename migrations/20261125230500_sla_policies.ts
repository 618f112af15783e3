import type { Knex } from 'knex';

/**
 * Per-organization SLA policy (docs/finding-lifecycle.md, "Due dates and SLAs"): days from
 * detection to the due date by severity; no row means the defaults (7, 30, 90, 180). The
 * overdue filter reads findings by (org_id, due_date).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sla_policies', (t) => {
    t.text('org_id').primary().references('organizations.id').onDelete('CASCADE');
    t.integer('critical_days').notNullable();
    t.integer('high_days').notNullable();
    t.integer('medium_days').notNullable();
    t.integer('low_days').notNullable();
    t.text('updated_by');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.alterTable('findings', (t) => {
    t.index(['org_id', 'due_date'], 'findings_org_due_date');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('findings', (t) => {
    t.dropIndex(['org_id', 'due_date'], 'findings_org_due_date');
  });
  await knex.schema.dropTableIfExists('sla_policies');
}
