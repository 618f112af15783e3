import type { Knex } from 'knex';

/**
 * Keyless CI sign-in (issue 26, docs/ci-trust.md): an organization's trust policies, each
 * naming an OpenID issuer, the audience its tokens must carry, claim conditions and the API
 * permissions a matching token is exchanged for. Deleting a policy (a soft delete, so the audit
 * trail and outstanding access tokens can still name it) stops its access tokens at once.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('ci_trust_policies', (t) => {
    t.text('id').primary();
    t.text('org_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('issuer').notNullable();
    t.text('audience').notNullable();
    // {claim: pattern} for repository, repository_owner, ref, event_name, environment, job_workflow_ref.
    t.jsonb('conditions').notNullable();
    t.specificType('permissions', 'text[]').notNullable();
    t.boolean('allow_forks').notNullable().defaultTo(false);
    // The admin who created it: its access tokens act as them, limited to the policy's permissions.
    t.text('created_by').notNullable().references('users.id').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('deleted_at', { useTz: true });
    t.index(['org_id', 'issuer']);
    // The exchange looks policies up by issuer across organizations (an ID token names none).
    t.index(['issuer']);
    t.index(['org_id', 'created_at', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('ci_trust_policies');
}
