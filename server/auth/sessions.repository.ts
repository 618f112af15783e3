import type { Knex } from 'knex';
import type { Db } from '../db/index.ts';
import {
  JOINED_ORGANIZATION_COLUMNS,
  organizationOf,
  type JoinedOrganization,
  type OrganizationRow,
} from '../identity/organizations.repository.ts';
import type { CallerUser } from '../identity/users.repository.ts';

/** The `sessions` table: one row per login; every query is scoped by organization. */

export interface SessionRow {
  id: string;
  org_id: string;
  user_id: string;
  ip_address: string | null;
  user_agent: string | null;
  created_at: Date;
  last_used_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
}

/** The columns an insert must give; the others have defaults (now, null). */
export type NewSessionRow = Pick<SessionRow, 'id' | 'org_id' | 'user_id' | 'expires_at'> &
  Partial<Omit<SessionRow, 'id' | 'org_id' | 'user_id' | 'expires_at'>>;

declare module 'knex/types/tables.js' {
  interface Tables {
    sessions: Knex.CompositeTableType<SessionRow, NewSessionRow, Partial<SessionRow>>;
  }
}

export async function insertSession(db: Db, row: NewSessionRow): Promise<SessionRow> {
  const [created] = await db('sessions').insert(row).returning('*');
  return created!;
}

/** The user's sessions that are neither revoked nor expired at `now`. */
function activeSessions(db: Db, orgId: string, userId: string, now: Date) {
  return db('sessions')
    .where({ org_id: orgId, user_id: userId })
    .whereNull('revoked_at')
    .where('expires_at', '>', now);
}

export async function countActiveSessions(db: Db, orgId: string, userId: string, now: Date): Promise<number> {
  const [row] = await activeSessions(db, orgId, userId, now).select<{ total: number }[]>(
    db.raw('count(*)::int as total'),
  );
  return row?.total ?? 0;
}

/** A page of the user's active sessions, newest first (ties broken by id). */
export async function listActiveSessions(
  db: Db,
  orgId: string,
  userId: string,
  now: Date,
  page: { limit: number; offset: number },
): Promise<SessionRow[]> {
  return activeSessions(db, orgId, userId, now)
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(page.limit)
    .offset(page.offset);
}

/** Revokes the user's active sessions, or only `sessionId` among them; returns how many. */
export async function revokeActiveSessions(
  db: Db,
  orgId: string,
  userId: string,
  now: Date,
  sessionId?: string,
): Promise<number> {
  const query = activeSessions(db, orgId, userId, now);
  if (sessionId !== undefined) void query.where({ id: sessionId });
  return query.update({ revoked_at: now });
}

/** Revokes every session of the user not revoked yet, expired ones included; returns how many. */
export async function revokeUnrevokedSessions(
  db: Db,
  orgId: string,
  userId: string,
  now: Date,
): Promise<number> {
  return db('sessions')
    .where({ org_id: orgId, user_id: userId })
    .whereNull('revoked_at')
    .update({ revoked_at: now });
}

/** Revokes every session of the user not revoked yet except `keepSessionId`; returns how many. */
export async function revokeOtherSessions(
  db: Db,
  orgId: string,
  userId: string,
  keepSessionId: string | undefined,
  now: Date,
): Promise<number> {
  const query = db('sessions').where({ org_id: orgId, user_id: userId }).whereNull('revoked_at');
  if (keepSessionId !== undefined) void query.whereNot({ id: keepSessionId });
  return query.update({ revoked_at: now });
}

/** Records that the session was used at `now`. */
export async function touchSession(db: Db, orgId: string, sessionId: string, now: Date): Promise<void> {
  await db('sessions').where({ id: sessionId, org_id: orgId }).update({ last_used_at: now });
}

/** The caller of a live session: its user and organization. */
export interface SessionCaller {
  sessionId: string;
  lastUsedAt: Date;
  user: CallerUser;
  org: OrganizationRow;
}

/**
 * The live session a token names, with its user and organization; undefined when the
 * session is revoked, expired, or does not belong to that user and organization, or
 * when the user is disabled.
 */
export async function findSessionCaller(
  db: Db,
  orgId: string,
  claims: { sessionId: string; userId: string },
  now: Date,
): Promise<SessionCaller | undefined> {
  const row = await db('sessions as s')
    .join('users as u', 'u.id', 's.user_id')
    .join('organizations as o', 'o.id', 's.org_id')
    .where({ 's.id': claims.sessionId, 's.user_id': claims.userId, 's.org_id': orgId })
    .whereNull('s.revoked_at')
    .whereNull('u.disabled_at')
    .where('s.expires_at', '>', now)
    .first<
      | (JoinedOrganization & {
          session_id: string;
          last_used_at: Date;
          user_id: string;
          email: string;
          role: CallerUser['role'];
        })
      | undefined
    >(
      's.id as session_id',
      's.last_used_at',
      'u.id as user_id',
      'u.email',
      'u.role',
      ...JOINED_ORGANIZATION_COLUMNS,
    );
  if (!row) return undefined;
  return {
    sessionId: row.session_id,
    lastUsedAt: row.last_used_at,
    user: { id: row.user_id, email: row.email, role: row.role },
    org: organizationOf(row),
  };
}
