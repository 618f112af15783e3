import type { Knex } from 'knex';
import type { Db } from '../db/index.ts';

/**
 * Typed queries over `idempotency_keys`: the response remembered for each
 * `Idempotency-Key` an organization used on POST /api/v1/scans. Every query
 * takes the organization id, except the periodic purge of all organizations'
 * expired keys, named so.
 */

export interface IdempotencyKeyRow {
  org_id: string;
  key: string;
  request_hash: string;
  response_status: number;
  /** jsonb: parsed by the driver, or JSON text. */
  response_body: unknown;
  created_at: Date;
}

/** The body goes in as JSON text. */
type NewIdempotencyKeyRow = Omit<IdempotencyKeyRow, 'response_body'> & { response_body: string };

declare module 'knex/types/tables.js' {
  interface Tables {
    idempotency_keys: Knex.CompositeTableType<
      IdempotencyKeyRow,
      NewIdempotencyKeyRow,
      Partial<NewIdempotencyKeyRow>
    >;
  }
}

export type RememberedResponseRow = Pick<
  IdempotencyKeyRow,
  'request_hash' | 'response_status' | 'response_body'
>;

/** The response remembered for the organization's key if it was stored after `since`. */
export async function selectIdempotencyKey(
  db: Db,
  orgId: string,
  key: string,
  since: Date,
): Promise<RememberedResponseRow | undefined> {
  return db('idempotency_keys')
    .where({ org_id: orgId, key })
    .where('created_at', '>', since)
    .first('request_hash', 'response_status', 'response_body');
}

/** Deletes the organization's keys stored at or before `until`. */
export async function deleteExpiredIdempotencyKeysOfOrganization(
  trx: Db,
  orgId: string,
  until: Date,
): Promise<void> {
  await trx('idempotency_keys').where({ org_id: orgId }).where('created_at', '<=', until).delete();
}

/** Stores a key of the organization with its response. */
export async function insertIdempotencyKey(
  trx: Db,
  orgId: string,
  row: Omit<NewIdempotencyKeyRow, 'org_id'>,
): Promise<void> {
  await trx('idempotency_keys').insert({ ...row, org_id: orgId });
}

/** Housekeeping across organizations: deletes every key stored at or before `until`. Returns how many. */
export async function deleteExpiredIdempotencyKeysOfAllOrganizations(db: Db, until: Date): Promise<number> {
  return db('idempotency_keys').where('created_at', '<=', until).delete();
}
