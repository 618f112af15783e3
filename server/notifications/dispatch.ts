import type { Db } from '../db/index.ts';
import { listEventsOfAnyOrganization } from '../events/domain-events.repository.ts';
import { presentOutboxEvent, sequenceEvents, type OutboxEvent } from '../events/outbox.ts';
import {
  lockOutboxPosition,
  outboxPosition,
  saveOutboxPosition,
} from '../events/outbox-positions.repository.ts';
import { findIntegration } from './integrations.repository.ts';
import { noticeOf } from './formats.ts';
import { rulesForEvent } from './notification-rules.repository.ts';
import { queueMessage } from './outbox.ts';
import { queueTicketMoves, queueTicketOpen } from './tickets.ts';

/**
 * The notification reader of the domain-event outbox (docs/integrations.md, "Delivery"), the
 * way webhooks read it (webhooks/outbox.ts): in one transaction it locks its position, reads
 * the next numbered events, queues what the organization's rules ask for and the ticket
 * moves the finding events call for, and moves its position past them. Each message's key
 * names its event (`event:<seq>:<integration>`), so an event becomes at most one message per
 * integration, however many rules match and however many processes read.
 */

export const NOTIFIED_EVENTS = [
  'vulnerability.found',
  'vulnerability.critical',
  'scan.failed',
  'sla.breached',
] as const;
const SEVERITY_RANK: Record<string, number> = { info: 0, low: 1, medium: 2, high: 3, critical: 4 };

async function notify(
  trx: Db,
  key: Buffer,
  orgId: string,
  event: OutboxEvent,
  publicUrl: string,
  now: Date,
): Promise<void> {
  if (!(NOTIFIED_EVENTS as readonly string[]).includes(event.type)) return;
  const rules = await rulesForEvent(trx, orgId, event.type);
  const severity = typeof event.data.severity === 'string' ? event.data.severity : undefined;
  for (const rule of rules) {
    if (severity !== undefined && (SEVERITY_RANK[severity] ?? 0) < (SEVERITY_RANK[rule.min_severity] ?? 0))
      continue;
    const integration = await findIntegration(trx, orgId, rule.integration_id);
    if (!integration) continue;
    if (rule.action === 'ticket') {
      if (event.type !== 'scan.failed' && event.subject_id) {
        await queueTicketOpen(trx, key, orgId, event.subject_id, integration.id, now);
      }
      continue;
    }
    const notice = noticeOf(event, publicUrl);
    if (!notice) continue;
    // A finding found is one message, though it may come as vulnerability.found and
    // vulnerability.critical (appended together, at one time) to rules of one integration.
    const found = event.type === 'vulnerability.found' || event.type === 'vulnerability.critical';
    await queueMessage(
      trx,
      key,
      orgId,
      {
        kind: 'chat',
        integrationId: integration.id,
        dedupeKey: found
          ? `found:${event.subject_id}:${event.timestamp}:${integration.id}`
          : `event:${event.seq}:${integration.id}`,
        summary: `${event.type}: ${notice.headline}`,
        payload: { notice },
      },
      now,
    );
  }
}

export async function dispatchNotificationEvents(
  db: Db,
  key: Buffer,
  publicUrl: string,
  limit = 500,
  now = new Date(),
): Promise<number> {
  await sequenceEvents(db);
  return db.transaction(async (trx) => {
    const from = await lockOutboxPosition(trx, 'notifications');
    const upto = await outboxPosition(trx, 'sequence');
    const rows = await listEventsOfAnyOrganization(trx, from, upto, limit);
    if (rows.length === 0) return 0;
    for (const row of rows) {
      const event = presentOutboxEvent(row);
      await notify(trx, key, row.org_id, event, publicUrl, now);
      await queueTicketMoves(trx, key, row.org_id, event, now);
    }
    await saveOutboxPosition(trx, 'notifications', rows.at(-1)!.seq);
    return rows.length;
  });
}
