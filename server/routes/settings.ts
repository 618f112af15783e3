import { setSlaPolicy, slaPolicyOf } from '../findings/sla.ts';
import { defineRoute, type AnyRoute } from '../http/contract.ts';
import { SlaPolicy } from '../schemas/settings.ts';

const tags = ['Findings'];

export const getSlaRoute = defineRoute({
  method: 'get',
  path: '/api/v1/settings/sla',
  operationId: 'getSlaPolicy',
  summary: 'The due-date policy by severity',
  description:
    'Days from detection to a new finding’s `due_date`, by severity; the defaults (critical 7, high 30, medium 90, low 180) until an admin changes them. Informational findings get no due date.',
  tags,
  access: { permission: 'read:findings' },
  responses: { 200: { description: 'The policy', schema: SlaPolicy } },
  handler: async ({ principal, services }) => ({ body: await slaPolicyOf(services.db, principal.org.id) }),
});

export const putSlaRoute = defineRoute({
  method: 'put',
  path: '/api/v1/settings/sla',
  operationId: 'setSlaPolicy',
  summary: 'Change the due-date policy',
  description:
    'Replaces the policy (every severity). Applies to findings detected from now on; existing due dates stay as they are.',
  tags,
  access: { admin: true, bearerOnly: true },
  body: SlaPolicy,
  responses: { 200: { description: 'The policy now in force', schema: SlaPolicy } },
  handler: async ({ body, principal, services }) => ({
    body: await setSlaPolicy(services.db, principal.org.id, body, principal.user.email),
  }),
});

export const settingsRoutes: AnyRoute[] = [getSlaRoute, putSlaRoute];
