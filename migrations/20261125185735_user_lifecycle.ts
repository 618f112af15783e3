import type { Knex } from 'knex';

/**
 * Users can be disabled (`users.disabled_at`: no log-in, no token, session or key of
 * theirs answers), and MFA has single-use recovery codes (`mfa_recovery_codes`,
 * SHA-256 of each code, deleted with the user).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.timestamp('disabled_at', { useTz: true });
    // The active admins of an organization (the last one cannot be disabled or deleted).
    t.index(['org_id', 'role', 'disabled_at']);
  });

  await knex.schema.createTable('mfa_recovery_codes', (t) => {
    t.text('id').primary();
    t.text('org_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('code_hash').notNullable(); // SHA-256 of the normalised code
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('used_at', { useTz: true });
    t.unique(['user_id', 'code_hash']);
    t.index(['user_id', 'used_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('mfa_recovery_codes');
  await knex.schema.alterTable('users', (t) => {
    t.dropIndex(['org_id', 'role', 'disabled_at']);
    t.dropColumn('disabled_at');
  });
}
