import { z } from 'zod';
import { defineRoute } from '../http/contract.ts';
import { createRule, deleteRule, listDeliveries, listRules, retryDelivery } from '../notifications/rules.ts';
import { IdParam, PaginationQuery } from '../schemas/common.ts';
import {
  CreateNotificationRuleRequest,
  NotificationDelivery,
  NotificationDeliveryList,
  NotificationDeliveryQuery,
  NotificationRule,
  NotificationRuleList,
} from '../schemas/integrations.ts';

/** Notification rules and the notification deliveries (with the dead letters). */
const admin = { bearerOnly: true, admin: true } as const;
const tags = ['Integrations'];
const RuleParams = z.object({ rule_id: IdParam('notification rule', 'nrule_3k2j4h5g6f7d8s9a0p1o2i3u') });
const DeliveryParams = z.object({
  message_id: IdParam('notification delivery', 'msg_3k2j4h5g6f7d8s9a0p1o2i3u'),
});

export const createNotificationRuleRoute = defineRoute({
  method: 'post',
  path: '/api/v1/notification-rules',
  operationId: 'createNotificationRule',
  summary: 'Add a notification rule',
  description:
    'Events `vulnerability.found`, `scan.failed`, `sla.breached` from `min_severity` on (scan events have none) ' +
    'go to the integration: one message per event (Slack blocks, a Teams card, an e-mail), or with ' +
    '`action: ticket` a ticket per finding (GitHub, Jira).',
  tags,
  access: admin,
  body: CreateNotificationRuleRequest,
  responses: { 201: { description: 'Added', schema: NotificationRule } },
  handler: async ({ body, principal, services }) => ({
    body: await createRule(services.db, principal.org.id, principal.user.id, body),
  }),
});

export const listNotificationRulesRoute = defineRoute({
  method: 'get',
  path: '/api/v1/notification-rules',
  operationId: 'listNotificationRules',
  summary: 'List notification rules',
  tags,
  access: admin,
  query: PaginationQuery,
  responses: { 200: { description: 'Rules of the organization', schema: NotificationRuleList } },
  handler: async ({ query, principal, services }) => ({
    body: await listRules(services.db, principal.org.id, query.page, query.per_page),
  }),
});

export const deleteNotificationRuleRoute = defineRoute({
  method: 'delete',
  path: '/api/v1/notification-rules/{rule_id}',
  operationId: 'deleteNotificationRule',
  summary: 'Remove a notification rule',
  tags,
  access: admin,
  params: RuleParams,
  responses: {
    200: { description: 'Removed', schema: z.object({ id: z.string(), deleted: z.literal(true) }) },
  },
  errors: ['NOT_FOUND'],
  handler: async ({ params, principal, services }) => ({
    body: await deleteRule(services.db, principal.org.id, params.rule_id),
  }),
});

export const listNotificationDeliveriesRoute = defineRoute({
  method: 'get',
  path: '/api/v1/notification-deliveries',
  operationId: 'listNotificationDeliveries',
  summary: 'List notification deliveries (e-mails, chat messages, tracker calls)',
  description: '`status=dead`: the dead letters, which failed their last retry or were refused for good.',
  tags,
  access: admin,
  query: NotificationDeliveryQuery,
  responses: { 200: { description: 'Deliveries, newest first', schema: NotificationDeliveryList } },
  handler: async ({ query, principal, services }) => ({
    body: await listDeliveries(
      services.db,
      principal.org.id,
      { status: query.status, integrationId: query.integration_id },
      query.page,
      query.per_page,
    ),
  }),
});

export const retryNotificationDeliveryRoute = defineRoute({
  method: 'post',
  path: '/api/v1/notification-deliveries/{message_id}/retry',
  operationId: 'retryNotificationDelivery',
  summary: 'Send a dead delivery again',
  tags,
  access: admin,
  params: DeliveryParams,
  responses: { 200: { description: 'Queued again', schema: NotificationDelivery } },
  errors: ['NOT_FOUND'],
  handler: async ({ params, principal, services }) => ({
    body: await retryDelivery(services.db, principal.org.id, params.message_id),
  }),
});

export const notificationRoutes = [
  createNotificationRuleRoute,
  listNotificationRulesRoute,
  deleteNotificationRuleRoute,
  listNotificationDeliveriesRoute,
  retryNotificationDeliveryRoute,
];
