import { setSlaPolicy, slaPolicyOf } from '../findings/sla.ts';
import { defineRoute, type AnyRoute } from '../http/contract.ts';
import { SlaPolicy, SlaPolicyChange, SlaPolicyChanged } from '../schemas/settings.ts';

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
    'Replaces the policy (every severity). Applies to findings detected from now on; with `apply_to_open: true` it also moves the due dates of open and in-progress findings to the new policy, and answers how many moved in `open_findings_updated`. Dates a person set stay.',
  tags,
  access: { admin: true, bearerOnly: true },
  body: SlaPolicyChange,
  responses: { 200: { description: 'The policy now in force', schema: SlaPolicyChanged } },
  handler: async ({ body, principal, services }) => {
    const { apply_to_open: applyToOpen = false, ...policy } = body;
    return {
      body: await setSlaPolicy(
        services.db,
        principal.org.id,
        policy,
        principal.user.email,
        new Date(),
        applyToOpen,
      ),
    };
  },
});

export const settingsRoutes: AnyRoute[] = [getSlaRoute, putSlaRoute];
