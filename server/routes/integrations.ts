import { z } from 'zod';
import { defineRoute } from '../http/contract.ts';
import { readUpload } from '../http/middleware/body.ts';
import { deliverNow } from '../notifications/delivery.ts';
import {
  createIntegration,
  deleteIntegration,
  getIntegration,
  listIntegrations,
  testIntegration,
  updateIntegration,
} from '../notifications/integrations.ts';
import { getDelivery } from '../notifications/rules.ts';
import { receiveTrackerEvent } from '../notifications/tickets.ts';
import { IdParam, PaginationQuery } from '../schemas/common.ts';
import {
  CreatedIntegration,
  CreateIntegrationRequest,
  Integration,
  IntegrationList,
  NotificationDelivery,
  UpdateIntegrationRequest,
} from '../schemas/integrations.ts';

/** Integrations are managed by admins with a bearer token, as webhooks are (docs/integrations.md). */
const access = { bearerOnly: true, admin: true } as const;
const tags = ['Integrations'];
const IntegrationParams = z.object({
  integration_id: IdParam('integration', 'intg_3k2j4h5g6f7d8s9a0p1o2i3u'),
});

export const createIntegrationRoute = defineRoute({
  method: 'post',
  path: '/api/v1/integrations',
  operationId: 'createIntegration',
  summary: 'Add an integration (Slack, Teams, GitHub, Jira, e-mail)',
  description:
    'Secrets (`webhook_url`, `token`, `api_token`) are sealed and never answered. Addresses pass the receiver ' +
    'address policy (public addresses unless SCANWARD_WEBHOOK_ALLOW_PRIVATE). For GitHub and Jira the answer ' +
    "carries, once, the secret the tracker's webhook signs issue events with (`receiver_url`).",
  tags,
  access,
  body: CreateIntegrationRequest,
  responses: { 201: { description: 'Added', schema: CreatedIntegration } },
  errors: ['CONFLICT'],
  handler: async ({ body, principal, services, ctx }) => ({
    body: await createIntegration(services, principal, body, ctx.ip),
  }),
});

export const listIntegrationsRoute = defineRoute({
  method: 'get',
  path: '/api/v1/integrations',
  operationId: 'listIntegrations',
  summary: 'List integrations',
  tags,
  access,
  query: PaginationQuery,
  responses: { 200: { description: 'Integrations of the organization', schema: IntegrationList } },
  handler: async ({ query, principal, services }) => ({
    body: await listIntegrations(services, principal.org.id, query.page, query.per_page),
  }),
});

export const getIntegrationRoute = defineRoute({
  method: 'get',
  path: '/api/v1/integrations/{integration_id}',
  operationId: 'getIntegration',
  summary: 'Get an integration',
  tags,
  access,
  params: IntegrationParams,
  responses: { 200: { description: 'The integration', schema: Integration } },
  errors: ['NOT_FOUND'],
  handler: async ({ params, principal, services }) => ({
    body: await getIntegration(services, principal.org.id, params.integration_id),
  }),
});

export const updateIntegrationRoute = defineRoute({
  method: 'patch',
  path: '/api/v1/integrations/{integration_id}',
  operationId: 'updateIntegration',
  summary: 'Change an integration',
  description: 'The config fields given replace those stored; a secret left out is kept.',
  tags,
  access,
  params: IntegrationParams,
  body: UpdateIntegrationRequest,
  responses: { 200: { description: 'The integration', schema: Integration } },
  errors: ['NOT_FOUND', 'CONFLICT'],
  handler: async ({ params, body, principal, services, ctx }) => ({
    body: await updateIntegration(services, principal, params.integration_id, body, ctx.ip),
  }),
});

export const deleteIntegrationRoute = defineRoute({
  method: 'delete',
  path: '/api/v1/integrations/{integration_id}',
  operationId: 'deleteIntegration',
  summary: 'Remove an integration',
  description: 'Its rules, queued messages and ticket links go with it; the tickets stay in the tracker.',
  tags,
  access,
  params: IntegrationParams,
  responses: {
    200: { description: 'Removed', schema: z.object({ id: z.string(), deleted: z.literal(true) }) },
  },
  errors: ['NOT_FOUND'],
  handler: async ({ params, principal, services, ctx }) => ({
    body: await deleteIntegration(services, principal, params.integration_id, ctx.ip),
  }),
});

export const testIntegrationRoute = defineRoute({
  method: 'post',
  path: '/api/v1/integrations/{integration_id}/test',
  operationId: 'testIntegration',
  summary: 'Send a test',
  description:
    'Chat and e-mail: a test message. GitHub and Jira: a read of the repository or project with the ' +
    'credentials. Sent at once through the outbox; the answer is the delivery as it stands after that try.',
  tags,
  access,
  params: IntegrationParams,
  responses: { 200: { description: 'The test delivery', schema: NotificationDelivery } },
  errors: ['NOT_FOUND'],
  handler: async ({ params, principal, services }) => {
    const { delivery_id } = await testIntegration(services, principal.org.id, params.integration_id);
    await deliverNow(services, principal.org.id, delivery_id);
    return { body: await getDelivery(services.db, principal.org.id, delivery_id) };
  },
});

export const receiveIntegrationEventRoute = defineRoute({
  method: 'post',
  path: '/api/v1/integrations/{integration_id}/events',
  operationId: 'receiveIntegrationEvent',
  summary: "A tracker's issue event (GitHub or Jira webhook)",
  description:
    "No credentials: the body must be signed with the integration's receiver secret (GitHub: " +
    '`X-Hub-Signature-256`; Jira: `X-Hub-Signature`; `sha256=` + HMAC-SHA256 of the raw body). Anything else ' +
    'is 401 and changes nothing. A ticket closed in the tracker resolves its finding; reopened, opens it.',
  tags,
  access: { public: true },
  rateLimited: false,
  params: IntegrationParams,
  responses: {
    200: {
      description: 'Accepted',
      schema: z.object({
        accepted: z.literal(true),
        finding_id: z.string().nullable(),
        status: z.string().nullable(),
      }),
    },
  },
  errors: ['INVALID_TOKEN', 'BAD_REQUEST'],
  handler: async ({ params, services, ctx }) => {
    const { content } = await readUpload(ctx, services.config.bodyLimit);
    const headers: Record<string, string | undefined> = {};
    for (const name of ['x-hub-signature-256', 'x-hub-signature', 'x-github-event']) {
      const value = ctx.get(name);
      if (value) headers[name] = value;
    }
    return { body: await receiveTrackerEvent(services, params.integration_id, headers, content) };
  },
});

export const integrationRoutes = [
  createIntegrationRoute,
  listIntegrationsRoute,
  getIntegrationRoute,
  updateIntegrationRoute,
  deleteIntegrationRoute,
  testIntegrationRoute,
  receiveIntegrationEventRoute,
];
