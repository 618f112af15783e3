import type { ScanRecord } from '../core/scan.ts';

/**
 * The reading side of the service's live event stream (`GET /api/v1/events`, docs/events.md):
 * a parser of the `text/event-stream` format as the HTML standard defines it
 * (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation),
 * and the filter that picks one scan's events out of the organization's. The parser is ours,
 * not a package: the format is a few rules about lines and four field names, and the
 * EventSource packages bring browser semantics (their own reconnect loop) this client does
 * not want, since it reconnects on its own terms (follow/stream.ts).
 */

/** One event as dispatched: `event:` (default `message`), the joined `data:` lines, and the last `id:` seen. */
export interface ServerSentEvent {
  event: string;
  data: string;
  /** The stream's last event id when this event was dispatched (ids persist across events). */
  lastEventId: string;
}

/**
 * An incremental parser: `push` text as it arrives (split anywhere, even inside a `\r\n`),
 * get back the events completed by it. `retry` is the reconnection delay the server asked for.
 */
export class EventStreamParser {
  private buffer = '';
  private afterCR = false;
  private data: string[] = [];
  private eventType = '';
  /** The id of the last event that set one; kept across events, as EventSource keeps it. */
  lastEventId = '';
  /** The `retry:` the server sent, in milliseconds. */
  retry: number | undefined;

  push(text: string): ServerSentEvent[] {
    if (text === '') return [];
    // A `\r` that ended the last chunk ended a line; a `\n` right after it is the rest of a `\r\n`.
    if (this.afterCR && text.startsWith('\n')) text = text.slice(1);
    this.afterCR = false;
    this.buffer += text;
    const events: ServerSentEvent[] = [];
    for (;;) {
      const end = this.buffer.search(/[\r\n]/);
      if (end < 0) break;
      const line = this.buffer.slice(0, end);
      const crlf = this.buffer.startsWith('\r\n', end);
      if (this.buffer[end] === '\r' && end === this.buffer.length - 1) this.afterCR = true;
      this.buffer = this.buffer.slice(end + (crlf ? 2 : 1));
      const event = this.line(line);
      if (event) events.push(event);
    }
    return events;
  }

  private line(line: string): ServerSentEvent | undefined {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return undefined; // a comment: the heartbeat
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.eventType = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'id' && !value.includes('\0')) this.lastEventId = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.retry = Number(value);
    return undefined;
  }

  private dispatch(): ServerSentEvent | undefined {
    const data = this.data;
    const event = this.eventType || 'message';
    this.data = [];
    this.eventType = '';
    if (data.length === 0) return undefined;
    return { event, data: data.join('\n'), lastEventId: this.lastEventId };
  }
}

/** What a `scan.*` event of the followed scan says. */
export interface ScanEvent {
  type: string;
  /** The event's `data`: the scan's list view, or for `scan.progress` its progress fields. */
  scan: Record<string, unknown>;
}

export const TERMINAL_EVENTS = new Set(['scan.completed', 'scan.failed', 'scan.cancelled']);

/**
 * The event as one of `scanId`'s, or undefined for anything else: another scan's event, a
 * finding event (whose `data.id` is a finding's), or data that is not the `{type, data}` JSON.
 */
export function scanEventOf(event: ServerSentEvent, scanId: string): ScanEvent | undefined {
  if (!event.event.startsWith('scan.')) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(event.data);
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null) return undefined;
  const { type, data } = body as { type?: unknown; data?: unknown };
  if (typeof data !== 'object' || data === null) return undefined;
  const scan = data as Record<string, unknown>;
  if (scan.id !== scanId) return undefined;
  return { type: typeof type === 'string' ? type : event.event, scan };
}

/** The scan as an event of it says it is now (`scan.started`: the list view; `scan.progress`: the progress fields). */
export function withEvent(scan: ScanRecord, data: Record<string, unknown>): ScanRecord {
  const next = { ...scan };
  const sameStatus = data.status === undefined || data.status === scan.status;
  // An event older than the read that followed the stream's opening does not move progress back.
  if (sameStatus && typeof data.progress === 'number' && data.progress < scan.progress) return scan;
  if (typeof data.status === 'string') next.status = data.status;
  if (typeof data.progress === 'number') next.progress = data.progress;
  if (typeof data.phase === 'string') next.phase = data.phase;
  if ('current_tool' in data) {
    next.current_tool = typeof data.current_tool === 'string' ? data.current_tool : undefined;
  }
  return next;
}
