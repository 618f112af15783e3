import type { Db } from '../db/index.ts';
import { newId } from '../identity/ids.ts';
import { insertDeliveries } from './webhook-deliveries.repository.ts';
import { subscribedWebhookIds } from './webhooks.repository.ts';

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
  trx: Db,
  orgId: string,
  event: WebhookEvent,
  data: Record<string, unknown>,
  now = new Date(),
): Promise<string[]> {
  const hookIds = await subscribedWebhookIds(trx, orgId, event);
  if (hookIds.length === 0) return [];
  const payload = JSON.stringify({ type: event, timestamp: now.toISOString(), data });
  const rows = hookIds.map((webhookId) => ({
    id: newId('whd'),
    org_id: orgId,
    webhook_id: webhookId,
    event,
    payload,
    status: 'pending' as const,
    attempts: 0,
    next_attempt_at: now,
    created_at: now,
    updated_at: now,
  }));
  await insertDeliveries(trx, rows);
  return rows.map((r) => r.id);
}
