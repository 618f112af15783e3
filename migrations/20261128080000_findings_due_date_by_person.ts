import type { Knex } from 'knex';

/**
 * Whether a finding's due date is a person's (docs/finding-lifecycle.md, "Due dates and
 * SLAs"): `PATCH` with `due_date` sets it; an SLA change applied to open findings
 * (`apply_to_open`) moves only the dates that are still the policy's. Existing rows count as
 * a person's when their date is not detection plus the organization's days for their
 * severity (its policy, or the defaults 7/30/90/180 without one).
 *
 * Also an index for the list's `resolved_from`/`resolved_to` filters (docs/findings-search.md),
 * which the overview's weekly "resolved" bars link with.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('findings', (t) => {
    t.boolean('due_date_by_person').notNullable().defaultTo(false);
  });
  await knex.raw(`
    update findings set due_date_by_person = true
    where due_date is not null
      and due_date is distinct from detected_at + interval '1 hour' * 24 * (
        select case findings.severity
          when 'critical' then coalesce(p.critical_days, 7)
          when 'high' then coalesce(p.high_days, 30)
          when 'medium' then coalesce(p.medium_days, 90)
          when 'low' then coalesce(p.low_days, 180)
        end
        from (select 1) as one
        left join sla_policies p on p.org_id = findings.org_id
      )`);
  await knex.raw('create index findings_org_resolved_at_idx on findings (org_id, resolved_at)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists findings_org_resolved_at_idx');
  await knex.schema.alterTable('findings', (t) => {
    t.dropColumn('due_date_by_person');
  });
}
