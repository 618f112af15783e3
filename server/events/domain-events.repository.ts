import type { Knex } from 'knex';
import type { Db } from '../db/index.ts';

/**
 * The `domain_events` table, the outbox the lifecycles append to (docs/events.md).
 * Every read is scoped by organization except the sequencer's and the durable
 * readers' (webhook fan-out, the stream's wake-up), which serve every organization.
 */

export interface DomainEventRow {
  /** Append order. */
  id: number;
  /** Published position, in commit order; null until the sequencer numbers the row. */
  seq: number | null;
  org_id: string;
  type: string;
  /** The scan or finding the event is about. */
  subject_id: string | null;
  /** JSON of the event's data. */
  payload: string;
  created_at: Date;
}

export type NewDomainEventRow = Pick<
  DomainEventRow,
  'org_id' | 'type' | 'subject_id' | 'payload' | 'created_at'
>;

declare module 'knex/types/tables.js' {
  interface Tables {
    domain_events: Knex.CompositeTableType<DomainEventRow, NewDomainEventRow, Partial<DomainEventRow>>;
  }
}

/** A sequenced event as readers see it. */
export interface PublishedEvent {
  seq: number;
  org_id: string;
  type: string;
  subject_id: string | null;
  payload: string;
  created_at: Date;
}

const PUBLISHED = ['seq', 'org_id', 'type', 'subject_id', 'payload', 'created_at'] as const;

function published(
  rows: Array<Omit<PublishedEvent, 'seq'> & { seq: number | string | null }>,
): PublishedEvent[] {
  // int8 arrives as a string from PostgreSQL.
  return rows.map((r) => ({ ...r, seq: Number(r.seq) }));
}

export async function insertDomainEvents(db: Db, orgId: string, rows: NewDomainEventRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db('domain_events').insert(rows.map((r) => ({ ...r, org_id: orgId })));
}

/**
 * Numbers up to `limit` committed, unnumbered events of any organization in append
 * order, from `after + 1` on; answers how many. The caller holds the sequencer's
 * position row, so numbers are handed out by one transaction at a time.
 */
export async function numberEventsOfAnyOrganization(db: Db, after: number, limit: number): Promise<number> {
  const result = await db.raw<{ rows?: unknown[]; rowCount?: number; affectedRows?: number }>(
    `update domain_events as e set seq = n.position
       from (select id, ?::bigint + row_number() over (order by id) as position
               from domain_events where seq is null order by id limit ?) as n
      where e.id = n.id`,
    [after, limit],
  );
  return result.rowCount ?? result.affectedRows ?? 0;
}

/** The organization's events of the given types after `afterSeq`, oldest first, at most `limit`. */
export async function listEventsAfter(
  db: Db,
  orgId: string,
  afterSeq: number,
  types: readonly string[],
  limit: number,
): Promise<PublishedEvent[]> {
  const rows = await db('domain_events')
    .where({ org_id: orgId })
    .where('seq', '>', afterSeq)
    .whereIn('type', types)
    .orderBy('seq')
    .limit(limit)
    .select(...PUBLISHED);
  return published(rows);
}

/** The organization's latest position (0 before its first event). */
export async function latestEventSeq(db: Db, orgId: string): Promise<number> {
  const [row] = await db('domain_events')
    .where({ org_id: orgId })
    .whereNotNull('seq')
    .select<{ latest: string | number | null }[]>(db.raw('max(seq) as latest'));
  return Number(row?.latest ?? 0);
}

/** Events of any organization after `afterSeq` up to `uptoSeq`, oldest first: the webhook fan-out's batch. */
export async function listEventsOfAnyOrganization(
  db: Db,
  afterSeq: number,
  uptoSeq: number,
  limit: number,
): Promise<PublishedEvent[]> {
  const rows = await db('domain_events')
    .where('seq', '>', afterSeq)
    .where('seq', '<=', uptoSeq)
    .orderBy('seq')
    .limit(limit)
    .select(...PUBLISHED);
  return published(rows);
}

/** The organizations with events after `afterSeq`, and the latest position: the stream's wake-up. */
export async function organizationsWithEventsAfter(
  db: Db,
  afterSeq: number,
): Promise<Array<{ org_id: string; latest: number }>> {
  const rows = await db('domain_events')
    .where('seq', '>', afterSeq)
    .groupBy('org_id')
    .select<{ org_id: string; latest: string | number }[]>('org_id', db.raw('max(seq) as latest'));
  return rows.map((r) => ({ org_id: r.org_id, latest: Number(r.latest) }));
}

/** The latest position of any organization (0 before the first event). */
export async function latestEventSeqOfAnyOrganization(db: Db): Promise<number> {
  const [row] = await db('domain_events').select<{ latest: string | number | null }[]>(
    db.raw('max(seq) as latest'),
  );
  return Number(row?.latest ?? 0);
}

/** Deletes numbered events created before `before` at or below `uptoSeq` (read by every durable reader). */
export async function pruneEventsOfAnyOrganization(db: Db, before: Date, uptoSeq: number): Promise<number> {
  return db('domain_events').where('created_at', '<', before).where('seq', '<=', uptoSeq).delete();
}
