// The schema by its file name, and no DOM type: the unit test (test/unit/console/live-events.test.ts)
// compiles this module under the server's settings too.
import type { components } from './schema.d.ts';

type Schemas = components['schemas'];

/**
 * The console's live events: one EventSource on `GET /api/v1/events` (docs/events.md) per
 * signed-in console, shared by every page that shows something that changes (scans running,
 * findings found or triaged). The stream authenticates with the session cookie like every GET
 * (no CSRF token: it changes nothing) and counts as one request when it opens, however long it
 * stays open; EventSource reconnects by itself and resumes with `Last-Event-ID`.
 *
 * When the stream cannot be kept open (refused, the server unreachable) it is `down`: pages
 * fall back to slow polling (data.ts, `useLoad`) and the stream is tried again after a while.
 * Only main.tsx makes one; components take it from context (`liveEventsRef`).
 */

/** `scan.progress`: what the runner last wrote (docs/events.md). */
export interface ScanProgress {
  id: string;
  status: Schemas['ScanStatus'];
  progress: number;
  phase: Schemas['ScanPhase'];
  phases_completed: Schemas['ScanPhase'][];
  current_tool: string | null;
}

/** `finding.updated`: a person's triage change. */
export interface FindingUpdate {
  id: string;
  status: Schemas['FindingStatus'];
  previous_status: Schemas['FindingStatus'];
  by: string;
}

/** The events the console reads, by their names on the stream. */
export type LiveEvent =
  | {
      type: 'scan.queued' | 'scan.started' | 'scan.completed' | 'scan.failed' | 'scan.cancelled';
      data: Schemas['ScanListItem'];
    }
  | { type: 'scan.progress'; data: ScanProgress }
  | {
      type: 'vulnerability.found' | 'vulnerability.critical';
      data: Schemas['FindingListItem'] & { scan_id: string };
    }
  | { type: 'finding.updated'; data: FindingUpdate };

export const LIVE_EVENT_TYPES: ReadonlyArray<LiveEvent['type']> = [
  'scan.queued',
  'scan.started',
  'scan.progress',
  'scan.completed',
  'scan.failed',
  'scan.cancelled',
  'vulnerability.found',
  'vulnerability.critical',
  'finding.updated',
];

/** `off`: signed out; `connecting`; `open`: events arrive; `down`: the stream failed, pages poll slowly. */
export type StreamState = 'off' | 'connecting' | 'open' | 'down';

export interface LiveEvents {
  /** Opens the stream (signed in). */
  start(): void;
  /** Closes it (signed out). */
  stop(): void;
  state(): StreamState;
  /** Every event, in the stream's order. Returns the unsubscribe function. */
  subscribe(listener: (event: LiveEvent) => void): () => void;
  /** Every change of state. Returns the unsubscribe function. */
  watch(listener: (state: StreamState) => void): () => void;
}

/** What the stream uses of the browser's EventSource. */
interface StreamMessage {
  type: string;
  data: string;
}
interface EventSourceLike {
  readonly readyState: number;
  onopen: (() => void) | null;
  onerror: (() => void) | null;
  addEventListener(type: string, listener: (message: StreamMessage) => void): void;
  close(): void;
}
export interface EventSourceClass {
  new (url: string, init: { withCredentials: boolean }): EventSourceLike;
  readonly OPEN: number;
  readonly CLOSED: number;
}

export interface LiveEventsOptions {
  url?: string;
  /** After a stream that failed for good (closed, not reconnecting), a new one is tried after this long. */
  retryMs?: number;
  EventSource?: EventSourceClass;
}

/** How long a stream may try to reconnect before the pages fall back to polling. */
const GRACE_MS = 10_000;

export function createLiveEvents(options: LiveEventsOptions = {}): LiveEvents {
  const url = options.url ?? '/api/v1/events';
  const retryMs = options.retryMs ?? 60_000;
  const Source =
    options.EventSource ?? (globalThis as unknown as { EventSource?: EventSourceClass }).EventSource;
  const listeners = new Set<(event: LiveEvent) => void>();
  const watchers = new Set<(state: StreamState) => void>();
  let state: StreamState = 'off';
  let source: EventSourceLike | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let grace: ReturnType<typeof setTimeout> | undefined;

  const set = (next: StreamState) => {
    if (next === state) return;
    state = next;
    for (const w of [...watchers]) w(next);
  };
  const clearTimers = () => {
    if (retry) clearTimeout(retry);
    if (grace) clearTimeout(grace);
    retry = grace = undefined;
  };

  const deliver = (message: StreamMessage) => {
    let parsed: { type?: string; data?: unknown };
    try {
      parsed = JSON.parse(message.data) as typeof parsed;
    } catch {
      return;
    }
    if (parsed.type !== message.type || parsed.data === null || typeof parsed.data !== 'object') return;
    const event = { type: message.type, data: parsed.data } as LiveEvent;
    for (const l of [...listeners]) l(event);
  };

  const open = () => {
    clearTimers();
    if (!Source) return set('down');
    const es = new Source(url, { withCredentials: true });
    source = es;
    set(state === 'down' ? 'down' : 'connecting');
    es.onopen = () => {
      if (source !== es) return;
      if (grace) clearTimeout(grace);
      grace = undefined;
      set('open');
    };
    es.onerror = () => {
      if (source !== es) return;
      if (es.readyState === Source.CLOSED) {
        // Refused (401, 429, 5xx) or not an event stream: EventSource gives up; so do we, for a while.
        es.close();
        source = undefined;
        set('down');
        retry = setTimeout(open, retryMs);
        return;
      }
      // Reconnecting by itself (with Last-Event-ID): pages poll only if it takes long.
      grace ??= setTimeout(() => {
        grace = undefined;
        if (source === es && es.readyState !== Source.OPEN) set('down');
      }, GRACE_MS);
    };
    const onMessage = (message: StreamMessage) => {
      if (source === es) deliver(message);
    };
    for (const type of LIVE_EVENT_TYPES) es.addEventListener(type, onMessage);
  };

  return {
    start() {
      if (state === 'off') open();
    },
    stop() {
      clearTimers();
      source?.close();
      source = undefined;
      set('off');
    },
    state: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    watch(listener) {
      watchers.add(listener);
      return () => watchers.delete(listener);
    },
  };
}
