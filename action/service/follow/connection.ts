import { ApiError, ConfigurationError } from '../../core/errors.ts';
import type { ScanRecord } from '../../core/scan.ts';
import type { ScanwardClient } from '../client.ts';
import { EventStreamParser, TERMINAL_EVENTS, scanEventOf, withEvent } from '../event-stream.ts';
import { describeFailure, retryAfterMs, type HttpDeps } from '../http.ts';
import type { ProgressLog } from '../progress.ts';
import { TERMINAL, formatSeconds, type FollowDeps, type StreamSettings } from './followed.ts';

/**
 * One connection to the service's event stream (`GET /api/v1/events`): open it, read the scan
 * when no event id says where to resume, then read events until the scan ends or the
 * connection does. stream.ts decides what to do after each.
 */

/** How one connection to the stream ended. */
export type Connection =
  /** The scan ended; `scan` is its final record when the read after opening found it ended. */
  | { kind: 'terminal'; scan?: ScanRecord | undefined }
  | { kind: 'deadline' }
  /** The service answered, but not with a stream; `status` 0: no answer at all. */
  | { kind: 'refused'; status: number; reason: string; retryAfterMs?: number | undefined }
  /** Nothing arrived within the stall bound after the request: a buffering proxy, or no answer. */
  | { kind: 'silent' }
  /** It was a stream, and it ended (the service's hour, a dropped connection, a stall). */
  | { kind: 'dropped'; reason: string; lastedMs: number }
  /** Closed from here because the credentials are due for a refresh: reopen at once with fresh ones. */
  | { kind: 'renew' };

/** The scan being followed, and its place in the stream. */
export interface StreamContext {
  deps: FollowDeps;
  client: ScanwardClient;
  scanId: string;
  deadline: number;
  progress: ProgressLog;
  settings: StreamSettings;
}

/** What carries over from one connection to the next. */
export interface StreamState {
  scan: ScanRecord | undefined;
  lastEventId: string | undefined;
  /** The reconnection delay, as the stream's `retry:` last set it. */
  retryMs: number;
}

/** Reopen the stream this long after the credentials fell due for a refresh (so the next request refreshes them). */
const RENEW_AFTER_DUE_MS = 1000;

/**
 * Ends a connection from here: the wait for the next bytes (the stall bound, or the deadline
 * when sooner; re-armed on every byte) and the renewal of the credentials.
 */
class Watch {
  readonly controller = new AbortController();
  readonly signal: AbortSignal;
  /** Why the connection was aborted from here, if it was. */
  why: 'stall' | 'deadline' | 'renew' | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private renewal: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly http: HttpDeps,
    private readonly deadline: number,
    private readonly stallMs: number,
  ) {
    this.signal = http.signal
      ? AbortSignal.any([http.signal, this.controller.signal])
      : this.controller.signal;
  }

  /** (Re)starts the wait for the next bytes. */
  arm(): void {
    clearTimeout(this.timer);
    const left = Math.max(0, this.deadline - this.http.now());
    const stall = left <= this.stallMs ? undefined : this.stallMs;
    this.timer = setTimeout(() => this.end(stall === undefined ? 'deadline' : 'stall'), stall ?? left);
  }

  disarm(): void {
    clearTimeout(this.timer);
  }

  /**
   * A bearer token is refreshed shortly before it expires, at the next request; the stream is
   * one request, so it is reopened then (the service would end it once the token expired).
   */
  renewAt(refreshDueAt: number | undefined): void {
    const now = this.http.now();
    if (refreshDueAt === undefined || refreshDueAt <= now || refreshDueAt >= this.deadline) return;
    this.renewal = setTimeout(() => this.end('renew'), refreshDueAt - now + RENEW_AFTER_DUE_MS);
  }

  close(): void {
    clearTimeout(this.timer);
    clearTimeout(this.renewal);
    this.controller.abort();
  }

  private end(why: 'stall' | 'deadline' | 'renew'): void {
    this.why = why;
    this.controller.abort();
  }
}

/** One connection: open, read the scan when no event id says where to resume, read events. */
export async function connect(ctx: StreamContext, state: StreamState): Promise<Connection> {
  const { http } = ctx.deps;
  const watch = new Watch(http, ctx.deadline, ctx.settings.stallMs);
  const openedAt = http.now();
  try {
    watch.arm();
    const opened = await open(ctx, state, watch);
    if ('ended' in opened) return opened.ended;
    watch.renewAt(ctx.client.credentialsRefreshDueAt());
    // Without an event id to resume from, the stream starts now: read the scan once, after
    // the stream answered, so every change after this read comes as an event.
    if (state.lastEventId === undefined) {
      watch.disarm();
      state.scan = await ctx.client.getScan(ctx.scanId, ctx.deadline);
      ctx.progress.report(state.scan);
      if (TERMINAL.has(state.scan.status)) return { kind: 'terminal', scan: state.scan };
      watch.arm();
    }
    return await readEvents(ctx, state, opened.body, watch, openedAt);
  } finally {
    watch.close();
  }
}

async function open(
  ctx: StreamContext,
  state: StreamState,
  watch: Watch,
): Promise<{ body: ReadableStream<Uint8Array> } | { ended: Connection }> {
  const { http } = ctx.deps;
  let response: Response;
  try {
    response = await ctx.client.openEventStream(state.lastEventId, watch.signal);
  } catch (error) {
    // The credentials could not be had (a refresh or a token exchange refused): as for any request.
    if (http.signal?.aborted || error instanceof ApiError || error instanceof ConfigurationError) throw error;
    if (watch.why === 'deadline') return { ended: { kind: 'deadline' } };
    if (watch.why === 'stall') return { ended: { kind: 'silent' } };
    return { ended: { kind: 'refused', status: 0, reason: `no answer: ${describeFailure(error)}` } };
  }
  if (response.status !== 200 || !response.body || !isEventStream(response)) {
    await response.body?.cancel().catch(() => undefined);
    return { ended: refusal(response, http.now()) };
  }
  return { body: response.body };
}

/** Reads events until the scan's terminal event or the end of the connection. */
async function readEvents(
  ctx: StreamContext,
  state: StreamState,
  body: ReadableStream<Uint8Array>,
  watch: Watch,
  openedAt: number,
): Promise<Connection> {
  const { http } = ctx.deps;
  const parser = new EventStreamParser();
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let gotBytes = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return { kind: 'dropped', reason: 'the service ended it', lastedMs: http.now() - openedAt };
      if (value.byteLength > 0) gotBytes = true;
      watch.arm();
      for (const event of parser.push(decoder.decode(value, { stream: true }))) {
        if (event.lastEventId !== '') state.lastEventId = event.lastEventId;
        const ours = scanEventOf(event, ctx.scanId);
        if (!ours) continue;
        if (TERMINAL_EVENTS.has(ours.type)) return { kind: 'terminal' };
        if (state.scan) {
          state.scan = withEvent(state.scan, ours.scan);
          ctx.progress.report(state.scan);
        }
      }
      if (parser.retry !== undefined) state.retryMs = parser.retry;
    }
  } catch (error) {
    if (http.signal?.aborted) throw error;
    if (watch.why === 'deadline') return { kind: 'deadline' };
    if (watch.why === 'renew') return { kind: 'renew' };
    if (watch.why === 'stall' && !gotBytes) return { kind: 'silent' };
    const reason =
      watch.why === 'stall'
        ? `nothing arrived for ${formatSeconds(ctx.settings.stallMs)}`
        : describeFailure(error);
    return { kind: 'dropped', reason, lastedMs: http.now() - openedAt };
  } finally {
    reader.releaseLock();
  }
}

function isEventStream(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream');
}

function refusal(response: Response, now: number): Connection {
  const { status } = response;
  const reason =
    status === 404
      ? 'the service answered 404: it is older than GET /api/v1/events'
      : status === 403
        ? 'the service answered 403: the API key needs read:scans'
        : status === 200
          ? `the service answered ${response.headers.get('content-type') ?? 'no content type'}, not text/event-stream`
          : status >= 300 && status < 400
            ? `the service answered ${status} with a redirect, which is not followed`
            : `the service answered ${status}`;
  return {
    kind: 'refused',
    status,
    reason,
    retryAfterMs: retryAfterMs(response.headers.get('retry-after'), now),
  };
}
