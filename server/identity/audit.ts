import type { Db } from '../db/index.ts';
import { pageOf, type PageOf } from '../schemas/common.ts';
import type { AuditAction, AuditEvent } from '../schemas/people.ts';
import {
  countAuditEvents,
  insertAuditEvents,
  listAuditEvents,
  type AuditEventFilter,
  type AuditEventRow,
  type NewAuditEventRow,
} from './audit-events.repository.ts';
import { newId } from './ids.ts';

/**
 * The audit trail of an organization: who invited, changed the role of, disabled,
 * enabled or deleted whom, who changed their password, who signed in and who
 * failed to; who accepted a risk or revoked the acceptance (and when one lapsed), who
 * made or revoked an API key, changed the triage policy, created, changed or deleted a
 * webhook (docs/security.md, "Audit trail"). The lifecycles that do these things record
 * them here, in their own transaction; nothing else writes the trail, and nothing removes
 * from it (events are kept for good, which covers the 90 days the issue asks for;
 * docs/authentication.md). Details name what changed, never a secret.
 */

/** Someone named by an event: their id and e-mail, kept even after the user is deleted. */
export interface AuditPerson {
  id: string;
  email: string;
}

export interface AuditRecord {
  orgId: string;
  action: AuditAction;
  actor?: AuditPerson | undefined;
  /**
   * Whom or what it was done to: a person (a failed sign-in may name an e-mail no user has: id
   * null), or an object by its id (a finding, an API key, a webhook: email null).
   */
  target?: AuditPerson | { id: null; email: string } | { id: string; email: null } | undefined;
  ip?: string | undefined;
  details?: Record<string, string>;
}

export async function recordAuditEvent(db: Db, event: AuditRecord, now = new Date()): Promise<void> {
  await recordAuditEvents(db, [event], now);
}

/** Records several events at once (a bulk change: one event per object), in one insert. */
export async function recordAuditEvents(
  db: Db,
  events: readonly AuditRecord[],
  now = new Date(),
): Promise<void> {
  if (events.length === 0) return;
  await insertAuditEvents(
    db,
    events.map((event) => rowOf(event, now)),
  );
}

function rowOf(event: AuditRecord, now: Date): NewAuditEventRow {
  return {
    id: newId('audit'),
    org_id: event.orgId,
    action: event.action,
    actor_id: event.actor?.id ?? null,
    actor_email: event.actor?.email ?? null,
    target_id: event.target?.id ?? null,
    target_email: event.target?.email ?? null,
    ip: event.ip ?? null,
    details: event.details ?? {},
    created_at: now,
  };
}

function present(row: AuditEventRow): AuditEvent {
  const person = (id: string | null, email: string | null) =>
    id === null && email === null ? null : { id, email };
  return {
    id: row.id,
    action: row.action as AuditAction,
    actor: person(row.actor_id, row.actor_email),
    target: person(row.target_id, row.target_email),
    ip: row.ip,
    details:
      typeof row.details === 'string' ? (JSON.parse(row.details) as Record<string, string>) : row.details,
    created_at: row.created_at.toISOString(),
  };
}

export interface AuditQuery {
  actor?: string | undefined;
  action?: AuditAction | undefined;
  target?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  page: number;
  per_page: number;
}

/** A page of the organization's events, newest first, narrowed by actor, action, target and date. */
export async function listAuditTrail(db: Db, orgId: string, query: AuditQuery): Promise<PageOf<AuditEvent>> {
  const filter: AuditEventFilter = {};
  if (query.actor !== undefined) filter.actor = query.actor.trim();
  if (query.action !== undefined) filter.action = query.action;
  if (query.target !== undefined) filter.target = query.target.trim();
  if (query.from !== undefined) filter.from = query.from;
  if (query.to !== undefined) filter.to = query.to;
  const total = await countAuditEvents(db, orgId, filter);
  const rows = await listAuditEvents(db, orgId, filter, {
    limit: query.per_page,
    offset: (query.page - 1) * query.per_page,
  });
  return pageOf(rows.map(present), total, query.page, query.per_page);
}
