import type { Knex } from 'knex';

/**
 * An invitation kept without a user (issue 31, item 6) is one of the organization's people
 * until it is deleted: listed, looked up, its role changed, disabled and enabled like an
 * invited user who has not accepted yet (docs/authentication.md, "People"). Disabling it needs
 * the moment, as a user's `disabled_at`. And as a user's e-mail is unique, one address has at
 * most one unused such invitation per organization, so two concurrent invitations of it are
 * answered 201 and 409 as for a new address: a duplicate a race left behind keeps the oldest.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('user_invites', (t) => {
    t.timestamp('disabled_at', { useTz: true });
  });
  await knex.raw(`
    delete from user_invites d
    where d.user_id is null and d.used_at is null
      and exists (
        select 1 from user_invites k
        where k.org_id = d.org_id and k.user_id is null and k.used_at is null
          and lower(k.email) = lower(d.email)
          and (k.created_at, k.id) < (d.created_at, d.id)
      )
  `);
  await knex.raw(
    'create unique index user_invites_unused_email_without_user on user_invites (org_id, lower(email)) ' +
      'where user_id is null and used_at is null',
  );
  await knex.raw(
    'create index user_invites_without_user on user_invites (org_id, invitee_id) where user_id is null',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists user_invites_without_user');
  await knex.raw('drop index if exists user_invites_unused_email_without_user');
  await knex.schema.alterTable('user_invites', (t) => {
    t.dropColumn('disabled_at');
  });
}
