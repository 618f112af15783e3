import type { Knex } from 'knex';

/**
 * Keyless CI bound to one organization (issue 31, item 1; docs/ci-trust.md): every
 * organization has an audience of its own, minted by the service (`<base>/ci/<organization
 * id>`), and the token exchange reads only the policies of the organization that owns the
 * token's `aud`. Policies no longer name an audience of their own choosing.
 *
 * Existing organizations with live policies get their audience now, from the base their
 * oldest live policy's audience gave (the instance's public URL or the request's origin, by
 * default), and every policy of theirs moves to it: their workflows must ask for the new
 * audience (docs/ci-trust.md, "Moving to the organization's audience"). Organizations whose
 * policies named no URL get theirs on first use.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('organizations', (t) => {
    t.text('ci_audience');
  });
  await knex.raw('create unique index organizations_ci_audience_unique on organizations (ci_audience)');
  await moveToOrganizationAudiences(knex);
}

/** Gives each organization with live policies its audience and moves its policies to it (the data part of `up`). */
export async function moveToOrganizationAudiences(knex: Knex): Promise<void> {
  await knex.raw(`
    update organizations o
       set ci_audience = regexp_replace(p.audience, '/+$', '') || '/ci/' || o.id
      from (
        select distinct on (org_id) org_id, audience
          from ci_trust_policies
         where deleted_at is null and audience ~ '^https{0,1}://[^/]'
         order by org_id, created_at, id
      ) p
     where p.org_id = o.id and o.ci_audience is null`);
  await knex.raw(`
    update ci_trust_policies p
       set audience = o.ci_audience
      from organizations o
     where o.id = p.org_id and o.ci_audience is not null`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists organizations_ci_audience_unique');
  await knex.schema.alterTable('organizations', (t) => {
    t.dropColumn('ci_audience');
  });
}
