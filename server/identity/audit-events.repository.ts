import type { Knex } from 'knex';
import type { Db } from '../db/index.ts';

/**
 * The `audit_events` table: who did what to whom in an organization. Every query is
 * scoped by organization. Rows are only ever inserted, never changed.
 */

export interface AuditEventRow {
  id: string;
  org_id: string;
  action: string;
  actor_id: string | null;
  actor_email: string | null;
  target_id: string | null;
  target_email: string | null;
  ip: string | null;
  details: Record<string, string>;
  created_at: Date;
}

export type NewAuditEventRow = Omit<AuditEventRow, 'created_at'> & { created_at?: Date };

declare module 'knex/types/tables.js' {
  interface Tables {
    audit_events: Knex.CompositeTableType<AuditEventRow, NewAuditEventRow, never>;
  }
}

/** What a listing may be narrowed to: each filter given is applied. */
export interface AuditEventFilter {
  /** An actor's user id or e-mail (compared without regard to case). */
  actor?: string;
  action?: string;
  /** A target's id (a user, finding, API key or webhook id) or e-mail (compared without regard to case). */
  target?: string;
  /** Inclusive lower bound of `created_at`. */
  from?: Date;
  /** Exclusive upper bound of `created_at`. */
  to?: Date;
}

export async function insertAuditEvents(db: Db, rows: readonly NewAuditEventRow[]): Promise<void> {
  await db('audit_events').insert(
    rows.map((row) => ({ ...row, details: JSON.stringify(row.details) as never })),
  );
}

function filtered(db: Db, orgId: string, filter: AuditEventFilter) {
  const query = db('audit_events').where({ org_id: orgId });
  if (filter.actor !== undefined) {
    const actor = filter.actor;
    void query.where((q) => q.where('actor_id', actor).orWhereRaw('lower(actor_email) = lower(?)', [actor]));
  }
  if (filter.action !== undefined) void query.where('action', filter.action);
  if (filter.target !== undefined) {
    const target = filter.target;
    void query.where((q) =>
      q.where('target_id', target).orWhereRaw('lower(target_email) = lower(?)', [target]),
    );
  }
  if (filter.from !== undefined) void query.where('created_at', '>=', filter.from);
  if (filter.to !== undefined) void query.where('created_at', '<', filter.to);
  return query;
}

export async function countAuditEvents(db: Db, orgId: string, filter: AuditEventFilter): Promise<number> {
  const [row] = await filtered(db, orgId, filter).select<{ total: number }[]>(
    db.raw('count(*)::int as total'),
  );
  return row?.total ?? 0;
}

/** A page of the organization's events matching the filter, newest first, ties broken by id. */
export async function listAuditEvents(
  db: Db,
  orgId: string,
  filter: AuditEventFilter,
  page: { limit: number; offset: number },
): Promise<AuditEventRow[]> {
  return filtered(db, orgId, filter)
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(page.limit)
    .offset(page.offset);
}
