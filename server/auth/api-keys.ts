import { randomBytes } from 'node:crypto';
import type { Db } from '../db/index.ts';
import { recordAuditEvent } from '../identity/audit.ts';
import { newId } from '../identity/ids.ts';
import { apiKeyOwnerScope } from '../policies/api-keys.ts';
import type { Principal } from '../policies/principal.ts';
import { Permission, pageOf, type PageOf } from '../schemas/common.ts';
import type { ApiKeyRecord } from '../schemas/auth.ts';
import {
  countLiveApiKeys,
  insertApiKey,
  listLiveApiKeys,
  revokeLiveApiKey,
  type ApiKeyRow,
} from './api-keys.repository.ts';
import { API_KEY_PREFIX, hashApiKey } from './gatekeeper.ts';

/**
 * API keys of an organization. The secret is `sw_` + 32 random bytes in
 * base64url; only its SHA-256 is stored (a key has 256 bits of entropy, so a
 * fast hash is enough) with the first characters kept for recognition. Every
 * query is scoped by organization. A key acts as the user who created it. Making and
 * revoking a key are audit events (`api_key.created`, `api_key.revoked`: its name, its
 * recognition prefix and permissions; never the secret or its hash).
 */
export const API_KEY_RECOGNITION_LENGTH = 10;

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
  db: Db,
  owner: { orgId: string; userId: string; email: string },
  input: NewApiKey,
  now = new Date(),
): Promise<ApiKeyRecord & { key: string }> {
  const key = generateApiKey();
  return db.transaction(async (trx) => {
    const created = await insertKey(trx, owner, input, key, now);
    await recordAuditEvent(
      trx,
      {
        orgId: owner.orgId,
        action: 'api_key.created',
        actor: { id: owner.userId, email: owner.email },
        target: { id: created.id, email: null },
        details: {
          name: created.name,
          prefix: created.prefix,
          permissions: created.permissions.join(' '),
          expires_at: created.expires_at ?? 'never',
        },
      },
      now,
    );
    return { ...created, key };
  });
}

async function insertKey(
  db: Db,
  owner: { orgId: string; userId: string },
  input: NewApiKey,
  key: string,
  now: Date,
): Promise<ApiKeyRecord> {
  const row = await insertApiKey(db, {
    id: newId('key'),
    org_id: owner.orgId,
    user_id: owner.userId,
    name: input.name,
    prefix: key.slice(0, API_KEY_RECOGNITION_LENGTH),
    key_hash: hashApiKey(key),
    permissions: canonical(input.permissions),
    created_at: now,
    expires_at: input.expiresAt,
  });
  return present(row);
}

/**
 * The keys the caller may manage that are not revoked (expired ones included), newest
 * first, ties broken by id: the organization's for an admin, their own for anyone else
 * (the API-key policy's ownership rule, policies/api-keys.ts).
 */
export async function listApiKeys(
  db: Db,
  caller: Principal,
  page: number,
  perPage: number,
): Promise<PageOf<ApiKeyRecord>> {
  const owner = apiKeyOwnerScope(caller);
  const total = await countLiveApiKeys(db, caller.org.id, owner);
  const rows = await listLiveApiKeys(
    db,
    caller.org.id,
    { limit: perPage, offset: (page - 1) * perPage },
    owner,
  );
  return pageOf(rows.map(present), total, page, perPage);
}

/**
 * Revokes a key the caller may manage; false when it is missing, foreign, someone
 * else's (for a non-admin: answered like a missing one) or already revoked.
 */
export async function revokeApiKey(
  db: Db,
  caller: Principal,
  keyId: string,
  now = new Date(),
): Promise<boolean> {
  return db.transaction(async (trx) => {
    const revoked = await revokeLiveApiKey(trx, caller.org.id, keyId, now, apiKeyOwnerScope(caller));
    if (!revoked) return false;
    await recordAuditEvent(
      trx,
      {
        orgId: caller.org.id,
        action: 'api_key.revoked',
        actor: { id: caller.user.id, email: caller.user.email },
        target: { id: revoked.id, email: null },
        details: { name: revoked.name, prefix: revoked.prefix, owner_id: revoked.user_id },
      },
      now,
    );
    return true;
  });
}
