import type { Db } from '../db/index.ts';
import {
  insertDomainEvents,
  latestEventSeq,
  listEventsAfter,
  numberEventsOfAnyOrganization,
  type PublishedEvent,
} from './domain-events.repository.ts';
import { lockOutboxPosition, saveOutboxPosition } from './outbox-positions.repository.ts';

/**
 * The domain-event outbox (docs/events.md). The scan and finding lifecycles append
 * what happened in the transaction that made it happen; readers never wire into a
 * lifecycle: webhooks (webhooks/outbox.ts), the event stream (events/stream.ts) and
 * timers read the outbox after the sequencer has numbered the committed events.
 */

export const DOMAIN_EVENTS = [
  'scan.queued',
  'scan.started',
  'scan.progress',
  'scan.completed',
  'scan.failed',
  'scan.cancelled',
  'vulnerability.found',
  'vulnerability.critical',
  'finding.updated',
  'sla.breached',
] as const;
export type DomainEventType = (typeof DOMAIN_EVENTS)[number];

export interface NewDomainEvent {
  type: DomainEventType;
  /** The scan or finding the event is about. */
  subjectId: string;
  data: Record<string, unknown>;
}

/**
 * Appends events in the caller's transaction: they commit with the change they
 * report, or not at all. In the order given.
 */
export async function appendEvents(
  trx: Db,
  orgId: string,
  events: readonly NewDomainEvent[],
  now = new Date(),
): Promise<void> {
  const CHUNK = 500;
  for (let i = 0; i < events.length; i += CHUNK) {
    await insertDomainEvents(
      trx,
      orgId,
      events.slice(i, i + CHUNK).map((e) => ({
        org_id: orgId,
        type: e.type,
        subject_id: e.subjectId,
        payload: JSON.stringify(e.data),
        created_at: now,
      })),
    );
  }
}

export async function appendEvent(
  trx: Db,
  orgId: string,
  event: NewDomainEvent,
  now = new Date(),
): Promise<void> {
  await appendEvents(trx, orgId, [event], now);
}

/**
 * The sequencer: numbers the committed events no one has numbered yet, in append
 * order, under the `sequence` position's lock (one sequencer at a time, whatever
 * the number of processes). Numbers are handed out after commit, so they follow
 * commit order: a reader past N never later finds an event below N. Answers how
 * many it numbered; readers call it before they read.
 */
export async function sequenceEvents(db: Db, limit = 5000): Promise<number> {
  return db.transaction(async (trx) => {
    const last = await lockOutboxPosition(trx, 'sequence');
    const numbered = await numberEventsOfAnyOrganization(trx, last, limit);
    if (numbered > 0) await saveOutboxPosition(trx, 'sequence', last + numbered);
    return numbered;
  });
}

/** What readers get: the event's position, type, subject, time and data. */
export interface OutboxEvent {
  seq: number;
  type: string;
  subject_id: string | null;
  timestamp: string;
  data: Record<string, unknown>;
}

function present(e: PublishedEvent): OutboxEvent {
  return {
    seq: e.seq,
    type: e.type,
    subject_id: e.subject_id,
    timestamp: e.created_at.toISOString(),
    data: JSON.parse(e.payload) as Record<string, unknown>,
  };
}

/** The organization's numbered events of the given types after `afterSeq`, oldest first. */
export async function organizationEventsAfter(
  db: Db,
  orgId: string,
  afterSeq: number,
  types: readonly DomainEventType[],
  limit: number,
): Promise<OutboxEvent[]> {
  return (await listEventsAfter(db, orgId, afterSeq, types, limit)).map(present);
}

/** The events about scans, and those about findings (what an API key's permissions let it read). */
export const SCAN_EVENTS = DOMAIN_EVENTS.filter((t) => t.startsWith('scan.'));
export const FINDING_EVENTS = DOMAIN_EVENTS.filter((t) => !t.startsWith('scan.'));

/** The organization's latest numbered position: a new stream starts there. */
export async function organizationLatestSeq(db: Db, orgId: string): Promise<number> {
  return latestEventSeq(db, orgId);
}

export { present as presentOutboxEvent };
