import type { Knex } from 'knex';

/**
 * Single sign-on (issue 22, item 4): an organization's admins may switch local password
 * log-in off, so its people sign in only through the OpenID Connect provider
 * (docs/authentication.md, "Single sign-on"). On by default: existing organizations keep
 * signing in as they do.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('organizations', (t) => {
    t.boolean('password_login').notNullable().defaultTo(true);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('organizations', (t) => {
    t.dropColumn('password_login');
  });
}
