import { defineRoute } from '../http/contract.ts';
import { listAuditTrail } from '../identity/audit.ts';
import { AuditEventList, AuditEventQuery } from '../schemas/people.ts';

/** The organization's audit trail, read by its admins (issue 22). */

const tags = ['Audit'];

export const listAuditEventsRoute = defineRoute({
  method: 'get',
  path: '/api/v1/audit-events',
  operationId: 'listAuditEvents',
  summary: "List the organization's audit events",
  description:
    'Who invited, changed the role of, disabled, enabled or deleted whom, who changed their password, who ' +
    'signed in and who failed to (a failed log-in of a known e-mail); who accepted a risk or revoked an ' +
    'acceptance (and which lapsed), made or revoked an API key, changed the triage policy, created, changed or ' +
    'deleted a webhook; newest first. Details say what changed, never a secret. Filter by `actor` (user id or ' +
    'e-mail), `action`, `target` (an id, or a person’s e-mail) and `from`/`to` (dates or ISO 8601 date-times). ' +
    'Events are never removed.',
  tags,
  access: { bearerOnly: true, admin: true },
  query: AuditEventQuery,
  responses: { 200: { description: 'Audit events, newest first', schema: AuditEventList } },
  errors: ['INSUFFICIENT_PERMISSION'],
  handler: async ({ principal, query, services }) => ({
    body: await listAuditTrail(services.db, principal.org.id, query),
  }),
});

export const auditEventRoutes = [listAuditEventsRoute];
