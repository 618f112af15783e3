import type { Knex } from 'knex';

/** Organizations, users, sessions, API keys, server settings and rate counters. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('settings', (t) => {
    t.text('key').primary();
    t.text('value').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('organizations', (t) => {
    t.text('id').primary();
    t.text('name').notNullable();
    t.text('plan').notNullable();
    // Per-organization overrides of the plan's limits: null = plan default, -1 = unlimited.
    t.integer('hourly_request_limit');
    t.integer('daily_request_limit');
    t.integer('monthly_scan_limit');
    t.integer('concurrent_scan_limit');
    t.integer('monthly_ai_credits');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(
    "alter table organizations add constraint organizations_plan_check check (plan in ('startup', 'professional', 'enterprise'))",
  );

  await knex.schema.createTable('users', (t) => {
    t.text('id').primary();
    t.text('org_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('email').notNullable();
    t.text('password_hash').notNullable();
    t.text('role').notNullable();
    t.boolean('mfa_enabled').notNullable().defaultTo(false);
    t.text('mfa_secret'); // encrypted at rest
    t.text('mfa_pending_secret'); // encrypted; set by setup, moved to mfa_secret by verify
    t.bigInteger('mfa_last_step'); // last accepted TOTP time step, so a code works once
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['org_id']);
  });
  await knex.raw("alter table users add constraint users_role_check check (role in ('admin', 'member'))");
  await knex.raw('create unique index users_email_unique on users (lower(email))');

  await knex.schema.createTable('sessions', (t) => {
    t.text('id').primary();
    t.text('org_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('ip_address');
    t.text('user_agent');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_used_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('revoked_at', { useTz: true });
    t.index(['user_id', 'revoked_at']);
  });

  await knex.schema.createTable('api_keys', (t) => {
    t.text('id').primary();
    t.text('org_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('prefix').notNullable();
    t.text('key_hash').notNullable().unique(); // SHA-256 of the whole key
    t.specificType('permissions', 'text[]').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true });
    t.timestamp('last_used_at', { useTz: true });
    t.timestamp('revoked_at', { useTz: true });
    t.index(['org_id', 'revoked_at']);
  });

  // Fixed-window counters shared by every server process: request rate per
  // organization (hour and day) and failed logins per e-mail and client address.
  await knex.schema.createTable('rate_counters', (t) => {
    t.text('bucket').notNullable();
    t.timestamp('window_start', { useTz: true }).notNullable();
    t.integer('count').notNullable().defaultTo(0);
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.primary(['bucket', 'window_start']);
    t.index(['expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['rate_counters', 'api_keys', 'sessions', 'users', 'organizations', 'settings']) {
    await knex.schema.dropTableIfExists(table);
  }
}
