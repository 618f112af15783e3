import type { Knex } from 'knex';
import type { Db } from '../db/index.ts';
import {
  JOINED_ORGANIZATION_COLUMNS,
  organizationOf,
  type JoinedOrganization,
  type OrganizationRow,
} from '../identity/organizations.repository.ts';
import type { CallerUser } from '../identity/users.repository.ts';
import type { Permission } from '../schemas/common.ts';

/**
 * The `api_keys` table. Every query is scoped by organization, except the look-up by
 * the key's hash, which is how a request names its organization in the first place.
 */

export interface ApiKeyRow {
  id: string;
  org_id: string;
  user_id: string;
  name: string;
  /** The key's first characters, for recognition. */
  prefix: string;
  /** SHA-256 of the whole key. */
  key_hash: string;
  permissions: Permission[];
  created_at: Date;
  expires_at: Date | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

/** The columns an insert must give; the others have defaults (now, null). */
export type NewApiKeyRow = Pick<
  ApiKeyRow,
  'id' | 'org_id' | 'user_id' | 'name' | 'prefix' | 'key_hash' | 'permissions'
> &
  Partial<Pick<ApiKeyRow, 'created_at' | 'expires_at' | 'last_used_at' | 'revoked_at'>>;

declare module 'knex/types/tables.js' {
  interface Tables {
    api_keys: Knex.CompositeTableType<ApiKeyRow, NewApiKeyRow, Partial<ApiKeyRow>>;
  }
}

export async function insertApiKey(db: Db, row: NewApiKeyRow): Promise<ApiKeyRow> {
  const [created] = await db('api_keys').insert(row).returning('*');
  return created!;
}

/**
 * The organization's keys that are not revoked (expired ones included, so they can be
 * seen and cleaned up); only those of `userId` when given (a member sees their own).
 */
function liveKeys(db: Db, orgId: string, userId?: string) {
  const query = db('api_keys').where({ org_id: orgId }).whereNull('revoked_at');
  if (userId !== undefined) void query.where({ user_id: userId });
  return query;
}

export async function countLiveApiKeys(db: Db, orgId: string, userId?: string): Promise<number> {
  const [row] = await liveKeys(db, orgId, userId).select<{ total: number }[]>(
    db.raw('count(*)::int as total'),
  );
  return row?.total ?? 0;
}

/** A page of the organization's live keys (or of one user's), newest first, ties broken by id. */
export async function listLiveApiKeys(
  db: Db,
  orgId: string,
  page: { limit: number; offset: number },
  userId?: string,
): Promise<ApiKeyRow[]> {
  return liveKeys(db, orgId, userId)
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(page.limit)
    .offset(page.offset);
}

/** Revokes a live key of the organization (of `userId` only, when given); answers whether one was revoked. */
export async function revokeLiveApiKey(
  db: Db,
  orgId: string,
  keyId: string,
  now: Date,
  userId?: string,
): Promise<Pick<ApiKeyRow, 'id' | 'name' | 'prefix' | 'user_id'> | undefined> {
  const [row] = await liveKeys(db, orgId, userId)
    .where({ id: keyId })
    .update({ revoked_at: now })
    .returning(['id', 'name', 'prefix', 'user_id']);
  return row;
}

/** Revokes every live key of the user; returns how many. */
export async function revokeUserApiKeys(db: Db, orgId: string, userId: string, now: Date): Promise<number> {
  return liveKeys(db, orgId).where({ user_id: userId }).update({ revoked_at: now });
}

/** Records that the key was used at `now`. */
export async function touchApiKey(db: Db, orgId: string, keyId: string, now: Date): Promise<void> {
  await db('api_keys').where({ id: keyId, org_id: orgId }).update({ last_used_at: now });
}

/** The caller of a key that is not revoked: the key, the user it acts as and its organization. */
export interface ApiKeyCaller {
  keyId: string;
  permissions: Permission[];
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  user: CallerUser;
  org: OrganizationRow;
}

/**
 * The unrevoked key with this hash, whatever its organization (expired keys included:
 * the caller decides); undefined when the key's user is disabled.
 */
export async function findApiKeyCallerByHash(db: Db, keyHash: string): Promise<ApiKeyCaller | undefined> {
  const row = await db('api_keys as k')
    .join('users as u', 'u.id', 'k.user_id')
    .join('organizations as o', 'o.id', 'k.org_id')
    .where('k.key_hash', keyHash)
    .whereNull('k.revoked_at')
    .whereNull('u.disabled_at')
    .first<
      | (JoinedOrganization & {
          key_id: string;
          permissions: Permission[];
          expires_at: Date | null;
          last_used_at: Date | null;
          user_id: string;
          email: string;
          role: CallerUser['role'];
        })
      | undefined
    >(
      'k.id as key_id',
      'k.permissions',
      'k.expires_at',
      'k.last_used_at',
      'u.id as user_id',
      'u.email',
      'u.role',
      ...JOINED_ORGANIZATION_COLUMNS,
    );
  if (!row) return undefined;
  return {
    keyId: row.key_id,
    permissions: row.permissions,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
    user: { id: row.user_id, email: row.email, role: row.role },
    org: organizationOf(row),
  };
}
