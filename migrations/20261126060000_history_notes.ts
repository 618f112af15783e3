import type { Knex } from 'knex';

/**
 * Triage notes in the history (docs/finding-lifecycle.md, "Notes"): each history entry keeps
 * the note sent with that change, so a note is shown where it was given and a later change
 * without one does not appear to carry it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('finding_history', (t) => {
    t.text('note');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('finding_history', (t) => {
    t.dropColumn('note');
  });
}
