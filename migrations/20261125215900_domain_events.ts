import type { Knex } from 'knex';

/**
 * The domain-event outbox (docs/events.md). The scan and finding lifecycles append a row
 * to `domain_events` in the transaction of the change it reports; readers (webhook
 * fan-out, the event stream, timers) read it by `seq`.
 *
 * - `id` is the append order (a sequence, so the events of one transaction keep theirs).
 * - `seq` is the published position, null until the sequencer numbers the row after it
 *   committed: sequence numbers are handed out in commit order, so a reader that has
 *   seen `seq` N never later finds an event below N (ids alone would not promise that
 *   on PostgreSQL, where a transaction that took a lower id may commit later).
 * - `outbox_positions` holds the sequencer's last number (`sequence`) and each durable
 *   reader's position (`webhooks`); a missing row means 0.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('domain_events', (t) => {
    t.bigIncrements('id').primary();
    t.bigInteger('seq').unique();
    t.text('org_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('type').notNullable();
    t.text('subject_id');
    t.text('payload').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // The stream reads an organization's events after a position.
    t.index(['org_id', 'seq']);
  });
  // The sequencer's work list: the rows not numbered yet.
  await knex.raw('create index domain_events_unsequenced on domain_events (id) where seq is null');

  await knex.schema.createTable('outbox_positions', (t) => {
    t.text('name').primary();
    t.bigInteger('position').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('outbox_positions');
  await knex.schema.dropTableIfExists('domain_events');
}
