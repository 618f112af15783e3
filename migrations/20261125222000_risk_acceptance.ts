import type { Knex } from 'knex';

/**
 * Risk acceptance (docs/finding-lifecycle.md, "Accepting a risk"): a finding moved to
 * `accepted` or `false_positive` carries the person's justification, who gave it and when;
 * an acceptance may expire (`acceptance_expires_at`), after which the finding reopens by
 * itself. Each status change's history entry keeps the justification given with it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('findings', (t) => {
    t.text('justification');
    t.text('justified_by');
    t.timestamp('justified_at', { useTz: true });
    t.timestamp('acceptance_expires_at', { useTz: true });
  });
  // The expiry timer's work list: accepted findings with an expiry, soonest first.
  await knex.raw(
    "create index findings_acceptance_expiry on findings (acceptance_expires_at) where status = 'accepted' and acceptance_expires_at is not null",
  );
  await knex.schema.alterTable('finding_history', (t) => {
    t.text('justification');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('finding_history', (t) => {
    t.dropColumn('justification');
  });
  await knex.raw('drop index if exists findings_acceptance_expiry');
  await knex.schema.alterTable('findings', (t) => {
    t.dropColumn('acceptance_expires_at');
    t.dropColumn('justified_at');
    t.dropColumn('justified_by');
    t.dropColumn('justification');
  });
}
