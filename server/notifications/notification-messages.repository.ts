import type { Knex } from 'knex';
import type { Db } from '../db/index.ts';

/**
 * The `notification_messages` table, the notification outbox (docs/integrations.md,
 * "Delivery"): one row per e-mail, chat message or tracker call, unique per organization by
 * its `dedupe_key` (so one event is never sent twice), retried with backoff until it
 * succeeds or is `dead`. Every query is scoped by organization except the worker's claim,
 * which serves every organization.
 */

export type MessageStatus = 'pending' | 'succeeded' | 'dead';

export interface MessageRow {
  id: string;
  org_id: string;
  integration_id: string | null;
  kind: string;
  dedupe_key: string;
  /** Sealed JSON of what to send. */
  payload: string;
  summary: string;
  status: MessageStatus;
  attempts: number;
  next_attempt_at: Date | null;
  locked_until: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
}

export type NewMessageRow = Pick<
  MessageRow,
  'id' | 'org_id' | 'integration_id' | 'kind' | 'dedupe_key' | 'payload' | 'summary'
> &
  Partial<Pick<MessageRow, 'next_attempt_at' | 'created_at' | 'updated_at'>>;

type MessageChanges = Partial<Omit<MessageRow, 'attempts'>> & { attempts?: number | Knex.Raw };

declare module 'knex/types/tables.js' {
  interface Tables {
    notification_messages: Knex.CompositeTableType<MessageRow, NewMessageRow, MessageChanges>;
  }
}

/** Queues a message unless one with its key was queued before; answers whether it was queued. */
export async function insertMessageUnlessQueued(db: Db, orgId: string, row: NewMessageRow): Promise<boolean> {
  const inserted = await db('notification_messages')
    .insert({ ...row, org_id: orgId })
    .onConflict(['org_id', 'dedupe_key'])
    .ignore()
    .returning('id');
  return inserted.length > 0;
}

/** A claimed message: the worker's for a while. */
export type ClaimedMessage = Pick<
  MessageRow,
  'id' | 'org_id' | 'integration_id' | 'kind' | 'payload' | 'attempts' | 'summary'
>;

/**
 * Claims up to `limit` due pending messages of any organization (skipping those another
 * worker holds) for `claimSeconds`, counting the attempt; answers them.
 */
export async function claimDueMessagesOfAnyOrganization(
  db: Db,
  limit: number,
  now: Date,
  claimSeconds: number,
): Promise<ClaimedMessage[]> {
  return db.transaction(async (trx) => {
    const due = await trx('notification_messages')
      .where('status', 'pending')
      .where('next_attempt_at', '<=', now)
      .where((q) => q.whereNull('locked_until').orWhere('locked_until', '<=', now))
      .orderBy([{ column: 'next_attempt_at' }, { column: 'id' }])
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .select<ClaimedMessage[]>('id', 'org_id', 'integration_id', 'kind', 'payload', 'attempts', 'summary');
    if (due.length === 0) return [];
    await trx('notification_messages')
      .whereIn(
        'id',
        due.map((d) => d.id),
      )
      .update({
        locked_until: new Date(now.getTime() + claimSeconds * 1000),
        attempts: trx.raw('attempts + 1'),
        updated_at: now,
      });
    return due.map((d) => ({ ...d, attempts: d.attempts + 1 }));
  });
}

/** Records an attempt's outcome. */
export async function recordMessageAttempt(
  db: Db,
  orgId: string,
  id: string,
  outcome: Pick<MessageRow, 'status' | 'next_attempt_at' | 'last_status_code' | 'last_error' | 'updated_at'>,
): Promise<void> {
  await db('notification_messages')
    .where({ org_id: orgId, id })
    .update({ ...outcome, locked_until: null });
}

export interface MessageFilter {
  status?: MessageStatus | undefined;
  integrationId?: string | undefined;
}

function filtered(db: Db, orgId: string, filter: MessageFilter) {
  const q = db('notification_messages').where({ org_id: orgId });
  if (filter.status) q.where('status', filter.status);
  if (filter.integrationId) q.where('integration_id', filter.integrationId);
  return q;
}

export async function countMessages(db: Db, orgId: string, filter: MessageFilter): Promise<number> {
  const [row] = await filtered(db, orgId, filter).select<{ total: number }[]>(
    db.raw('count(*)::int as total'),
  );
  return row?.total ?? 0;
}

/** A page of the organization's messages, newest first. */
export async function listMessages(
  db: Db,
  orgId: string,
  filter: MessageFilter,
  page: { limit: number; offset: number },
): Promise<MessageRow[]> {
  return filtered(db, orgId, filter)
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(page.limit)
    .offset(page.offset);
}

/** Queues a dead message again, now (a person asked for it); answers it, or undefined. */
export async function requeueDeadMessage(
  db: Db,
  orgId: string,
  id: string,
  now: Date,
): Promise<MessageRow | undefined> {
  const [row] = await db('notification_messages')
    .where({ org_id: orgId, id, status: 'dead' })
    .update({ status: 'pending', attempts: 0, next_attempt_at: now, locked_until: null, updated_at: now })
    .returning('*');
  return row;
}

/** Claims the organization's message if it is pending and no worker holds it; answers it, or undefined. */
export async function claimMessage(
  db: Db,
  orgId: string,
  id: string,
  now: Date,
  claimSeconds: number,
): Promise<ClaimedMessage | undefined> {
  const [row] = await db('notification_messages')
    .where({ org_id: orgId, id, status: 'pending' })
    .where((q) => q.whereNull('locked_until').orWhere('locked_until', '<=', now))
    .update({
      locked_until: new Date(now.getTime() + claimSeconds * 1000),
      attempts: db.raw('attempts + 1'),
      updated_at: now,
    })
    .returning(['id', 'org_id', 'integration_id', 'kind', 'payload', 'attempts', 'summary']);
  return row as ClaimedMessage | undefined;
}

export async function findMessage(db: Db, orgId: string, id: string): Promise<MessageRow | undefined> {
  return db('notification_messages').where({ org_id: orgId, id }).first();
}
