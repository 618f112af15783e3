import type { Knex } from 'knex';
import type { Db } from '../db/index.ts';

/**
 * The `webhook_deliveries` table, the outbox: one row per event and subscribed
 * webhook, written in the transaction that records the event. Every query is scoped
 * by organization except the delivery worker's claim, which serves every organization.
 */

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface DeliveryRow {
  id: string;
  org_id: string;
  webhook_id: string;
  event: string;
  /** The exact body sent on every attempt. */
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date | null;
  /** A worker's claim on the delivery lapses at this time. */
  locked_until: Date | null;
  last_status_code: number | null;
  last_response_ms: number | null;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
}

/** The columns an insert must give; the others have defaults (pending, no attempts, now). */
export type NewDeliveryRow = Pick<DeliveryRow, 'id' | 'org_id' | 'webhook_id' | 'event' | 'payload'> &
  Partial<Omit<DeliveryRow, 'id' | 'org_id' | 'webhook_id' | 'event' | 'payload'>>;

/** An update; `attempts` may be an expression of the column (one more attempt). */
type DeliveryChanges = Partial<Omit<DeliveryRow, 'attempts'>> & { attempts?: number | Knex.Raw };

declare module 'knex/types/tables.js' {
  interface Tables {
    webhook_deliveries: Knex.CompositeTableType<DeliveryRow, NewDeliveryRow, DeliveryChanges>;
  }
}

export async function insertDeliveries(db: Db, rows: NewDeliveryRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db('webhook_deliveries').insert(rows);
}

export async function findDelivery(db: Db, orgId: string, id: string): Promise<DeliveryRow | undefined> {
  return db('webhook_deliveries').where({ org_id: orgId, id }).first();
}

export async function countDeliveries(db: Db, orgId: string, webhookId: string): Promise<number> {
  const [row] = await db('webhook_deliveries')
    .where({ org_id: orgId, webhook_id: webhookId })
    .select<{ total: number }[]>(db.raw('count(*)::int as total'));
  return row?.total ?? 0;
}

/** A page of the webhook's deliveries, newest first, ties broken by id. */
export async function listDeliveries(
  db: Db,
  orgId: string,
  webhookId: string,
  page: { limit: number; offset: number },
): Promise<DeliveryRow[]> {
  return db('webhook_deliveries')
    .where({ org_id: orgId, webhook_id: webhookId })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(page.limit)
    .offset(page.offset);
}

/** Makes the delivery due now, released from any claim; undefined when the webhook has no such delivery. */
export async function requeueDelivery(
  db: Db,
  orgId: string,
  webhookId: string,
  deliveryId: string,
  now: Date,
): Promise<DeliveryRow | undefined> {
  const [row] = await db('webhook_deliveries')
    .where({ org_id: orgId, webhook_id: webhookId, id: deliveryId })
    .update({ status: 'pending', next_attempt_at: now, locked_until: null, updated_at: now })
    .returning('*');
  return row;
}

/** A delivery claimed for an attempt, with where and how to send it. */
export interface ClaimedDelivery {
  id: string;
  org_id: string;
  webhook_id: string;
  payload: string;
  /** Attempts so far, the claimed one included. */
  attempts: number;
  url: string;
  /** The webhook's sealed secret. */
  secret: string;
}

/**
 * Claims up to `limit` due deliveries of active webhooks, of any organization, for
 * `claimSeconds`: counts the attempt and locks them against other workers, in one
 * transaction (several workers never send one delivery at the same time).
 */
export async function claimDueDeliveriesOfAnyOrganization(
  db: Db,
  limit: number,
  now: Date,
  claimSeconds: number,
): Promise<ClaimedDelivery[]> {
  return db.transaction(async (trx) => {
    const due = await trx('webhook_deliveries as d')
      .join('webhooks as w', 'w.id', 'd.webhook_id')
      .where('d.status', 'pending')
      .where('w.active', true)
      .where('d.next_attempt_at', '<=', now)
      .where((q) => q.whereNull('d.locked_until').orWhere('d.locked_until', '<=', now))
      .orderBy([{ column: 'd.next_attempt_at' }, { column: 'd.id' }])
      .limit(limit)
      .forUpdate('d')
      .skipLocked()
      .select<ClaimedDelivery[]>(
        'd.id',
        'd.org_id',
        'd.webhook_id',
        'd.payload',
        'd.attempts',
        'w.url',
        'w.secret',
      );
    if (due.length === 0) return [];
    await trx('webhook_deliveries')
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

/** Records an attempt's outcome on the delivery. */
export async function recordDeliveryAttempt(
  db: Db,
  orgId: string,
  deliveryId: string,
  outcome: Pick<
    DeliveryRow,
    'locked_until' | 'last_status_code' | 'last_response_ms' | 'last_error' | 'updated_at' | 'next_attempt_at'
  > & { status?: DeliveryStatus },
): Promise<void> {
  await db('webhook_deliveries').where({ id: deliveryId, org_id: orgId }).update(outcome);
}
