import type { Knex } from 'knex';

/**
 * Invitations that tell nobody about other organizations (issue 31, item 6;
 * docs/authentication.md, "Invitations"): an invitation of an address that has an account in
 * another organization is answered exactly as a new one, so it is kept without a user: the
 * invitation row holds the address, the role and the id the answer showed, and whoever opens
 * its link is told of the conflict.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('user_invites', (t) => {
    t.text('user_id').nullable().alter();
    t.text('email');
    t.text('role');
    t.text('invitee_id');
  });
  await knex.raw(
    'create index user_invites_pending_email on user_invites (org_id, lower(email)) where user_id is null',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex('user_invites').whereNull('user_id').delete();
  await knex.raw('drop index if exists user_invites_pending_email');
  await knex.schema.alterTable('user_invites', (t) => {
    t.dropColumn('email');
    t.dropColumn('role');
    t.dropColumn('invitee_id');
    t.text('user_id').notNullable().alter();
  });
}
