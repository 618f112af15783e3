import { setSlaPolicy, slaPolicyOf } from '../findings/sla.ts';
import { defineRoute, type AnyRoute } from '../http/contract.ts';
import { SlaPolicy, SlaPolicyChange, SlaPolicyChanged } from '../schemas/settings.ts';

const tags = ['Findings'];

export const getSlaRoute = defineRoute({
  method: 'get',
  path: '/api/v1/settings/sla',
  operationId: 'getSlaPolicy',
  summary: 'The triage policy: due dates by severity, justification rule',
  description:
    'Days from detection to a new finding’s `due_date`, by severity; the defaults (critical 7, high 30, medium 90, low 180) until an admin changes them. Informational findings get no due date. `require_justification`: whether `accepted` and `false_positive` need a justification (default false).',
  tags,
  access: { permission: 'read:findings' },
  responses: { 200: { description: 'The policy', schema: SlaPolicy } },
  handler: async ({ principal, services }) => ({ body: await slaPolicyOf(services.db, principal.org.id) }),
});

export const putSlaRoute = defineRoute({
  method: 'put',
  path: '/api/v1/settings/sla',
  operationId: 'setSlaPolicy',
  summary: 'Change the triage policy',
  description:
    'Replaces the days (every severity), and `require_justification` when given (absent: unchanged). Days apply to findings detected from now on; with `apply_to_open: true` they also move the due dates of open and in-progress findings, and the answer says how many moved in `open_findings_updated` (dates a person set stay). Recorded in the audit trail (`settings.sla_changed`, each changed field `before → after`).',
  tags,
  access: { admin: true, bearerOnly: true },
  body: SlaPolicyChange,
  responses: { 200: { description: 'The policy now in force', schema: SlaPolicyChanged } },
  handler: async ({ body, principal, services }) => ({
    body: await setSlaPolicy(services.db, principal.org.id, body, {
      id: principal.user.id,
      email: principal.user.email,
    }),
  }),
});

export const settingsRoutes: AnyRoute[] = [getSlaRoute, putSlaRoute];
