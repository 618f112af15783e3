import { Readable } from 'node:stream';
import type { Logger } from 'pino';
import type { Db } from '../db/index.ts';
import { latestEventSeqOfAnyOrganization, organizationsWithEventsAfter } from './domain-events.repository.ts';
import {
  organizationEventsAfter,
  organizationLatestSeq,
  sequenceEvents,
  type DomainEventType,
  type OutboxEvent,
} from './outbox.ts';

/**
 * The live event stream (GET /api/v1/events, docs/events.md): an organization's
 * domain events as server-sent events, read from the outbox.
 *
 * One hub per process (per database handle) polls the outbox while at least one
 * stream is open: it numbers what committed (the sequencer), finds which
 * organizations have new events and wakes their streams; each stream then reads
 * its own organization's events after its own position. A stream holds at most
 * one page of events in memory and reads the next only when the client has taken
 * the last (backpressure): the outbox is the buffer, so a slow client costs no
 * memory, and it resumes from its `Last-Event-ID` after a reconnect.
 */

/** Events one read of a stream takes from the outbox. */
export const STREAM_PAGE = 100;
/** How often the hub looks for new events while streams are open. */
export const HUB_INTERVAL_MS = 1000;
/** A stream ends after this long; the client reconnects with Last-Event-ID (counted as one more request). */
export const MAX_STREAM_MS = 3600 * 1000;
/** The reconnection delay the stream asks of EventSource clients. */
export const RETRY_MS = 3000;

interface Subscriber {
  orgId: string;
  wake(): void;
  close(): void;
}

class EventHub {
  private readonly subscribers = new Set<Subscriber>();
  private position: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
  ) {}

  subscribe(subscriber: Subscriber): () => void {
    this.subscribers.add(subscriber);
    this.schedule();
    return () => {
      this.subscribers.delete(subscriber);
      if (this.subscribers.size === 0) this.stop();
    };
  }

  get size(): number {
    return this.subscribers.size;
  }

  /** Ends every open stream (the process is stopping). */
  closeAll(): void {
    for (const s of [...this.subscribers]) s.close();
    this.stop();
  }

  private stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    // Unknown again: a hub that restarts later starts from the latest position then.
    this.position = undefined;
  }

  private schedule(): void {
    if (this.timer || this.subscribers.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running ??= this.tick()
        .catch((err: unknown) => this.logger.warn({ err }, 'event stream poll failed'))
        .finally(() => {
          this.running = undefined;
          this.schedule();
        });
    }, HUB_INTERVAL_MS);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    await sequenceEvents(this.db);
    if (this.position === undefined) {
      this.position = await latestEventSeqOfAnyOrganization(this.db);
      // Streams read on their own after subscribing; wake them once in case events came before.
      for (const s of this.subscribers) s.wake();
      return;
    }
    const orgs = await organizationsWithEventsAfter(this.db, this.position);
    if (orgs.length === 0) return;
    this.position = Math.max(this.position, ...orgs.map((o) => o.latest));
    const woken = new Set(orgs.map((o) => o.org_id));
    for (const s of this.subscribers) if (woken.has(s.orgId)) s.wake();
  }
}

const hubs = new WeakMap<Db, EventHub>();

function hubOf(db: Db, logger: Logger): EventHub {
  let hub = hubs.get(db);
  if (!hub) {
    hub = new EventHub(db, logger);
    hubs.set(db, hub);
  }
  return hub;
}

/** Ends every open stream over this database (graceful shutdown: the server can then close). */
export function closeEventStreams(db: Db): void {
  hubs.get(db)?.closeAll();
}

/** The streams open in this process over this database. */
export function openEventStreams(db: Db): number {
  return hubs.get(db)?.size ?? 0;
}

/** One event in the text/event-stream format: its position as id, its type as event name. */
export function formatEvent(event: OutboxEvent): string {
  const data = JSON.stringify({ type: event.type, timestamp: event.timestamp, data: event.data });
  return `id: ${event.seq}\nevent: ${event.type}\ndata: ${data}\n\n`;
}

export interface StreamOptions {
  db: Db;
  logger: Logger;
  orgId: string;
  /** The event types the caller may read. */
  types: readonly DomainEventType[];
  /** The position the client last saw (Last-Event-ID); unset: only events from now on. */
  lastEventId: number | undefined;
  heartbeatMs: number;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
  /**
   * Whether the caller's credentials still hold (the session not revoked, the key not deleted,
   * the user not disabled); asked at most once a heartbeat, and the stream ends when not.
   */
  stillAuthorized?: (() => Promise<boolean>) | undefined;
}

/**
 * The stream's body: a `retry` line, then every event of the organization after
 * the starting position, in order, as they are published; a comment line as a
 * heartbeat when nothing happened for `heartbeatMs`. Ends when the client goes
 * away, the process stops, the caller's credentials stop holding, or after MAX_STREAM_MS.
 */
export async function openEventStream(options: StreamOptions): Promise<Readable> {
  const { db, orgId, signal } = options;
  // Read before the first byte, so a database failure is still a normal error answer. Without
  // a position the stream starts after everything committed so far (numbered first, so an
  // event that committed just before is not taken for a new one).
  if (options.lastEventId === undefined) await sequenceEvents(db);
  let cursor = options.lastEventId ?? (await organizationLatestSeq(db, orgId));
  let woken = false;
  let closed = false;
  let release: (() => void) | undefined;
  const subscriber: Subscriber = {
    orgId,
    wake: () => {
      woken = true;
      release?.();
    },
    close: () => {
      closed = true;
      release?.();
    },
  };
  const hub = hubOf(db, options.logger);
  const unsubscribe = hub.subscribe(subscriber);
  const onAbort = () => subscriber.close();
  signal.addEventListener('abort', onAbort, { once: true });
  const deadline = Date.now() + MAX_STREAM_MS;

  /** Waits for a wake-up, the heartbeat time, or the end; true when woken. */
  const wait = (ms: number) =>
    new Promise<boolean>((resolve) => {
      if (woken || closed) {
        resolve(woken);
        return;
      }
      const timer = setTimeout(() => {
        release = undefined;
        resolve(false);
      }, ms);
      release = () => {
        clearTimeout(timer);
        release = undefined;
        resolve(woken);
      };
    });

  async function* lines(): AsyncGenerator<string> {
    try {
      yield `retry: ${RETRY_MS}\n\n`;
      let checkedAt = Date.now();
      while (!closed && Date.now() < deadline) {
        if (options.stillAuthorized && Date.now() - checkedAt >= options.heartbeatMs) {
          checkedAt = Date.now();
          if (!(await options.stillAuthorized())) break;
        }
        woken = false;
        const events = await organizationEventsAfter(db, orgId, cursor, options.types, STREAM_PAGE);
        for (const event of events) {
          yield formatEvent(event);
          cursor = event.seq;
        }
        if (events.length === STREAM_PAGE) continue; // more waiting: read on
        const remaining = deadline - Date.now();
        if (remaining <= 0) break;
        if (!(await wait(Math.min(options.heartbeatMs, remaining))) && !closed) yield ': heartbeat\n\n';
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
      unsubscribe();
    }
  }
  return Readable.from(lines(), { objectMode: false });
}
