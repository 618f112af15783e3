import { createHmac, timingSafeEqual } from 'node:crypto';
import { openSecret } from '../auth/keys.ts';
import type { Db } from '../db/index.ts';
import { AppError, validationError } from '../errors.ts';
import type { OutboxEvent } from '../events/outbox.ts';
import { getFindingDetail } from '../findings/listing.ts';
import { updateFinding } from '../findings/triage.ts';
import type { Ticket } from '../schemas/findings.ts';
import type { Services } from '../services.ts';
import {
  findFindingTicket,
  findTicketByExternalId,
  findTicketByKey,
  openTicketsOfClosedFindings,
  insertFindingTicket,
  setFindingTicketState,
  ticketsOfFinding,
  type FindingTicketRow,
} from './finding-tickets.repository.ts';
import { settingsOf } from './integrations.ts';
import { findIntegration, findIntegrationOfAnyOrganization } from './integrations.repository.ts';
import { consoleLink } from './mail.ts';
import { queueMessage } from './outbox.ts';
import { trackerOf, TrackerError, type TicketContent } from './trackers.ts';

/**
 * Tickets for findings (docs/integrations.md, "Tickets"), kept in step both ways:
 * - opened by a person (`POST /findings/{id}/tickets`) or a rule with `action: ticket`,
 *   once per finding and tracker;
 * - a finding resolved, accepted or marked false positive closes its open tickets with a
 *   comment saying why; reopened (by a person, a scan or a lapsed acceptance) reopens them;
 * - a ticket closed or reopened in the tracker moves the finding (closed → resolved,
 *   reopened → open) through the findings' own triage function, when the tracker's event
 *   carries a valid signature; anything else is 401 and changes nothing.
 * The ticket's `state` is what Scanward last asked for or heard, so a move is made once.
 */

const CLOSING = new Set(['resolved', 'accepted', 'false_positive']);
const REOPENED = new Set(['open', 'in_progress']);

export function presentTicket(row: FindingTicketRow): Ticket {
  return { integration_id: row.integration_id, key: row.key, url: row.url, state: row.state };
}

export async function findingTickets(db: Db, orgId: string, findingId: string): Promise<Ticket[]> {
  return (await ticketsOfFinding(db, orgId, findingId)).map(presentTicket);
}

const notATracker = () =>
  validationError(
    'integration_id',
    'integration_id: must name a GitHub or Jira integration of the organization',
  );

/** Queues the opening of a ticket for the finding; answers the message id (undefined: already asked for). */
export async function requestTicket(
  services: Services,
  orgId: string,
  findingId: string,
  integrationId: string,
): Promise<string | undefined> {
  await getFindingDetail(services.db, orgId, findingId);
  const integration = await findIntegration(services.db, orgId, integrationId);
  if (!integration) throw notATracker();
  if (integration.type !== 'github' && integration.type !== 'jira') throw notATracker();
  return queueTicketOpen(services.db, services.keys.encryptionKey, orgId, findingId, integrationId);
}

export function queueTicketOpen(
  db: Db,
  key: Buffer,
  orgId: string,
  findingId: string,
  integrationId: string,
  now = new Date(),
) {
  return queueMessage(
    db,
    key,
    orgId,
    {
      kind: 'ticket.open',
      integrationId,
      dedupeKey: `ticket:${findingId}:${integrationId}`,
      summary: `open a ticket for ${findingId}`,
      payload: { finding_id: findingId },
    },
    now,
  );
}

const WHY: Record<string, string> = {
  resolved: 'resolved',
  accepted: 'accepted as a risk',
  false_positive: 'marked a false positive',
};

/**
 * The ticket moves a finding event calls for (dispatch.ts, in the outbox reader's
 * transaction): a finding that left the open statuses closes its open tickets, one that came
 * back reopens its closed ones.
 */
export async function queueTicketMoves(
  trx: Db,
  key: Buffer,
  orgId: string,
  event: OutboxEvent,
  now: Date,
): Promise<void> {
  if (event.type === 'scan.completed') {
    await closeTicketsOfResolvedFindings(trx, key, orgId, event.seq, now);
    return;
  }
  const findingId = event.subject_id;
  if (!findingId) return;
  const status = typeof event.data.status === 'string' ? event.data.status : undefined;
  if (!status) return;
  const close = event.type === 'finding.updated' && CLOSING.has(status);
  const reopen =
    (event.type === 'finding.updated' || event.type === 'vulnerability.found') && REOPENED.has(status);
  if (!close && !reopen) return;
  for (const ticket of await ticketsOfFinding(trx, orgId, findingId)) {
    if (close && ticket.state === 'open') {
      const by = typeof event.data.by === 'string' ? ` by ${event.data.by}` : '';
      const justification =
        typeof event.data.justification === 'string' ? `: ${event.data.justification}` : '';
      await setFindingTicketState(trx, orgId, findingId, ticket.integration_id, 'closed', now);
      await queueMessage(
        trx,
        key,
        orgId,
        {
          kind: 'ticket.close',
          integrationId: ticket.integration_id,
          dedupeKey: `event:${event.seq}:close:${ticket.integration_id}`,
          summary: `close ${ticket.key} (finding ${WHY[status]})`,
          payload: {
            finding_id: findingId,
            why: `Scanward: the finding was ${WHY[status]}${by}${justification}.`,
            not_planned: status !== 'resolved',
          },
        },
        now,
      );
    } else if (reopen && ticket.state === 'closed') {
      await setFindingTicketState(trx, orgId, findingId, ticket.integration_id, 'open', now);
      await queueMessage(
        trx,
        key,
        orgId,
        {
          kind: 'ticket.reopen',
          integrationId: ticket.integration_id,
          dedupeKey: `event:${event.seq}:reopen:${ticket.integration_id}`,
          summary: `reopen ${ticket.key} (finding reopened)`,
          payload: {
            finding_id: findingId,
            why:
              event.type === 'vulnerability.found'
                ? 'Scanward: a scan found the weakness again, so the finding is open again.'
                : `Scanward: the finding was reopened${typeof event.data.by === 'string' ? ` by ${event.data.by}` : ''}.`,
          },
        },
        now,
      );
    }
  }
}

/**
 * A completed scan may have resolved findings (no finding event is written for those): their
 * tickets still open are closed, with a comment saying the scan no longer finds the weakness.
 */
async function closeTicketsOfResolvedFindings(trx: Db, key: Buffer, orgId: string, seq: number, now: Date) {
  for (const ticket of await openTicketsOfClosedFindings(trx, orgId, 500)) {
    await setFindingTicketState(trx, orgId, ticket.finding_id, ticket.integration_id, 'closed', now);
    await queueMessage(
      trx,
      key,
      orgId,
      {
        kind: 'ticket.close',
        integrationId: ticket.integration_id,
        dedupeKey: `event:${seq}:close:${ticket.finding_id}:${ticket.integration_id}`,
        summary: `close ${ticket.key} (finding ${WHY[ticket.finding_status] ?? 'resolved'})`,
        payload: {
          finding_id: ticket.finding_id,
          why:
            ticket.finding_status === 'resolved'
              ? 'Scanward: the finding was resolved (the latest scan no longer finds it).'
              : `Scanward: the finding was ${WHY[ticket.finding_status] ?? 'closed'}.`,
          not_planned: ticket.finding_status !== 'resolved',
        },
      },
      now,
    );
  }
}

async function ticketContent(
  db: Db,
  orgId: string,
  findingId: string,
  publicUrl: string,
): Promise<TicketContent> {
  const f = await getFindingDetail(db, orgId, findingId);
  const evidence = [f.evidence.request, f.evidence.response].filter(Boolean).join('\n\n').slice(0, 4000);
  const remediation = [f.remediation.summary, ...f.remediation.steps.map((s, i) => `${i + 1}. ${s}`)]
    .filter(Boolean)
    .join('\n');
  return {
    title: `[Scanward] ${f.title} (${f.affected_component || f.target})`,
    severity: f.severity,
    component: f.affected_component || f.target,
    evidence: evidence || f.description.slice(0, 2000),
    remediation,
    link: consoleLink(publicUrl, `/findings/${f.id}`),
  };
}

/** Performs one queued ticket call (delivery.ts). A finding or ticket gone meanwhile is nothing to do. */
export async function performTicketCall(
  services: Services,
  message: { org_id: string; integration_id: string; kind: string },
  payload: { finding_id: string; why?: string; not_planned?: boolean },
  publicUrl: string,
): Promise<void> {
  const orgId = message.org_id;
  const integration = await findIntegration(services.db, orgId, message.integration_id);
  if (!integration) return;
  const tracker = trackerOf(
    settingsOf(services.keys.encryptionKey, integration),
    services.config.webhookAllowPrivate,
  );
  const existing = await findFindingTicket(services.db, orgId, payload.finding_id, integration.id);
  if (message.kind === 'ticket.open') {
    if (existing) return;
    let content: TicketContent;
    try {
      content = await ticketContent(services.db, orgId, payload.finding_id, publicUrl);
    } catch (err) {
      if (err instanceof AppError && err.status === 404) return;
      throw err;
    }
    const opened = await tracker.open(content);
    await insertFindingTicket(services.db, orgId, {
      org_id: orgId,
      finding_id: payload.finding_id,
      integration_id: integration.id,
      key: opened.key,
      url: opened.url,
      external_id: opened.externalId,
    });
    return;
  }
  if (!existing) return;
  const ref = { key: existing.key, externalId: existing.external_id };
  if (message.kind === 'ticket.close')
    await tracker.close(ref, payload.why ?? 'Closed by Scanward.', payload.not_planned ?? false);
  else await tracker.reopen(ref, payload.why ?? 'Reopened by Scanward.');
}

export { TrackerError };

/** 401 for any event without a valid signature: nothing is read, nothing changes. */
const unsigned = () =>
  new AppError(401, 'INVALID_TOKEN', "the event is not signed with this integration's secret");

function signatureMatches(secret: string, raw: Buffer, header: string | undefined): boolean {
  if (!header) return false;
  const given = header.trim().replace(/^sha256=/i, '');
  if (!/^[0-9a-f]{64}$/i.test(given)) return false;
  const expected = createHmac('sha256', secret).update(raw).digest();
  return timingSafeEqual(expected, Buffer.from(given, 'hex'));
}

interface TrackerMove {
  externalId: string;
  /** Jira's issue key, when the event names it. */
  key?: string;
  state: 'open' | 'closed';
}

/** What a GitHub `issues` event or a Jira issue event says happened to an issue, if it is a move. */
function moveOf(
  type: 'github' | 'jira',
  headers: Record<string, string | undefined>,
  body: unknown,
): TrackerMove | undefined {
  const b = body as Record<string, unknown> | null;
  if (!b || typeof b !== 'object') return undefined;
  if (type === 'github') {
    if (headers['x-github-event'] !== undefined && headers['x-github-event'] !== 'issues') return undefined;
    const issue = b.issue as { number?: unknown } | undefined;
    if (!issue || typeof issue.number !== 'number') return undefined;
    if (b.action === 'closed') return { externalId: String(issue.number), state: 'closed' };
    if (b.action === 'reopened') return { externalId: String(issue.number), state: 'open' };
    return undefined;
  }
  const issue = b.issue as
    { id?: unknown; key?: unknown; fields?: { status?: { statusCategory?: { key?: unknown } } } } | undefined;
  if (!issue || (typeof issue.id !== 'string' && typeof issue.id !== 'number')) return undefined;
  const category = issue.fields?.status?.statusCategory?.key;
  if (typeof category !== 'string') return undefined;
  return { externalId: String(issue.id), state: category === 'done' ? 'closed' : 'open' };
}

/**
 * A tracker's event (`POST /api/v1/integrations/{id}/events`): verified against the
 * integration's receiver secret (GitHub: `X-Hub-Signature-256`; Jira: `X-Hub-Signature`,
 * both `sha256=` + HMAC-SHA256 of the raw body) before anything is read. A move of a ticket
 * Scanward opened changes the finding through the triage function, as a person would.
 */
export async function receiveTrackerEvent(
  services: Services,
  integrationId: string,
  headers: Record<string, string | undefined>,
  raw: Buffer,
  now = new Date(),
): Promise<{ accepted: true; finding_id: string | null; status: string | null }> {
  const integration = await findIntegrationOfAnyOrganization(services.db, integrationId);
  if (
    !integration ||
    !integration.receiver_secret ||
    (integration.type !== 'github' && integration.type !== 'jira')
  ) {
    throw unsigned();
  }
  const secret = openSecret(services.keys.encryptionKey, integration.receiver_secret);
  const header =
    integration.type === 'github'
      ? headers['x-hub-signature-256']
      : (headers['x-hub-signature'] ?? headers['x-hub-signature-256']);
  if (!signatureMatches(secret, raw, header)) throw unsigned();
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new AppError(400, 'BAD_REQUEST', 'the event is not JSON');
  }
  const nothing = { accepted: true as const, finding_id: null, status: null };
  const move = moveOf(integration.type, headers, body);
  if (!move) return nothing;
  const orgId = integration.org_id;
  const ticket =
    (await findTicketByExternalId(services.db, orgId, integration.id, move.externalId)) ??
    (move.key ? await findTicketByKey(services.db, orgId, integration.id, move.key) : undefined);
  if (!ticket) return nothing;
  await setFindingTicketState(services.db, orgId, ticket.finding_id, integration.id, move.state, now);
  const finding = await getFindingDetail(services.db, orgId, ticket.finding_id).catch(() => undefined);
  if (!finding) return nothing;
  const target = move.state === 'closed' ? 'resolved' : 'open';
  const already = move.state === 'closed' ? CLOSING.has(finding.status) : REOPENED.has(finding.status);
  if (already) return { accepted: true, finding_id: finding.id, status: finding.status };
  const actor = {
    orgId,
    userId: integration.created_by ?? 'system',
    email: `${integration.type}:${integration.name}`,
  };
  const updated = await updateFinding(
    services.db,
    actor,
    finding.id,
    {
      status: target,
      notes: `${ticket.key} was ${move.state === 'closed' ? 'closed' : 'reopened'} in ${integration.type === 'github' ? 'GitHub' : 'Jira'}`,
    },
    now,
  );
  return { accepted: true, finding_id: finding.id, status: updated.status };
}
