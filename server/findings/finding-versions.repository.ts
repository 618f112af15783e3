import type { Db } from '../db/index.ts';

/**
 * The organization's findings version (table `finding_versions`): a counter bumped
 * by every transaction that changes the organization's findings (recording a scan,
 * PATCH, bulk update). Because the bump commits with the change, a reader that
 * reads the version first and the data second never pairs an old result with a
 * new version, so caches keyed by the version stay exact across server processes.
 */

export interface FindingVersionRow {
  org_id: string;
  /** bigint: a number on PostgreSQL (server/db parses int8), possibly a string or bigint elsewhere. */
  version: number | string | bigint;
}

declare module 'knex/types/tables.js' {
  interface Tables {
    finding_versions: FindingVersionRow;
  }
}

/** Call in the transaction that changed findings, as late as possible (it locks the org's counter row). */
export async function bumpFindingsVersion(trx: Db, orgId: string): Promise<void> {
  await trx.raw(
    `insert into finding_versions (org_id, version) values (?, 1)
     on conflict (org_id) do update set version = finding_versions.version + 1`,
    [orgId],
  );
}

/** The organization's findings version; 0 before its findings first change. */
export async function findingsVersion(db: Db, orgId: string): Promise<number> {
  const row = await db('finding_versions').where({ org_id: orgId }).first('version');
  return row ? Number(row.version) : 0;
}
