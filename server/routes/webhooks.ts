import { z } from 'zod';
import { defineRoute } from '../http/contract.ts';
import type { Principal } from '../policies/principal.ts';
import { IdParam, paginated, PaginationQuery } from '../schemas/common.ts';
import { CreatedWebhook, CreateWebhookRequest, Webhook, WebhookDelivery } from '../schemas/webhooks.ts';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  redeliver,
} from '../webhooks/webhooks.ts';

/** Webhooks are managed by admins with a bearer token (decisions.md, "Authentication"). */
const access = { bearerOnly: true, admin: true } as const;
const tags = ['Webhooks'];
/** Who the audit trail names for a change of a webhook. */
const actorOf = (principal: Principal) => ({ id: principal.user.id, email: principal.user.email });
const WebhookParams = z.object({ webhook_id: IdParam('webhook', 'wh_3k2j4h5g6f7d8s9a0p1o2i3u') });

export const createWebhookRoute = defineRoute({
  method: 'post',
  path: '/api/v1/webhooks',
  operationId: 'createWebhook',
  summary: 'Register a webhook',
  description:
    'Deliveries follow the Standard Webhooks specification (`webhook-id`, `webhook-timestamp`, `webhook-signature`). ' +
    'The secret is shown only in this response.',
  tags,
  access,
  body: CreateWebhookRequest,
  responses: { 201: { description: 'Registered', schema: CreatedWebhook } },
  errors: ['CONFLICT'],
  handler: async ({ body, principal, services }) => ({
    body: await createWebhook(services, principal.org.id, actorOf(principal), body),
  }),
});

export const listWebhooksRoute = defineRoute({
  method: 'get',
  path: '/api/v1/webhooks',
  operationId: 'listWebhooks',
  summary: 'List webhooks',
  tags,
  access,
  query: PaginationQuery,
  responses: {
    200: { description: 'Webhooks of the organization', schema: paginated(Webhook, 'WebhookPage') },
  },
  handler: async ({ query, principal, services }) => ({
    body: await listWebhooks(services.db, principal.org.id, query.page, query.per_page),
  }),
});

export const getWebhookRoute = defineRoute({
  method: 'get',
  path: '/api/v1/webhooks/{webhook_id}',
  operationId: 'getWebhook',
  summary: 'Get a webhook',
  tags,
  access,
  params: WebhookParams,
  responses: { 200: { description: 'The webhook', schema: Webhook } },
  errors: ['NOT_FOUND'],
  handler: async ({ params, principal, services }) => ({
    body: await getWebhook(services.db, principal.org.id, params.webhook_id),
  }),
});

export const deleteWebhookRoute = defineRoute({
  method: 'delete',
  path: '/api/v1/webhooks/{webhook_id}',
  operationId: 'deleteWebhook',
  summary: 'Delete a webhook',
  tags,
  access,
  params: WebhookParams,
  responses: {
    200: { description: 'Deleted', schema: z.object({ id: z.string(), deleted: z.literal(true) }) },
  },
  errors: ['NOT_FOUND'],
  handler: async ({ params, principal, services }) => ({
    body: await deleteWebhook(services.db, principal.org.id, actorOf(principal), params.webhook_id),
  }),
});

export const listDeliveriesRoute = defineRoute({
  method: 'get',
  path: '/api/v1/webhooks/{webhook_id}/deliveries',
  operationId: 'listWebhookDeliveries',
  summary: 'Delivery log of a webhook',
  tags,
  access,
  params: WebhookParams,
  query: PaginationQuery,
  responses: {
    200: {
      description: 'Deliveries, newest first',
      schema: paginated(WebhookDelivery, 'WebhookDeliveryPage'),
    },
  },
  errors: ['NOT_FOUND'],
  handler: async ({ params, query, principal, services }) => ({
    body: await listDeliveries(services.db, principal.org.id, params.webhook_id, query.page, query.per_page),
  }),
});

export const redeliverRoute = defineRoute({
  method: 'post',
  path: '/api/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver',
  operationId: 'redeliverWebhookDelivery',
  summary: 'Send a delivery again',
  description: 'Queues the delivery again now, with the same `webhook-id`.',
  tags,
  access,
  params: WebhookParams.extend({ delivery_id: IdParam('delivery', 'whd_0a1b2c3d4e5f6g7h8i9j0k1l') }),
  responses: { 200: { description: 'Queued again', schema: WebhookDelivery } },
  errors: ['NOT_FOUND'],
  handler: async ({ params, principal, services }) => ({
    body: await redeliver(
      services.db,
      principal.org.id,
      actorOf(principal),
      params.webhook_id,
      params.delivery_id,
    ),
  }),
});

export const webhookRoutes = [
  createWebhookRoute,
  listWebhooksRoute,
  getWebhookRoute,
  deleteWebhookRoute,
  listDeliveriesRoute,
  redeliverRoute,
];
