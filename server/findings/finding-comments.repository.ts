import type { Knex } from 'knex';
import type { Db } from '../db/index.ts';
import type { CommentRow } from './rows.ts';

/**
 * Typed queries over `finding_comments` (row type in rows.ts). Every query
 * takes the organization id. Comments read back in creation order, ties by
 * insertion order (`seq`), so comments written in the same millisecond keep
 * their order.
 */

/** A stored comment: `seq` is the insertion sequence (an identity column) that breaks ties of `created_at`. */
export interface StoredCommentRow extends CommentRow {
  seq: number | bigint;
}

declare module 'knex/types/tables.js' {
  interface Tables {
    finding_comments: Knex.CompositeTableType<StoredCommentRow, CommentRow, Partial<CommentRow>>;
  }
}

const ORDER = [{ column: 'created_at' }, { column: 'seq' }];

/** The comments of one of the organization's findings, oldest first. */
export async function selectCommentsOfFinding(
  db: Db,
  orgId: string,
  findingId: string,
): Promise<CommentRow[]> {
  return db('finding_comments').where({ org_id: orgId, finding_id: findingId }).orderBy(ORDER);
}

/** The comments of several of the organization's findings, oldest first. */
export async function selectCommentsOfFindings(
  db: Db,
  orgId: string,
  findingIds: readonly string[],
): Promise<CommentRow[]> {
  return db('finding_comments').where('org_id', orgId).whereIn('finding_id', findingIds).orderBy(ORDER);
}

/** Stores a comment of the organization (the finding is checked by the caller, in the same transaction). */
export async function insertComment(trx: Db, orgId: string, row: CommentRow): Promise<void> {
  await trx('finding_comments').insert({ ...row, org_id: orgId });
}
