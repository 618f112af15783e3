import { ApiError, ConfigurationError } from '../core/errors.ts';
import type { Log, ScanRequest } from '../core/scan-source.ts';
import type { ScanRecord } from '../core/scan.ts';
import type { ScanwardClient } from './client.ts';
import { EventStreamParser, TERMINAL_EVENTS, scanEventOf } from './event-stream.ts';
import { describeFailure, retryAfterMs, type HttpDeps } from './http.ts';
import { ProgressLog } from './progress.ts';

/**
 * Following a running scan to its end (or to the deadline), in one of two ways:
 *
 * - **stream** (the default): through the service's live event stream, `GET /api/v1/events`,
 *   which counts as one request against the organization's rate limit however long it stays
 *   open. The stream is opened first and the scan read once after it answered, so no event
 *   falls between the two; the scan's `scan.started` and `scan.progress` events are logged as
 *   progress; on its terminal event the scan is read once more for its final record. A stream
 *   that drops is reopened with `Last-Event-ID` (a bounded number of times in a row), so no
 *   event is missed. When the stream cannot be had (an older service answers 404, a key
 *   without the permission 403, a proxy buffers it so nothing arrives), one line says so and
 *   the scan is followed by polling instead.
 * - **poll**: `GET /api/v1/scans/{id}` every `poll-interval-seconds`, one request each.
 *
 * Either way the deadline ends the following with `timedOut` (the caller cancels the scan),
 * and the run's abort signal throws out of it (the caller cancels the scan too).
 */

export interface StreamSettings {
  /**
   * A stream that sends no byte (event or heartbeat) for this long is taken as broken: before
   * its first byte, as unusable (a buffering proxy: fall back to polling); later, as dropped
   * (reconnect). The service sends a heartbeat every 15 s by default.
   */
  stallMs: number;
  /** Reconnects in a row without a stream that lasted `stallMs`, before falling back to polling. */
  maxReconnects: number;
  /** Longest wait before a reconnect, whatever `retry:` or `Retry-After` asked. */
  maxReconnectDelayMs: number;
}

export const STREAM_SETTINGS: StreamSettings = {
  stallMs: 60_000,
  maxReconnects: 5,
  maxReconnectDelayMs: 30_000,
};

/** The reconnection delay when the server did not ask for one (the service asks 3 s). */
const DEFAULT_RETRY_MS = 3000;
/** Reopen the stream this long after the credentials fell due for a refresh (so the next request refreshes them). */
const RENEW_AFTER_DUE_MS = 1000;

export interface FollowDeps {
  log: Log;
  http: HttpDeps;
  stream?: Partial<StreamSettings> | undefined;
}

export interface Followed {
  scan: ScanRecord;
  timedOut: boolean;
}

/** The statuses a scan ends in. */
export const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

export async function followScan(
  deps: FollowDeps,
  client: ScanwardClient,
  scanId: string,
  request: Pick<ScanRequest, 'follow' | 'pollIntervalMs'>,
  deadline: number,
): Promise<Followed> {
  const progress = new ProgressLog((line) => deps.log.info(line));
  if (request.follow === 'poll') return followByPolling(deps, client, scanId, request, deadline, progress);
  const streamed = await followByStream(deps, client, scanId, deadline, progress);
  if (streamed.kind === 'followed') return streamed;
  deps.log.info(
    `The event stream is not available (${streamed.reason}); following scan ${scanId} by polling every ${formatSeconds(request.pollIntervalMs)}.`,
  );
  return followByPolling(deps, client, scanId, request, deadline, progress);
}

/** Polls until the scan ends or the deadline passes, logging changes only. */
async function followByPolling(
  deps: FollowDeps,
  client: ScanwardClient,
  scanId: string,
  request: Pick<ScanRequest, 'pollIntervalMs'>,
  deadline: number,
  progress: ProgressLog,
): Promise<Followed> {
  const { http } = deps;
  let scan = await client.getScan(scanId, deadline);
  progress.report(scan);
  while (!TERMINAL.has(scan.status)) {
    const left = deadline - http.now();
    if (left <= 0) return { scan, timedOut: true };
    await http.sleep(Math.min(request.pollIntervalMs, left), http.signal);
    scan = await client.getScan(scanId, deadline);
    progress.report(scan);
  }
  return { scan, timedOut: false };
}

type StreamResult = ({ kind: 'followed' } & Followed) | { kind: 'unavailable'; reason: string };

/** How one connection to the stream ended. */
type Connection =
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

async function followByStream(
  deps: FollowDeps,
  client: ScanwardClient,
  scanId: string,
  deadline: number,
  progress: ProgressLog,
): Promise<StreamResult> {
  const { http, log } = deps;
  const settings = { ...STREAM_SETTINGS, ...deps.stream };
  let scan: ScanRecord | undefined;
  let lastEventId: string | undefined;
  let retryMs = DEFAULT_RETRY_MS;
  let dropsInARow = 0;

  const timedOut = async (): Promise<StreamResult> => ({
    kind: 'followed',
    scan: scan ?? (await client.getScan(scanId, deadline)),
    timedOut: true,
  });

  for (let first = true; ; first = false) {
    if (deadline - http.now() <= 0) return timedOut();
    const connection = await connect();
    switch (connection.kind) {
      case 'terminal': {
        scan = connection.scan ?? (await client.getScan(scanId, deadline));
        progress.report(scan);
        if (TERMINAL.has(scan.status)) return { kind: 'followed', scan, timedOut: false };
        return {
          kind: 'unavailable',
          reason: `it reported the scan ended, but the scan reads ${scan.status}`,
        };
      }
      case 'deadline':
        return timedOut();
      case 'renew':
        log.debug('Event stream: reopening it with refreshed credentials.');
        break;
      case 'silent':
        return {
          kind: 'unavailable',
          reason: `nothing arrived on it within ${formatSeconds(settings.stallMs)}; a proxy may be buffering it`,
        };
      case 'refused': {
        if (first || [401, 403, 404].includes(connection.status)) {
          return { kind: 'unavailable', reason: connection.reason };
        }
        dropsInARow++;
        if (dropsInARow > settings.maxReconnects) {
          return {
            kind: 'unavailable',
            reason: `reopening it failed ${dropsInARow} times: ${connection.reason}`,
          };
        }
        log.debug(`Event stream: ${connection.reason}; trying again.`);
        await pause(connection.retryAfterMs ?? retryMs);
        break;
      }
      case 'dropped': {
        dropsInARow = connection.lastedMs >= settings.stallMs ? 1 : dropsInARow + 1;
        if (dropsInARow > settings.maxReconnects) {
          return {
            kind: 'unavailable',
            reason: `it dropped ${dropsInARow} times in a row (last: ${connection.reason})`,
          };
        }
        log.debug(
          `Event stream ended (${connection.reason}); reconnecting${lastEventId === undefined ? '' : ` after event ${lastEventId}`}.`,
        );
        await pause(retryMs);
        break;
      }
    }
  }

  async function pause(ms: number): Promise<void> {
    const left = deadline - http.now();
    if (left <= 0) return;
    await http.sleep(Math.min(ms, settings.maxReconnectDelayMs, left), http.signal);
  }

  /** One connection: open, read the scan when no event id says where to resume, read events. */
  async function connect(): Promise<Connection> {
    const controller = new AbortController();
    const signal = http.signal ? AbortSignal.any([http.signal, controller.signal]) : controller.signal;
    /** Why the connection was aborted from here, if it was. */
    const ended: { why?: 'stall' | 'deadline' | 'renew' } = {};
    let timer: ReturnType<typeof setTimeout> | undefined;
    /** (Re)starts the wait for the next bytes: the stall bound, or the deadline when sooner. */
    const arm = () => {
      clearTimeout(timer);
      const left = Math.max(0, deadline - http.now());
      const stall = left <= settings.stallMs ? undefined : settings.stallMs;
      timer = setTimeout(() => {
        ended.why = stall === undefined ? 'deadline' : 'stall';
        controller.abort();
      }, stall ?? left);
    };
    const openedAt = http.now();
    let gotBytes = false;
    let renewal: ReturnType<typeof setTimeout> | undefined;
    let response: Response;
    try {
      arm();
      try {
        response = await client.openEventStream(lastEventId, signal);
      } catch (error) {
        // The credentials could not be had (a refresh or a token exchange refused): as for any request.
        if (http.signal?.aborted || error instanceof ApiError || error instanceof ConfigurationError)
          throw error;
        if (ended.why === 'deadline') return { kind: 'deadline' };
        if (ended.why === 'stall') return { kind: 'silent' };
        return { kind: 'refused', status: 0, reason: `no answer: ${describeFailure(error)}` };
      }
      if (response.status !== 200 || !response.body || !isEventStream(response)) {
        await response.body?.cancel().catch(() => undefined);
        return refusal(response, http.now());
      }
      // A bearer token is refreshed shortly before it expires, at the next request; the stream
      // is one request, so it is reopened then (the service would end it once the token expired).
      const refreshDueAt = client.credentialsRefreshDueAt();
      if (refreshDueAt !== undefined && refreshDueAt > http.now() && refreshDueAt < deadline) {
        renewal = setTimeout(
          () => {
            ended.why = 'renew';
            controller.abort();
          },
          refreshDueAt - http.now() + RENEW_AFTER_DUE_MS,
        );
      }
      // Without an event id to resume from, the stream starts now: read the scan once, after
      // the stream answered, so every change after this read comes as an event.
      if (lastEventId === undefined) {
        clearTimeout(timer);
        scan = await client.getScan(scanId, deadline);
        progress.report(scan);
        if (TERMINAL.has(scan.status)) return { kind: 'terminal', scan };
        arm();
      }
      const parser = new EventStreamParser();
      const decoder = new TextDecoder();
      const reader = response.body.getReader();
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) {
            return { kind: 'dropped', reason: 'the service ended it', lastedMs: http.now() - openedAt };
          }
          if (value.byteLength > 0) gotBytes = true;
          arm();
          for (const event of parser.push(decoder.decode(value, { stream: true }))) {
            if (event.lastEventId !== '') lastEventId = event.lastEventId;
            const ours = scanEventOf(event, scanId);
            if (!ours) continue;
            if (TERMINAL_EVENTS.has(ours.type)) return { kind: 'terminal' };
            if (scan) {
              scan = withEvent(scan, ours.scan);
              progress.report(scan);
            }
          }
          if (parser.retry !== undefined) retryMs = parser.retry;
        }
      } catch (error) {
        if (http.signal?.aborted) throw error;
        if (ended.why === 'deadline') return { kind: 'deadline' };
        if (ended.why === 'renew') return { kind: 'renew' };
        if (ended.why === 'stall' && !gotBytes) return { kind: 'silent' };
        const reason =
          ended.why === 'stall'
            ? `nothing arrived for ${formatSeconds(settings.stallMs)}`
            : describeFailure(error);
        return { kind: 'dropped', reason, lastedMs: http.now() - openedAt };
      } finally {
        reader.releaseLock();
      }
    } finally {
      clearTimeout(timer);
      clearTimeout(renewal);
      controller.abort();
    }
  }
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

function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(2))}s`;
}
