import { defineRoute } from '../http/contract.ts';
import { deliverNow } from '../notifications/delivery.ts';
import { findingTickets, requestTicket } from '../notifications/tickets.ts';
import { FindingIdParams } from '../schemas/findings.ts';
import { CreateTicketRequest, TicketQueued } from '../schemas/integrations.ts';

/** Tickets for findings in GitHub or Jira (docs/integrations.md, "Tickets"). */
const tags = ['Findings'];

export const createFindingTicketRoute = defineRoute({
  method: 'post',
  path: '/api/v1/findings/{finding_id}/tickets',
  operationId: 'createFindingTicket',
  summary: 'Open a ticket for the finding (GitHub or Jira)',
  description:
    'Title, severity, affected component, evidence summary, remediation and a link back. Tried at once: 201 with ' +
    'the ticket in `tickets`; a tracker that fails is retried by the outbox (202, `queued: true`; the ticket ' +
    "appears in the finding's `tickets` once made). " +
    'A finding has at most one ticket per integration.',
  tags,
  access: { permission: 'write:findings' },
  params: FindingIdParams,
  body: CreateTicketRequest,
  responses: {
    201: { description: 'Opened (or opened before)', schema: TicketQueued },
    202: { description: 'Queued: the tracker did not answer yet; retried', schema: TicketQueued },
  },
  errors: ['NOT_FOUND'],
  handler: async ({ params, body, principal, services }) => {
    const orgId = principal.org.id;
    const id = await requestTicket(services, orgId, params.finding_id, body.integration_id);
    if (id) await deliverNow(services, orgId, id);
    const tickets = await findingTickets(services.db, orgId, params.finding_id);
    const made = tickets.some((t) => t.integration_id === body.integration_id);
    return { status: made ? 201 : 202, body: { queued: !made, delivery_id: id ?? null, tickets } };
  },
});

export const findingTicketRoutes = [createFindingTicketRoute];
