import type { Knex } from 'knex';

/**
 * An invitation kept without a user (issue 31, item 6) is one of the organization's people
 * until it is deleted: listed, looked up, its role changed, disabled and enabled like an
 * invited user who has not accepted yet (docs/authentication.md, "People"). Disabling it needs
 * the moment, as a user's `disabled_at`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('user_invites', (t) => {
    t.timestamp('disabled_at', { useTz: true });
  });
  await knex.raw(
    'create index user_invites_without_user on user_invites (org_id, invitee_id) where user_id is null',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists user_invites_without_user');
  await knex.schema.alterTable('user_invites', (t) => {
    t.dropColumn('disabled_at');
  });
}
