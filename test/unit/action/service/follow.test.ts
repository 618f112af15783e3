import { describe, expect, it } from 'vitest';
import { ScanwardClient } from '../../../../action/service/client.ts';
import { acquireCredentials } from '../../../../action/service/credentials.ts';
import { followScan, type StreamSettings } from '../../../../action/service/follow.ts';
import { DEFAULT_RETRY, type HttpDeps } from '../../../../action/service/http.ts';

/**
 * followScan against a scripted service (the real service's stream is exercised in
 * test/integration/action/follow-stream.test.ts): what only a script can do on cue, such as a
 * stream that stays silent as behind a buffering proxy, or one that ends before any event.
 */

const BASE = 'http://127.0.0.1:1';

const scan = (status: string, progress: number, phase = 'discovery') => ({
  id: 'scan_a',
  target: '127.0.0.1',
  scan_type: 'quick',
  status,
  progress,
  phase,
  created_at: '2026-01-01T00:00:00.000Z',
  vulnerabilities_found: 0,
  critical_count: 0,
  high_count: 0,
  medium_count: 0,
  low_count: 0,
  info_count: 0,
  phases_completed: [],
  phases_remaining: [],
});

const frame = (id: number, type: string, data: Record<string, unknown>) =>
  `id: ${id}\nevent: ${type}\ndata: ${JSON.stringify({ type, timestamp: '2026-01-01T00:00:00.000Z', data })}\n\n`;

/**
 * A stream answer: the chunks given, then either the end of the stream or (`hold`) nothing
 * more until the request is aborted, as a real fetch body errors when its signal aborts.
 */
function stream(chunks: string[], signal: AbortSignal | null | undefined, hold: boolean): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(new TextEncoder().encode(c));
      if (!hold) controller.close();
      signal?.addEventListener('abort', () => controller.error(signal.reason), { once: true });
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

type Answer = (init: RequestInit | undefined) => Response;

/** A service answering GET /api/v1/events and GET /api/v1/scans/scan_a from scripts, recording every request. */
function service(events: Answer[], reads: Array<ReturnType<typeof scan>>) {
  const calls: Array<{ path: string; lastEventId: string | undefined }> = [];
  const authorizations: Array<string | null> = [];
  const fetch = async (url: string, init?: RequestInit) => {
    const path = new URL(url).pathname;
    const headers = new Headers(init?.headers);
    calls.push({ path, lastEventId: headers.get('last-event-id') ?? undefined });
    authorizations.push(headers.get('authorization'));
    if (path === '/api/v1/auth/refresh') {
      return new Response(JSON.stringify({ access_token: jwt(Date.now() + 3600_000) }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }
    if (path === '/api/v1/events') {
      const next = events.shift();
      if (!next) throw new Error('no scripted stream left');
      return next(init);
    }
    const read = reads.length > 1 ? reads.shift()! : reads[0]!;
    return new Response(JSON.stringify(read), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
  return { fetch, calls, authorizations };
}

/** A bearer token expiring at `expiresAt` (only its `exp` is read, never verified). */
const jwt = (expiresAt: number) =>
  `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify({ exp: expiresAt / 1000 })).toString('base64url')}.sig`;

async function follow(
  fetch: HttpDeps['fetch'],
  options: {
    timeoutMs?: number;
    stream?: Partial<StreamSettings>;
    signal?: AbortSignal;
    follow?: 'poll';
    token?: string;
  } = {},
) {
  const lines: string[] = [];
  const sleeps: number[] = [];
  const http: HttpDeps = {
    fetch,
    sleep: async (ms) => void sleeps.push(ms),
    now: () => Date.now(),
    retry: DEFAULT_RETRY,
    signal: options.signal,
  };
  const client = new ScanwardClient({
    baseUrl: BASE,
    credentials: acquireCredentials(
      options.token ? { kind: 'token', token: options.token } : { kind: 'api-key', apiKey: 'sw_key' },
      { baseUrl: BASE, http, userAgent: 't' },
    ),
    http,
    userAgent: 't',
  });
  const log = { info: (m: string) => void lines.push(m), warning: () => undefined, debug: () => undefined };
  const followed = await followScan(
    { log, http, stream: options.stream },
    client,
    'scan_a',
    { follow: options.follow ?? 'stream', pollIntervalMs: 5 },
    Date.now() + (options.timeoutMs ?? 20_000),
  );
  return { followed, lines, sleeps };
}

describe('following a scan through the event stream', () => {
  it('logs the scan’s own events and reads its final record on the terminal one', async () => {
    const { fetch, calls } = service(
      [
        (init) =>
          stream(
            [
              'retry: 3000\n\n',
              frame(11, 'scan.progress', { id: 'scan_other', status: 'running', progress: 90 }),
              frame(12, 'scan.started', { id: 'scan_a', status: 'running', progress: 0, phase: 'discovery' }),
              ': heartbeat\n\n',
              frame(13, 'scan.progress', {
                id: 'scan_a',
                status: 'running',
                progress: 40,
                phase: 'web_analysis',
                current_tool: 'nuclei',
              }),
              frame(14, 'vulnerability.found', { id: 'find_1', scan_id: 'scan_a' }),
              frame(15, 'scan.completed', { id: 'scan_a', status: 'completed' }),
            ],
            init?.signal,
            true,
          ),
      ],
      [scan('pending', 0), scan('completed', 100, 'complete')],
    );
    const { followed, lines } = await follow(fetch);
    expect(followed).toMatchObject({ timedOut: false, scan: { status: 'completed' } });
    expect(calls.map((c) => c.path)).toEqual([
      '/api/v1/events',
      '/api/v1/scans/scan_a',
      '/api/v1/scans/scan_a',
    ]);
    expect(lines).toEqual([
      'Scan scan_a: pending, waiting for a scan runner',
      'Scan scan_a: running, 0%, phase discovery',
      'Scan scan_a: running, 40%, phase web analysis, running nuclei',
      'Scan scan_a: completed, 100%',
    ]);
  });

  it('falls back to polling, in one line, when nothing arrives on the stream (a buffering proxy)', async () => {
    const { fetch, calls } = service(
      [(init) => stream([], init?.signal, true)],
      [scan('pending', 0), scan('running', 50), scan('completed', 100, 'complete')],
    );
    const { followed, lines } = await follow(fetch, { stream: { stallMs: 100 } });
    expect(followed).toMatchObject({ timedOut: false, scan: { status: 'completed' } });
    expect(lines.filter((l) => !l.startsWith('Scan '))).toEqual([
      'The event stream is not available (nothing arrived on it within 0.1s; a proxy may be buffering it); following scan scan_a by polling every 0.01s.',
    ]);
    expect(calls.filter((c) => c.path === '/api/v1/events')).toHaveLength(1);
  });

  it('reopens a stream that ended before any event without Last-Event-ID, and reads the scan again', async () => {
    const { fetch, calls } = service(
      [
        (init) => stream(['retry: 50\n\n'], init?.signal, false),
        (init) =>
          stream([frame(21, 'scan.completed', { id: 'scan_a', status: 'completed' })], init?.signal, true),
      ],
      [scan('running', 10), scan('running', 60), scan('completed', 100, 'complete')],
    );
    const { followed, sleeps } = await follow(fetch);
    expect(followed.scan.status).toBe('completed');
    expect(calls).toEqual([
      { path: '/api/v1/events', lastEventId: undefined },
      { path: '/api/v1/scans/scan_a', lastEventId: undefined },
      { path: '/api/v1/events', lastEventId: undefined },
      { path: '/api/v1/scans/scan_a', lastEventId: undefined },
      { path: '/api/v1/scans/scan_a', lastEventId: undefined },
    ]);
    // The delay the stream asked for.
    expect(sleeps).toEqual([50]);
  });

  it('falls back to polling after too many drops in a row', async () => {
    const drop = (init: RequestInit | undefined) =>
      stream(
        [frame(30, 'scan.progress', { id: 'scan_a', status: 'running', progress: 20 })],
        init?.signal,
        false,
      );
    const { fetch, calls } = service(
      [drop, drop, drop],
      [scan('running', 10), scan('completed', 100, 'complete')],
    );
    const { followed, lines } = await follow(fetch, { stream: { maxReconnects: 2 } });
    expect(followed.scan.status).toBe('completed');
    expect(calls.filter((c) => c.path === '/api/v1/events').map((c) => c.lastEventId)).toEqual([
      undefined,
      '30',
      '30',
    ]);
    expect(lines.filter((l) => l.includes('by polling'))).toEqual([
      'The event stream is not available (it dropped 3 times in a row (last: the service ended it)); following scan scan_a by polling every 0.01s.',
    ]);
  });

  it('ends at the deadline with the scan as last known, for the caller to cancel', async () => {
    const { fetch } = service(
      [(init) => stream(['retry: 3000\n\n'], init?.signal, true)],
      [scan('running', 30)],
    );
    const { followed } = await follow(fetch, { timeoutMs: 150 });
    expect(followed).toMatchObject({ timedOut: true, scan: { status: 'running', progress: 30 } });
  });

  it('throws when the run is aborted while the stream is open', async () => {
    const abort = new AbortController();
    const { fetch } = service(
      [
        (init) => {
          setImmediate(() => abort.abort(new Error('the job was cancelled')));
          return stream(['retry: 3000\n\n'], init?.signal, true);
        },
      ],
      [scan('running', 30)],
    );
    await expect(follow(fetch, { signal: abort.signal })).rejects.toThrow('the job was cancelled');
  });

  it('reopens the stream with a refreshed bearer token when the token falls due for a refresh', async () => {
    // Due for a refresh (five minutes before it expires) 200 ms from now.
    const token = jwt(Date.now() + 5 * 60_000 + 200);
    const { fetch, calls, authorizations } = service(
      [
        (init) =>
          stream(
            [frame(40, 'scan.progress', { id: 'scan_a', status: 'running', progress: 20 })],
            init?.signal,
            true,
          ),
        (init) => stream([frame(41, 'scan.completed', { id: 'scan_a' })], init?.signal, true),
      ],
      [scan('running', 10), scan('completed', 100, 'complete')],
    );
    const { followed, sleeps } = await follow(fetch, { token });
    expect(followed.scan.status).toBe('completed');
    expect(calls.map((c) => `${c.path} ${c.lastEventId ?? ''}`.trim())).toEqual([
      '/api/v1/events',
      '/api/v1/scans/scan_a',
      '/api/v1/auth/refresh',
      '/api/v1/events 40',
      '/api/v1/scans/scan_a',
    ]);
    expect(authorizations[0]).toBe(`Bearer ${token}`);
    expect(authorizations[3]).not.toBe(`Bearer ${token}`);
    expect(authorizations[3]).toMatch(/^Bearer eyJ/);
    // Reopened at once: not a drop, so no reconnection delay.
    expect(sleeps).toEqual([]);
  });

  it('polls without opening the stream with follow: poll', async () => {
    const { fetch, calls } = service([], [scan('running', 10), scan('completed', 100, 'complete')]);
    const { followed, sleeps } = await follow(fetch, { follow: 'poll' });
    expect(followed.scan.status).toBe('completed');
    expect(calls.map((c) => c.path)).toEqual(['/api/v1/scans/scan_a', '/api/v1/scans/scan_a']);
    expect(sleeps).toEqual([5]);
  });
});
