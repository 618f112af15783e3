import type { Knex } from 'knex';
import type { Db } from '../db/index.ts';

/** The `webhooks` table: an organization's registered receivers; every query is scoped by organization. */

export interface WebhookRow {
  id: string;
  org_id: string;
  /** The user who registered it; null once that user is deleted. */
  created_by: string | null;
  url: string;
  events: string[];
  /** Sealed (AES-256-GCM, auth/keys.ts). */
  secret: string;
  active: boolean;
  disabled_reason: string | null;
  /** Since when deliveries have kept failing; null while they succeed. */
  failing_since: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** The columns an insert must give; the others have defaults (active, now). */
export type NewWebhookRow = Pick<WebhookRow, 'id' | 'org_id' | 'url' | 'events' | 'secret'> &
  Partial<Omit<WebhookRow, 'id' | 'org_id' | 'url' | 'events' | 'secret'>>;

declare module 'knex/types/tables.js' {
  interface Tables {
    webhooks: Knex.CompositeTableType<WebhookRow, NewWebhookRow, Partial<WebhookRow>>;
  }
}

/** Registers a webhook; undefined when the organization already has one for the URL. */
export async function insertWebhookUnlessUrlTaken(
  db: Db,
  orgId: string,
  row: Omit<NewWebhookRow, 'org_id'>,
): Promise<WebhookRow | undefined> {
  const [created] = await db('webhooks')
    .insert({ ...row, org_id: orgId })
    .onConflict(['org_id', 'url'])
    .ignore()
    .returning('*');
  return created;
}

export async function findWebhook(db: Db, orgId: string, id: string): Promise<WebhookRow | undefined> {
  return db('webhooks').where({ org_id: orgId, id }).first();
}

export async function countWebhooks(db: Db, orgId: string): Promise<number> {
  const [row] = await db('webhooks')
    .where({ org_id: orgId })
    .select<{ total: number }[]>(db.raw('count(*)::int as total'));
  return row?.total ?? 0;
}

/** A page of the organization's webhooks, newest first, ties broken by id. */
export async function listWebhooks(
  db: Db,
  orgId: string,
  page: { limit: number; offset: number },
): Promise<WebhookRow[]> {
  return db('webhooks')
    .where({ org_id: orgId })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(page.limit)
    .offset(page.offset);
}

/** Deletes the webhook (its deliveries go with it); answers whether there was one. */
export async function deleteWebhook(db: Db, orgId: string, id: string): Promise<boolean> {
  return (await db('webhooks').where({ org_id: orgId, id }).delete()) > 0;
}

/** Re-enables a disabled webhook and forgets its failures; an active one is left as it is. */
export async function reactivateWebhook(db: Db, orgId: string, id: string, now: Date): Promise<void> {
  await db('webhooks')
    .where({ org_id: orgId, id, active: false })
    .update({ active: true, disabled_reason: null, failing_since: null, updated_at: now });
}

/** The organization's active webhooks subscribed to the event. */
export async function subscribedWebhookIds(db: Db, orgId: string, event: string): Promise<string[]> {
  const rows = await db('webhooks')
    .where({ org_id: orgId, active: true })
    .whereRaw('? = any(events)', [event])
    .select('id');
  return rows.map((r) => r.id);
}

/** Whether any active webhook of the organization is subscribed to one of the events. */
export async function anyWebhookSubscribed(
  db: Db,
  orgId: string,
  events: readonly string[],
): Promise<boolean> {
  if (events.length === 0) return false;
  const row = await db('webhooks')
    .where({ org_id: orgId, active: true })
    .whereRaw(`events && array[${events.map(() => '?').join(', ')}]::text[]`, [...events])
    .first('id');
  return row !== undefined;
}

/**
 * Since when the webhook's deliveries have kept failing (null: they succeed), whether it is active,
 * and what the audit trail says of it (its URL and events); undefined when it is gone.
 */
export async function findWebhookFailingSince(
  db: Db,
  orgId: string,
  id: string,
): Promise<Pick<WebhookRow, 'failing_since' | 'active' | 'url' | 'events'> | undefined> {
  return db('webhooks').where({ org_id: orgId, id }).first('failing_since', 'active', 'url', 'events');
}

/** A delivery succeeded: the webhook is no longer failing. */
export async function clearWebhookFailure(db: Db, orgId: string, id: string): Promise<void> {
  await db('webhooks').where({ org_id: orgId, id }).update({ failing_since: null });
}

/** A delivery failed: records since when the webhook has been failing, and disables it when told why. */
export async function recordWebhookFailure(
  db: Db,
  orgId: string,
  id: string,
  failure: { failingSince: Date; disabledReason: string | undefined },
  now: Date,
): Promise<void> {
  await db('webhooks')
    .where({ org_id: orgId, id })
    .update({
      failing_since: failure.failingSince,
      ...(failure.disabledReason ? { active: false, disabled_reason: failure.disabledReason } : {}),
      updated_at: now,
    });
}
