import type { Knex } from 'knex';
import { sealSecret } from '../auth/keys.ts';
import { conflict, notFound, validationError } from '../http/errors.ts';
import { newId } from '../identity/ids.ts';
import { pageOf, type PageOf } from '../schemas/common.ts';
import type { Services } from '../services.ts';
import { generateWebhookSecret, isValidWebhookSecret } from './secrets.ts';
import { checkWebhookUrl } from './url-policy.ts';

/** Webhook registrations and their delivery log; every query is scoped to one organization. */

interface WebhookRow {
  id: string;
  org_id: string;
  url: string;
  events: string[];
  active: boolean;
  disabled_reason: string | null;
  created_at: Date;
}

interface DeliveryRow {
  id: string;
  webhook_id: string;
  event: string;
  status: string;
  attempts: number;
  next_attempt_at: Date | null;
  last_status_code: number | null;
  last_response_ms: number | null;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
}

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
  const rows = (await services
    .db('webhooks')
    .insert({
      id: newId('wh'),
      org_id: orgId,
      created_by: userId,
      url: url.toString(),
      events: input.events,
      secret: sealSecret(services.keys.encryptionKey, secret),
    })
    .onConflict(['org_id', 'url'])
    .ignore()
    .returning('*')) as WebhookRow[];
  if (rows.length === 0) throw conflict('a webhook with this URL is already registered');
  return { ...presentWebhook(rows[0]!), secret };
}

async function findWebhookRow(db: Knex, orgId: string, id: string): Promise<WebhookRow> {
  const row = (await db('webhooks').where({ org_id: orgId, id }).first()) as WebhookRow | undefined;
  if (!row) throw notFound('webhook');
  return row;
}

export async function getWebhook(db: Knex, orgId: string, id: string) {
  return presentWebhook(await findWebhookRow(db, orgId, id));
}

export async function listWebhooks(db: Knex, orgId: string, page: number, perPage: number) {
  const [{ total }] = (await db('webhooks')
    .where({ org_id: orgId })
    .select(db.raw('count(*)::int as total'))) as [{ total: number }];
  const rows = (await db('webhooks')
    .where({ org_id: orgId })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(perPage)
    .offset((page - 1) * perPage)) as WebhookRow[];
  return pageOf(rows.map(presentWebhook), total, page, perPage);
}

export async function deleteWebhook(db: Knex, orgId: string, id: string) {
  const deleted = await db('webhooks').where({ org_id: orgId, id }).delete();
  if (deleted === 0) throw notFound('webhook');
  return { id, deleted: true as const };
}

export async function listDeliveries(
  db: Knex,
  orgId: string,
  webhookId: string,
  page: number,
  perPage: number,
): Promise<PageOf<ReturnType<typeof presentDelivery>>> {
  await findWebhookRow(db, orgId, webhookId);
  const scope = { org_id: orgId, webhook_id: webhookId };
  const [{ total }] = (await db('webhook_deliveries')
    .where(scope)
    .select(db.raw('count(*)::int as total'))) as [{ total: number }];
  const rows = (await db('webhook_deliveries')
    .where(scope)
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(perPage)
    .offset((page - 1) * perPage)) as DeliveryRow[];
  return pageOf(rows.map(presentDelivery), total, page, perPage);
}

/**
 * Queues a delivery again, now, keeping its id (the `webhook-id` receivers
 * de-duplicate on) and its attempt count; a disabled webhook is re-enabled,
 * since asking for a redelivery says the receiver is back.
 */
export async function redeliver(db: Knex, orgId: string, webhookId: string, deliveryId: string) {
  return db.transaction(async (trx) => {
    await findWebhookRow(trx, orgId, webhookId);
    const now = new Date();
    const [row] = (await trx('webhook_deliveries')
      .where({ org_id: orgId, webhook_id: webhookId, id: deliveryId })
      .update({ status: 'pending', next_attempt_at: now, locked_until: null, updated_at: now })
      .returning('*')) as DeliveryRow[];
    if (!row) throw notFound('delivery');
    await trx('webhooks')
      .where({ org_id: orgId, id: webhookId, active: false })
      .update({ active: true, disabled_reason: null, failing_since: null, updated_at: now });
    return presentDelivery(row);
  });
}
