import { createHash } from 'node:crypto';
import type { Db } from '../db/index.ts';
import { validationError } from '../errors.ts';
import {
  deleteExpiredIdempotencyKeysOfAllOrganizations,
  deleteExpiredIdempotencyKeysOfOrganization,
  insertIdempotencyKey,
  selectIdempotencyKey,
} from './idempotency-keys.repository.ts';

/**
 * `Idempotency-Key` on POST /api/v1/scans (decisions.md, "Scans"): scoped to
 * the organization and kept 24 hours. The same key with the same body answers
 * the first response again and creates nothing; the same key with another body
 * is refused. Only successful creations are remembered, so a request refused
 * for quota or concurrency can be retried with its key.
 */

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;

export interface StoredResponse {
  status: number;
  body: unknown;
}

/** Validates the header: 1–255 printable ASCII characters. Undefined when absent. */
export function parseIdempotencyKey(raw: string | string[] | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const key = Array.isArray(raw) ? raw[raw.length - 1]! : raw;
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw validationError(
      IDEMPOTENCY_HEADER,
      `${IDEMPOTENCY_HEADER} must be 1-255 printable ASCII characters`,
    );
  }
  return key;
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/**
 * Fingerprint of a request body as validated (defaults filled in, key order
 * ignored): `{"target":"x"}` and `{"scan_type":"full","target":"x"}` are the same request.
 */
export function requestHash(body: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(canonical(body)))
    .digest('hex');
}

/**
 * The response remembered for this key, or undefined. Throws 422 naming the
 * header when the key was used with another body.
 */
export async function recallResponse(
  db: Db,
  orgId: string,
  key: string,
  hash: string,
  now: Date,
): Promise<StoredResponse | undefined> {
  const row = await selectIdempotencyKey(db, orgId, key, new Date(now.getTime() - IDEMPOTENCY_TTL_MS));
  if (!row) return undefined;
  if (row.request_hash !== hash) {
    throw validationError(
      IDEMPOTENCY_HEADER,
      `${IDEMPOTENCY_HEADER} was already used with a different request body in the last 24 hours`,
    );
  }
  const body =
    typeof row.response_body === 'string' ? (JSON.parse(row.response_body) as unknown) : row.response_body;
  return { status: row.response_status, body };
}

/**
 * Remembers the response of a successful creation, in the creating transaction
 * (which holds the organization lock, so no other request of the organization
 * races it). Expired keys of the organization go first, which frees a key
 * for reuse after 24 hours.
 */
export async function rememberResponse(
  trx: Db,
  orgId: string,
  key: string,
  hash: string,
  response: StoredResponse,
  now: Date,
): Promise<void> {
  await deleteExpiredIdempotencyKeysOfOrganization(trx, orgId, new Date(now.getTime() - IDEMPOTENCY_TTL_MS));
  await insertIdempotencyKey(trx, orgId, {
    key,
    request_hash: hash,
    response_status: response.status,
    response_body: JSON.stringify(response.body),
    created_at: now,
  });
}

/** Deletes every expired key of every organization (periodic housekeeping). Returns how many. */
export async function purgeExpiredIdempotencyKeys(db: Db, now = new Date()): Promise<number> {
  return deleteExpiredIdempotencyKeysOfAllOrganizations(db, new Date(now.getTime() - IDEMPOTENCY_TTL_MS));
}
