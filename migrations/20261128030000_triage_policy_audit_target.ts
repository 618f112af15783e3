import type { Knex } from 'knex';

/**
 * The triage policy's justification switch (docs/finding-lifecycle.md, "Accepting a risk"):
 * an organization may require a justification for `accepted` and `false_positive`. It lives
 * beside the due-date days, in `sla_policies` (Settings → Triage policy); off by default, as the
 * interface spec makes every field of a finding update optional. And an index for the audit
 * trail's new target filter.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sla_policies', (t) => {
    t.boolean('require_justification').notNullable().defaultTo(false);
  });
  // The audit trail's target filter (`GET /api/v1/audit-events?target=`: a finding, key, webhook or user).
  await knex.schema.alterTable('audit_events', (t) => {
    t.index(['org_id', 'target_id', 'created_at'], 'audit_events_org_target');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('audit_events', (t) => {
    t.dropIndex(['org_id', 'target_id', 'created_at'], 'audit_events_org_target');
  });
  await knex.schema.alterTable('sla_policies', (t) => {
    t.dropColumn('require_justification');
  });
}
