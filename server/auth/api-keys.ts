import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { newId } from '../identity/ids.ts';
import { Permission, pageOf, type PageOf } from '../schemas/common.ts';
import type { ApiKeyRecord } from '../schemas/auth.ts';
import { API_KEY_PREFIX, hashApiKey } from './gatekeeper.ts';

/**
 * API keys of an organization. The secret is `sw_` + 32 random bytes in
 * base64url; only its SHA-256 is stored (a key has 256 bits of entropy, so a
 * fast hash is enough) with the first characters kept for recognition. Every
 * query is scoped by organization. A key acts as the user who created it.
 */
export const API_KEY_RECOGNITION_LENGTH = 10;

interface ApiKeyRow {
  id: string;
  org_id: string;
  user_id: string;
  name: string;
  prefix: string;
  key_hash: string;
  permissions: Permission[];
  created_at: Date;
  expires_at: Date | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

/** A new secret key: `sw_` followed by 43 base64url characters. */
export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

/** Permissions in the order the spec lists them, so records read the same whatever the request order. */
function canonical(permissions: readonly Permission[]): Permission[] {
  return Permission.options.filter((p) => permissions.includes(p));
}

function present(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    permissions: canonical(row.permissions),
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at ? row.expires_at.toISOString() : null,
    last_used_at: row.last_used_at ? row.last_used_at.toISOString() : null,
  };
}

export interface NewApiKey {
  name: string;
  permissions: readonly Permission[];
  expiresAt: Date | null;
}

/** Creates a key for the user; the returned `key` is the only time the secret exists outside the caller. */
export async function createApiKey(
  db: Knex,
  owner: { orgId: string; userId: string },
  input: NewApiKey,
  now = new Date(),
): Promise<ApiKeyRecord & { key: string }> {
  const key = generateApiKey();
  const [row] = (await db('api_keys')
    .insert({
      id: newId('key'),
      org_id: owner.orgId,
      user_id: owner.userId,
      name: input.name,
      prefix: key.slice(0, API_KEY_RECOGNITION_LENGTH),
      key_hash: hashApiKey(key),
      permissions: canonical(input.permissions),
      created_at: now,
      expires_at: input.expiresAt,
    })
    .returning('*')) as ApiKeyRow[];
  return { ...present(row!), key };
}

/** The organization's keys that are not revoked (expired ones included, so they can be seen and cleaned up). */
function liveKeys(db: Knex, orgId: string) {
  return db('api_keys').where({ org_id: orgId }).whereNull('revoked_at');
}

/** Newest first, ties broken by id. */
export async function listApiKeys(
  db: Knex,
  orgId: string,
  page: number,
  perPage: number,
): Promise<PageOf<ApiKeyRecord>> {
  const [{ total }] = (await liveKeys(db, orgId).select(db.raw('count(*)::int as total'))) as [
    { total: number },
  ];
  const rows = (await liveKeys(db, orgId)
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(perPage)
    .offset((page - 1) * perPage)) as ApiKeyRow[];
  return pageOf(rows.map(present), total, page, perPage);
}

/** Revokes a key of the organization; false when it is missing, foreign or already revoked. */
export async function revokeApiKey(
  db: Knex,
  orgId: string,
  keyId: string,
  now = new Date(),
): Promise<boolean> {
  const count = await liveKeys(db, orgId).where({ id: keyId }).update({ revoked_at: now });
  return count > 0;
}
