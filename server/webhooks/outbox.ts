import type { Db } from '../db/index.ts';
import {
  listEventsOfAnyOrganization,
  pruneEventsOfAnyOrganization,
} from '../events/domain-events.repository.ts';
import { presentOutboxEvent, sequenceEvents } from '../events/outbox.ts';
import {
  lockOutboxPosition,
  outboxPosition,
  saveOutboxPosition,
} from '../events/outbox-positions.repository.ts';
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

const isWebhookEvent = (type: string): type is WebhookEvent =>
  (WEBHOOK_EVENTS as readonly string[]).includes(type);

/**
 * Queues one event for every active webhook of the organization subscribed to it,
 * in the caller's transaction. Returns the ids of the queued deliveries. The
 * fan-out below calls it for each webhook event of the domain-event outbox.
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

/** How long numbered events stay in the outbox once webhooks have read them (a stream resumes within it). */
export const EVENT_RETENTION_MS = 7 * 24 * 3600 * 1000;

/**
 * The webhook reader of the domain-event outbox: numbers what committed, then
 * turns the next batch of events into deliveries (the webhook events, for the
 * webhooks subscribed at that moment) and moves its position past the batch, in
 * one transaction, so an event becomes deliveries exactly once. The payload's
 * `timestamp` is the event's time. Answers how many events it read.
 */
export async function dispatchWebhookEvents(db: Db, limit = 500): Promise<number> {
  await sequenceEvents(db);
  return db.transaction(async (trx) => {
    const from = await lockOutboxPosition(trx, 'webhooks');
    const upto = await outboxPosition(trx, 'sequence');
    const events = await listEventsOfAnyOrganization(trx, from, upto, limit);
    if (events.length === 0) return 0;
    for (const row of events) {
      if (!isWebhookEvent(row.type)) continue;
      const event = presentOutboxEvent(row);
      await enqueueWebhookEvent(trx, row.org_id, row.type, event.data, row.created_at);
    }
    await saveOutboxPosition(trx, 'webhooks', events.at(-1)!.seq);
    return events.length;
  });
}

/** Deletes events older than the retention that webhooks and notifications have read. Answers how many. */
export async function pruneOutbox(db: Db, now = new Date()): Promise<number> {
  // Both durable readers (webhooks, notifications/dispatch.ts) must have read an event.
  const read = Math.min(await outboxPosition(db, 'webhooks'), await outboxPosition(db, 'notifications'));
  return pruneEventsOfAnyOrganization(db, new Date(now.getTime() - EVENT_RETENTION_MS), read);
}
