import type { Knex } from 'knex';
import { newId } from '../identity/ids.ts';

export const WEBHOOK_EVENTS = [
  'scan.started',
  'scan.completed',
  'scan.failed',
  'vulnerability.critical',
  'vulnerability.found',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/**
 * Queues an event for every active webhook of the organization subscribed to it.
 * Call it with the transaction that records the event itself (the outbox
 * pattern): the event and its deliveries commit together or not at all, so a
 * process that dies afterwards loses nothing; the delivery worker sends them.
 * Returns the ids of the queued deliveries.
 */
export async function enqueueWebhookEvent(
  trx: Knex | Knex.Transaction,
  orgId: string,
  event: WebhookEvent,
  data: Record<string, unknown>,
  now = new Date(),
): Promise<string[]> {
  const hooks = (await trx('webhooks')
    .where({ org_id: orgId, active: true })
    .whereRaw('? = any(events)', [event])
    .select('id')) as { id: string }[];
  if (hooks.length === 0) return [];
  const payload = JSON.stringify({ type: event, timestamp: now.toISOString(), data });
  const rows = hooks.map((h) => ({
    id: newId('whd'),
    org_id: orgId,
    webhook_id: h.id,
    event,
    payload,
    status: 'pending',
    attempts: 0,
    next_attempt_at: now,
    created_at: now,
    updated_at: now,
  }));
  await trx('webhook_deliveries').insert(rows);
  return rows.map((r) => r.id);
}
