import type { Knex } from 'knex';

/**
 * E-mail, integrations, notification rules and tickets (issue 35, docs/integrations.md,
 * docs/email.md): self-service password resets (hashed one-time tokens), the digest opt-out
 * per person, an organization's integrations (Slack, Teams, GitHub, Jira: secrets sealed),
 * its notification rules, the notification outbox (one row per message or tracker call,
 * de-duplicated per organization, retried with backoff, `dead` after the last retry), the
 * tickets opened for findings, and the SLA breaches already announced (once per due date).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('password_resets', (t) => {
    t.text('id').primary();
    t.text('org_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.text('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('token_hash').notNullable().unique();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.index(['org_id', 'user_id']);
  });
  await knex.schema.alterTable('users', (t) => {
    t.boolean('email_digest').notNullable().defaultTo(true);
  });
  await knex.schema.createTable('integrations', (t) => {
    t.text('id').primary();
    t.text('org_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.text('type').notNullable();
    t.text('name').notNullable();
    /** The settings that are not secret (repository, api_url, base_url, project_key, …), as JSON. */
    t.text('config').notNullable();
    /** The secret settings (webhook_url, token, api_token) as JSON, sealed. */
    t.text('secrets').notNullable();
    /** The secret that signs the tracker's events to the receiver, sealed; null for chat. */
    t.text('receiver_secret');
    t.text('created_by').references('id').inTable('users').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['org_id', 'name']);
  });
  await knex.raw(
    "alter table integrations add constraint integrations_type_check check (type in ('slack', 'teams', 'github', 'jira', 'email'))",
  );
  await knex.schema.createTable('notification_rules', (t) => {
    t.text('id').primary();
    t.text('org_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.text('integration_id').notNullable().references('id').inTable('integrations').onDelete('CASCADE');
    t.specificType('events', 'text[]').notNullable();
    t.text('min_severity').notNullable();
    t.text('action').notNullable().defaultTo('message');
    t.text('created_by').references('id').inTable('users').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['org_id']);
  });
  await knex.raw(
    "alter table notification_rules add constraint notification_rules_action_check check (action in ('message', 'ticket'))",
  );
  await knex.raw(
    'alter table notification_rules add constraint notification_rules_severity_check ' +
      "check (min_severity in ('info', 'low', 'medium', 'high', 'critical'))",
  );
  await knex.schema.createTable('notification_messages', (t) => {
    t.text('id').primary();
    t.text('org_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.text('integration_id').references('id').inTable('integrations').onDelete('CASCADE');
    t.text('kind').notNullable();
    /** What makes the message one of a kind in its organization: never sent twice. */
    t.text('dedupe_key').notNullable();
    /** What to send, as JSON, sealed (an e-mail may carry a one-time link). */
    t.text('payload').notNullable();
    /** A short description for the console (event, subject), never a secret. */
    t.text('summary').notNullable();
    t.text('status').notNullable().defaultTo('pending');
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('next_attempt_at', { useTz: true });
    t.timestamp('locked_until', { useTz: true });
    t.integer('last_status_code');
    t.text('last_error');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['org_id', 'dedupe_key']);
    t.index(['status', 'next_attempt_at']);
    t.index(['org_id', 'created_at']);
  });
  await knex.raw(
    'alter table notification_messages add constraint notification_messages_status_check ' +
      "check (status in ('pending', 'succeeded', 'dead'))",
  );
  await knex.schema.createTable('finding_tickets', (t) => {
    t.text('org_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.text('finding_id').notNullable().references('id').inTable('findings').onDelete('CASCADE');
    t.text('integration_id').notNullable().references('id').inTable('integrations').onDelete('CASCADE');
    /** The tracker's name of it: `#12` (GitHub) or `SEC-12` (Jira). */
    t.text('key').notNullable();
    t.text('url').notNullable();
    /** The tracker's own id: the issue number (GitHub), the issue id (Jira). */
    t.text('external_id').notNullable();
    t.text('state').notNullable().defaultTo('open');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['finding_id', 'integration_id']);
    t.index(['integration_id', 'external_id']);
  });
  await knex.raw(
    "alter table finding_tickets add constraint finding_tickets_state_check check (state in ('open', 'closed'))",
  );
  await knex.schema.createTable('finding_sla_breaches', (t) => {
    t.text('org_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.text('finding_id').notNullable().references('id').inTable('findings').onDelete('CASCADE');
    t.timestamp('due_date', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['finding_id', 'due_date']);
  });
  // The notification reader of the outbox starts at what is already published, so an upgrade
  // does not announce the retained week of past events. A new database has no events and gets
  // no row (a missing row is position 0), so it stays empty for `scanward db copy`.
  await knex.raw(
    "insert into outbox_positions (name, position) select 'notifications', max(seq) from domain_events " +
      'having count(*) > 0 on conflict (name) do nothing',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex('outbox_positions').where({ name: 'notifications' }).delete();
  await knex.schema.dropTable('finding_sla_breaches');
  await knex.schema.dropTable('finding_tickets');
  await knex.schema.dropTable('notification_messages');
  await knex.schema.dropTable('notification_rules');
  await knex.schema.dropTable('integrations');
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('email_digest');
  });
  await knex.schema.dropTable('password_resets');
}
