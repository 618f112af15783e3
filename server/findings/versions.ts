import type { Knex } from 'knex';

/**
 * The organization's findings version: a counter bumped by every transaction that
 * changes the organization's findings (recording a scan, PATCH, bulk update).
 * Because the bump commits with the change, a reader that reads the version
 * first and the data second never pairs an old result with a new version, so
 * caches keyed by the version stay exact across server processes.
 */

/** Call in the transaction that changed findings, as late as possible (it locks the org's counter row). */
export async function bumpFindingsVersion(trx: Knex | Knex.Transaction, orgId: string): Promise<void> {
  await trx.raw(
    `insert into finding_versions (org_id, version) values (?, 1)
     on conflict (org_id) do update set version = finding_versions.version + 1`,
    [orgId],
  );
}

export async function findingsVersion(db: Knex, orgId: string): Promise<number> {
  const row = (await db('finding_versions').where({ org_id: orgId }).first('version')) as
    { version: number | string | bigint } | undefined;
  return row ? Number(row.version) : 0;
}
