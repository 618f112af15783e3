import type { Db } from '../db/index.ts';

/**
 * Typed queries over `finding_versions`: one counter per organization, bumped
 * by every transaction that changes the organization's findings (see versions.ts).
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
