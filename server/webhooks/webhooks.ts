import { sealSecret } from '../auth/keys.ts';
import type { Db } from '../db/index.ts';
import { conflict, notFound, validationError } from '../errors.ts';
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

/** Webhook registrations and their delivery log; every query is scoped to one organization. */

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

export async function createWebhook(
  services: Services,
  orgId: string,
  userId: string,
  input: { url: string; events: string[]; secret?: string | undefined },
) {
  if (input.secret !== undefined && !isValidWebhookSecret(input.secret)) {
    throw validationError('secret', 'secret: must be whsec_ followed by base64 of 24 to 64 bytes');
  }
  const { url } = await checkWebhookUrl(input.url, services.config.webhookAllowPrivate);
  const secret = input.secret ?? generateWebhookSecret();
  const row = await insertWebhookUnlessUrlTaken(services.db, orgId, {
    id: newId('wh'),
    created_by: userId,
    url: url.toString(),
    events: input.events,
    secret: sealSecret(services.keys.encryptionKey, secret),
  });
  if (!row) throw conflict('a webhook with this URL is already registered');
  return { ...presentWebhook(row), secret };
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

export async function deleteWebhook(db: Db, orgId: string, id: string) {
  if (!(await deleteWebhookRow(db, orgId, id))) throw notFound('webhook');
  return { id, deleted: true as const };
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
export async function redeliver(db: Db, orgId: string, webhookId: string, deliveryId: string) {
  return db.transaction(async (trx) => {
    await findWebhookRow(trx, orgId, webhookId);
    const now = new Date();
    const row = await requeueDelivery(trx, orgId, webhookId, deliveryId, now);
    if (!row) throw notFound('delivery');
    await reactivateWebhook(trx, orgId, webhookId, now);
    return presentDelivery(row);
  });
}
