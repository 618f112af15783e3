import { sealSecret } from '../auth/keys.ts';
import type { Db } from '../db/index.ts';
import { conflict, notFound, validationError } from '../errors.ts';
import { recordAuditEvent, type AuditPerson } from '../identity/audit.ts';
import { newId } from '../identity/ids.ts';
import { pageOf, type PageOf } from '../schemas/common.ts';
import type { Services } from '../services.ts';
import { generateWebhookSecret, isValidWebhookSecret } from './secrets.ts';
import { checkWebhookUrl } from './url-policy.ts';
import {
  countDeliveries,
  listDeliveries as listDeliveryRows,
  requeueDelivery,
  type DeliveryRow,
} from './webhook-deliveries.repository.ts';
import {
  countWebhooks,
  deleteWebhook as deleteWebhookRow,
  findWebhook,
  insertWebhookUnlessUrlTaken,
  listWebhooks as listWebhookRows,
  reactivateWebhook,
  type WebhookRow,
} from './webhooks.repository.ts';

/**
 * Webhook registrations and their delivery log; every query is scoped to one organization.
 * Creating, changing (a redelivery re-enabling it) and deleting a webhook are audit events
 * (`webhook.created`, `webhook.updated`, `webhook.deleted`) naming its receiver's host and its
 * events: never the secret, nor the full URL (receivers such as chat services keep a token in it).
 */

export function presentWebhook(row: WebhookRow) {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    active: row.active,
    disabled_reason: row.disabled_reason,
    created_at: row.created_at.toISOString(),
  };
}

export function presentDelivery(row: DeliveryRow) {
  return {
    id: row.id,
    webhook_id: row.webhook_id,
    event: row.event,
    status: row.status,
    status_code: row.last_status_code,
    attempts: row.attempts,
    next_retry_at: row.status === 'pending' && row.next_attempt_at ? row.next_attempt_at.toISOString() : null,
    response_time_ms: row.last_response_ms,
    error: row.last_error,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The service disabled a webhook (its receiver is gone, or kept failing): `webhook.updated`, no actor. */
export async function auditWebhookDisabled(
  db: Db,
  orgId: string,
  id: string,
  webhook: Pick<WebhookRow, 'url' | 'events'>,
  reason: string,
  now: Date,
): Promise<void> {
  await recordAuditEvent(
    db,
    {
      orgId,
      action: 'webhook.updated',
      target: { id, email: null },
      details: { ...auditedWebhook(webhook), active: 'true → false', reason },
    },
    now,
  );
}

/** What the audit trail says of a webhook: its receiver's host and its events. */
function auditedWebhook(row: Pick<WebhookRow, 'url' | 'events'>): Record<string, string> {
  let host = '';
  try {
    host = new URL(row.url).host;
  } catch {
    // a stored URL always parses; no host is said otherwise
  }
  return { host, events: row.events.join(' ') };
}

export async function createWebhook(
  services: Services,
  orgId: string,
  actor: AuditPerson,
  input: { url: string; events: string[]; secret?: string | undefined },
) {
  if (input.secret !== undefined && !isValidWebhookSecret(input.secret)) {
    throw validationError('secret', 'secret: must be whsec_ followed by base64 of 24 to 64 bytes');
  }
  const { url } = await checkWebhookUrl(input.url, services.config.webhookAllowPrivate);
  const secret = input.secret ?? generateWebhookSecret();
  return services.db.transaction(async (trx) => {
    const row = await insertWebhookUnlessUrlTaken(trx, orgId, {
      id: newId('wh'),
      created_by: actor.id,
      url: url.toString(),
      events: input.events,
      secret: sealSecret(services.keys.encryptionKey, secret),
    });
    if (!row) throw conflict('a webhook with this URL is already registered');
    await recordAuditEvent(trx, {
      orgId,
      action: 'webhook.created',
      actor,
      target: { id: row.id, email: null },
      details: { ...auditedWebhook(row), secret: input.secret === undefined ? 'generated' : 'given' },
    });
    return { ...presentWebhook(row), secret };
  });
}

async function findWebhookRow(db: Db, orgId: string, id: string): Promise<WebhookRow> {
  const row = await findWebhook(db, orgId, id);
  if (!row) throw notFound('webhook');
  return row;
}

export async function getWebhook(db: Db, orgId: string, id: string) {
  return presentWebhook(await findWebhookRow(db, orgId, id));
}

export async function listWebhooks(db: Db, orgId: string, page: number, perPage: number) {
  const total = await countWebhooks(db, orgId);
  const rows = await listWebhookRows(db, orgId, { limit: perPage, offset: (page - 1) * perPage });
  return pageOf(rows.map(presentWebhook), total, page, perPage);
}

export async function deleteWebhook(db: Db, orgId: string, actor: AuditPerson, id: string) {
  return db.transaction(async (trx) => {
    const row = await findWebhookRow(trx, orgId, id);
    if (!(await deleteWebhookRow(trx, orgId, id))) throw notFound('webhook');
    await recordAuditEvent(trx, {
      orgId,
      action: 'webhook.deleted',
      actor,
      target: { id, email: null },
      details: auditedWebhook(row),
    });
    return { id, deleted: true as const };
  });
}

export async function listDeliveries(
  db: Db,
  orgId: string,
  webhookId: string,
  page: number,
  perPage: number,
): Promise<PageOf<ReturnType<typeof presentDelivery>>> {
  await findWebhookRow(db, orgId, webhookId);
  const total = await countDeliveries(db, orgId, webhookId);
  const rows = await listDeliveryRows(db, orgId, webhookId, { limit: perPage, offset: (page - 1) * perPage });
  return pageOf(rows.map(presentDelivery), total, page, perPage);
}

/**
 * Queues a delivery again, now, keeping its id (the `webhook-id` receivers
 * de-duplicate on) and its attempt count; a disabled webhook is re-enabled,
 * since asking for a redelivery says the receiver is back.
 */
export async function redeliver(
  db: Db,
  orgId: string,
  actor: AuditPerson,
  webhookId: string,
  deliveryId: string,
) {
  return db.transaction(async (trx) => {
    const webhook = await findWebhookRow(trx, orgId, webhookId);
    const now = new Date();
    const row = await requeueDelivery(trx, orgId, webhookId, deliveryId, now);
    if (!row) throw notFound('delivery');
    await reactivateWebhook(trx, orgId, webhookId, now);
    if (!webhook.active) {
      await recordAuditEvent(
        trx,
        {
          orgId,
          action: 'webhook.updated',
          actor,
          target: { id: webhookId, email: null },
          details: { ...auditedWebhook(webhook), active: 'false → true' },
        },
        now,
      );
    }
    return presentDelivery(row);
  });
}
