import type { Db } from '../db/index.ts';
import { newId } from '../identity/ids.ts';
import { pageOf, type PageOf } from '../schemas/common.ts';
import type { SessionRecord } from '../schemas/auth.ts';
import {
  countActiveSessions,
  insertSession,
  listActiveSessions,
  revokeActiveSessions,
  type SessionRow,
} from './sessions.repository.ts';

/**
 * A session is what a login creates and every token of it refers to (`sid`).
 * It lives 30 days from the login, however often its tokens are refreshed;
 * revoking it invalidates all its tokens at once, because the gatekeeper looks
 * the session up on every request.
 */
export const SESSION_LIFETIME_DAYS = 30;
const SESSION_LIFETIME_MS = SESSION_LIFETIME_DAYS * 24 * 3600 * 1000;

/** Long user agents are cut; the column is for recognition, not forensics. */
const USER_AGENT_MAX = 512;

/** Whose sessions: every query is scoped by organization and user. */
export interface SessionOwner {
  orgId: string;
  userId: string;
}

export async function createSession(
  db: Db,
  owner: SessionOwner,
  client: { ip: string | undefined; userAgent: string | undefined },
  now = new Date(),
): Promise<SessionRow> {
  return insertSession(db, {
    id: newId('sess'),
    org_id: owner.orgId,
    user_id: owner.userId,
    ip_address: client.ip || null,
    user_agent: client.userAgent ? client.userAgent.slice(0, USER_AGENT_MAX) : null,
    created_at: now,
    last_used_at: now,
    expires_at: new Date(now.getTime() + SESSION_LIFETIME_MS),
  });
}

function present(row: SessionRow, currentSessionId: string | undefined): SessionRecord {
  return {
    id: row.id,
    created_at: row.created_at.toISOString(),
    last_used_at: row.last_used_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
    ip_address: row.ip_address,
    user_agent: row.user_agent,
    current: row.id === currentSessionId,
  };
}

/** The user's active sessions, newest first (ties broken by id). */
export async function listSessions(
  db: Db,
  owner: SessionOwner,
  currentSessionId: string | undefined,
  page: number,
  perPage: number,
  now = new Date(),
): Promise<PageOf<SessionRecord>> {
  const total = await countActiveSessions(db, owner.orgId, owner.userId, now);
  const rows = await listActiveSessions(db, owner.orgId, owner.userId, now, {
    limit: perPage,
    offset: (page - 1) * perPage,
  });
  return pageOf(
    rows.map((r) => present(r, currentSessionId)),
    total,
    page,
    perPage,
  );
}

/** Revokes one active session of the user; false when it is missing, foreign or already revoked. */
export async function revokeSession(
  db: Db,
  owner: SessionOwner,
  sessionId: string,
  now = new Date(),
): Promise<boolean> {
  return (await revokeActiveSessions(db, owner.orgId, owner.userId, now, sessionId)) > 0;
}

/** Revokes every active session of the user, the caller's own included; returns how many. */
export async function revokeAllSessions(db: Db, owner: SessionOwner, now = new Date()): Promise<number> {
  return revokeActiveSessions(db, owner.orgId, owner.userId, now);
}
