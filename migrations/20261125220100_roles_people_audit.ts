import type { Knex } from 'knex';

/**
 * Roles, people and the audit trail (issue 22):
 * - `users.role` gains `viewer` (reads, changes nothing); existing users keep their role.
 * - `user_invites`: one-time set-password links an admin's invitation answers with;
 *   only the SHA-256 of the token is kept, with its expiry and when it was used.
 * - `audit_events`: who did what to whom in an organization (invitations, role
 *   changes, disabling, deleting, log-ins and failed log-ins). Actor and target
 *   keep their e-mail beside their id, so an event outlives a deleted user.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table users drop constraint users_role_check');
  await knex.raw(
    "alter table users add constraint users_role_check check (role in ('admin', 'member', 'viewer'))",
  );

  await knex.schema.createTable('user_invites', (t) => {
    t.text('id').primary();
    t.text('org_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('token_hash').notNullable().unique(); // SHA-256 of the token
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.index(['org_id', 'user_id']);
  });

  await knex.schema.createTable('audit_events', (t) => {
    t.text('id').primary();
    t.text('org_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('action').notNullable();
    // No foreign keys: an event names people who may since have been deleted.
    t.text('actor_id');
    t.text('actor_email');
    t.text('target_id');
    t.text('target_email');
    t.text('ip');
    t.jsonb('details').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['org_id', 'created_at', 'id']);
    t.index(['org_id', 'action', 'created_at']);
    t.index(['org_id', 'actor_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('audit_events');
  await knex.schema.dropTableIfExists('user_invites');
  await knex('users').where({ role: 'viewer' }).update({ role: 'member' });
  await knex.raw('alter table users drop constraint users_role_check');
  await knex.raw("alter table users add constraint users_role_check check (role in ('admin', 'member'))");
}
