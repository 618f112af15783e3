import type { Knex } from 'knex';

/**
 * Single sign-on per organization (issue 31, item 3; docs/authentication.md, "Single
 * sign-on"): an organization turns SSO on for itself and lists its e-mail domains, and may
 * trust the provider's MFA; a user is bound to the provider's `iss` + `sub` at their first SSO
 * sign-in, and matched by that afterwards, never by e-mail again.
 *
 * Organizations that had switched password log-in off (SSO only) keep signing in: SSO is turned
 * on for them with the domains of their people's addresses. Every other organization starts
 * with SSO off, so nobody is signed in by e-mail into an organization that did not opt in.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('organizations', (t) => {
    t.boolean('sso_enabled').notNullable().defaultTo(false);
    t.specificType('sso_domains', 'text[]').notNullable().defaultTo('{}');
    t.boolean('sso_trusts_idp_mfa').notNullable().defaultTo(false);
  });
  await knex.schema.alterTable('users', (t) => {
    t.text('sso_issuer');
    t.text('sso_subject');
  });
  await knex.raw(
    'create unique index users_sso_identity_unique on users (sso_issuer, sso_subject) where sso_subject is not null',
  );
  await keepSsoOnlyOrganizations(knex);
}

/** Turns SSO on, with its people's domains, for every organization that had switched password log-in off (the data part of `up`). */
export async function keepSsoOnlyOrganizations(knex: Knex): Promise<void> {
  await knex.raw(`
    update organizations o
       set sso_enabled = true,
           sso_domains = coalesce(
             (select array_agg(distinct lower(split_part(u.email, '@', 2)))
                from users u
               where u.org_id = o.id and position('@' in u.email) > 0),
             '{}')
     where o.password_login = false and o.sso_enabled = false`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists users_sso_identity_unique');
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('sso_issuer');
    t.dropColumn('sso_subject');
  });
  await knex.schema.alterTable('organizations', (t) => {
    t.dropColumn('sso_enabled');
    t.dropColumn('sso_domains');
    t.dropColumn('sso_trusts_idp_mfa');
  });
}
