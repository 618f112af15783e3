import { describe, expect, it } from 'vitest';
import { ScanwardClient, scanwardError, tokenExpiry } from '../../../action/client.ts';
import { ApiError, NetworkError } from '../../../action/errors.ts';
import {
  backoffMs,
  requestWithRetry,
  retryAfterMs,
  type HttpDeps,
  type RetryPolicy,
} from '../../../action/http.ts';
import { fromActionsContext } from '../../../action/context.ts';

/** A fetch that answers from a script and records each call. */
function scriptedFetch(answers: Array<Response | Error>) {
  const calls: Array<{ url: string; init?: RequestInit }> = [];
  const fetch = async (url: string, init?: RequestInit) => {
    calls.push({ url, init });
    const next = answers.shift();
    if (!next) throw new Error('no scripted answer left');
    if (next instanceof Error) throw next;
    return next;
  };
  return { fetch, calls };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

const POLICY: RetryPolicy = {
  attempts: 3,
  baseDelayMs: 100,
  maxDelayMs: 1000,
  maxRetryAfterMs: 60_000,
  requestTimeoutMs: 5000,
};

function deps(answers: Array<Response | Error>, now = 0): HttpDeps & { sleeps: number[]; calls: unknown[] } {
  const { fetch, calls } = scriptedFetch(answers);
  const sleeps: number[] = [];
  return {
    fetch,
    calls,
    sleeps,
    sleep: async (ms) => void sleeps.push(ms),
    now: () => now,
    retry: POLICY,
  };
}

describe('requests with retries', () => {
  it('waits what Retry-After says, in seconds or as a date', () => {
    expect(retryAfterMs('7', 0)).toBe(7000);
    expect(retryAfterMs('Thu, 01 Jan 1970 00:00:30 GMT', 10_000)).toBe(20_000);
    expect(retryAfterMs(null, 0)).toBeUndefined();
    expect(retryAfterMs('soon', 0)).toBeUndefined();
  });

  it('backs off exponentially within the ceiling', () => {
    expect(backoffMs(POLICY, 1, () => 0)).toBe(50);
    expect(backoffMs(POLICY, 3, () => 1)).toBe(400);
    expect(backoffMs(POLICY, 10, () => 1)).toBe(1000);
  });

  it('retries 429 after Retry-After, and 5xx and network errors with backoff, then returns the answer', async () => {
    const d = deps([
      json(429, {}, { 'retry-after': '3' }),
      new TypeError('fetch failed'),
      json(200, { ok: true }),
    ]);
    const res = await requestWithRetry(
      { ...d, retry: { ...POLICY, attempts: 4 } },
      'http://127.0.0.1/x',
      {},
      'x',
    );
    expect(res.status).toBe(200);
    expect(d.calls).toHaveLength(3);
    expect(d.sleeps[0]).toBe(3000);
    expect(d.sleeps[1]).toBeGreaterThanOrEqual(100);
  });

  it('does not retry other client errors', async () => {
    const d = deps([json(422, { detail: 'bad', error_code: 'VALIDATION_ERROR' })]);
    expect((await requestWithRetry(d, 'http://127.0.0.1/x', {}, 'x')).status).toBe(422);
    expect(d.sleeps).toEqual([]);
  });

  it('gives up after the last attempt: the last answer, or a NetworkError when none came', async () => {
    const d = deps([json(503, {}), json(503, {}), json(503, {})]);
    expect((await requestWithRetry(d, 'http://127.0.0.1/x', {}, 'x')).status).toBe(503);
    expect(d.sleeps).toHaveLength(2);

    const n = deps([
      new TypeError('fetch failed'),
      new TypeError('fetch failed'),
      new TypeError('fetch failed'),
    ]);
    await expect(requestWithRetry(n, 'http://127.0.0.1/x', {}, 'read it')).rejects.toThrow(NetworkError);
  });

  it('stops retrying when the wait would pass the deadline or exceed the longest Retry-After', async () => {
    const d = deps([json(429, {}, { 'retry-after': '30' })], 1000);
    expect((await requestWithRetry(d, 'http://127.0.0.1/x', {}, 'x', 5000)).status).toBe(429);
    const long = deps([json(429, {}, { 'retry-after': '3600' })]);
    expect((await requestWithRetry(long, 'http://127.0.0.1/x', {}, 'x')).status).toBe(429);
    expect([...d.sleeps, ...long.sleeps]).toEqual([]);
  });
});

describe('Scanward API errors', () => {
  it('reads the spec error shape and adds what to do', async () => {
    const error = await scanwardError(
      json(403, { detail: 'monthly scan quota used up', error_code: 'SCAN_QUOTA_EXCEEDED' }),
      'create the scan',
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error.isUserError).toBe(true);
    expect(error.message).toBe(
      'Scanward API answered 403 SCAN_QUOTA_EXCEEDED: could not create the scan: monthly scan quota used up. ' +
        "The organization's monthly scan quota is used up. GET /api/v1/scans/quota shows when it resets; an operator can raise it with `scanward admin org set-limits`",
    );
  });

  it('points validation errors at the input that caused them', async () => {
    const ports = await scanwardError(
      json(422, { detail: 'bad', error_code: 'VALIDATION_ERROR', field: 'ports' }),
      'x',
    );
    expect(ports.message).toContain('(field: ports). Check the `ports` input');
    const key = await scanwardError(
      json(422, { detail: 'reused', error_code: 'VALIDATION_ERROR', field: 'Idempotency-Key' }),
      'x',
    );
    expect(key.message).toContain('use a new key');
  });

  it('keeps the text of an answer that is not JSON, e.g. from a proxy', async () => {
    const error = await scanwardError(new Response('<html>Bad gateway</html>', { status: 502 }), 'read scan');
    expect(error.code).toBe('HTTP_502');
    expect(error.message).toContain('<html>Bad gateway</html>');
    expect(error.isUserError).toBe(false);
  });
});

describe('the Scanward client', () => {
  const jwt = (exp: number) =>
    `h.${Buffer.from(JSON.stringify({ sub: 'user_1', exp })).toString('base64url')}.sig`;

  it('reads a JWT expiry without verifying it', () => {
    expect(tokenExpiry(jwt(1_700_000_000))).toBe(1_700_000_000_000);
    expect(tokenExpiry('not-a-jwt')).toBeUndefined();
  });

  it('refreshes a bearer token that is about to expire, and uses the new one', async () => {
    const now = 1_700_000_000_000;
    const fresh = jwt(now / 1000 + 3600);
    const d = deps(
      [
        json(200, { access_token: fresh, expires_in: 3600 }),
        json(200, { id: 'scan_1', target: 't', scan_type: 'quick', status: 'running' }),
      ],
      now,
    );
    const secrets: string[] = [];
    const client = new ScanwardClient({
      baseUrl: 'http://127.0.0.1:1',
      credentials: { kind: 'token', token: jwt(now / 1000 + 60) },
      http: d,
      userAgent: 'test',
      onSecret: (s) => secrets.push(s),
    });
    const scan = await client.getScan('scan_1');
    expect(scan.status).toBe('running');
    const calls = d.calls as Array<{ url: string; init: RequestInit }>;
    expect(calls[0]!.url).toBe('http://127.0.0.1:1/api/v1/auth/refresh');
    expect((calls[1]!.init.headers as Record<string, string>).authorization).toBe(`Bearer ${fresh}`);
    expect(secrets).toEqual([fresh]);
  });

  it('walks every page of the findings, 100 at a time', async () => {
    const item = (id: string) => ({
      id,
      title: 't',
      severity: 'low',
      cvss_score: 1,
      status: 'open',
      tool: 'x',
      affected_component: 'tcp://h:1',
      description: '',
      remediation: 'r',
      cve_ids: [],
      detected_at: '2026-01-01T00:00:00.000Z',
    });
    const d = deps([
      json(200, { items: [item('a')], total: 2, page: 1, per_page: 100, pages: 2 }),
      json(200, { items: [item('b')], total: 2, page: 2, per_page: 100, pages: 2 }),
    ]);
    const client = new ScanwardClient({
      baseUrl: 'http://127.0.0.1:1',
      credentials: { kind: 'api-key', apiKey: 'k' },
      http: d,
      userAgent: 'test',
    });
    const findings = await client.listScanFindings('scan_1');
    expect(findings.map((f) => f.id)).toEqual(['a', 'b']);
    const urls = (d.calls as Array<{ url: string }>).map((c) => c.url);
    expect(urls).toEqual([
      'http://127.0.0.1:1/api/v1/scans/scan_1/findings?page=1&per_page=100',
      'http://127.0.0.1:1/api/v1/scans/scan_1/findings?page=2&per_page=100',
    ]);
  });

  it('says plainly when the answer is not a Scanward body', async () => {
    const client = new ScanwardClient({
      baseUrl: 'http://127.0.0.1:1',
      credentials: { kind: 'api-key', apiKey: 'k' },
      http: deps([json(200, { hello: 'world' })]),
      userAgent: 'test',
    });
    await expect(client.getScan('scan_1')).rejects.toThrow(
      /unexpected body.*is api-url the Scanward service\?/,
    );
  });
});

describe('the workflow context', () => {
  const actions = {
    eventName: 'pull_request',
    payload: { pull_request: { number: 7, html_url: 'https://github.com/octo/shop/pull/7' } },
    sha: 'a'.repeat(40),
    ref: 'refs/pull/7/merge',
    runId: 99,
    runAttempt: 2,
    job: 'scan',
    action: 'scanward',
    apiUrl: 'https://ghe.example.com/api/v3/',
    serverUrl: 'https://ghe.example.com',
  };
  type Context = Parameters<typeof fromActionsContext>[0];
  const of = (overrides: Record<string, unknown>) => ({ ...actions, ...overrides }) as unknown as Context;

  it('reads the pull request, run and GHES API address from @actions/github', () => {
    expect(fromActionsContext(of({}), { GITHUB_REPOSITORY: 'octo/shop' })).toEqual({
      eventName: 'pull_request',
      repository: 'octo/shop',
      sha: 'a'.repeat(40),
      ref: 'refs/pull/7/merge',
      runId: '99',
      runAttempt: '2',
      job: 'scan',
      step: 'scanward',
      serverUrl: 'https://ghe.example.com',
      apiUrl: 'https://ghe.example.com/api/v3',
      pullRequest: { number: 7, url: 'https://github.com/octo/shop/pull/7' },
    });
  });

  it('has no pull request on push, merge_group or schedule events, and no run outside a runner', () => {
    for (const eventName of ['push', 'merge_group', 'schedule']) {
      expect(fromActionsContext(of({ eventName }), {}).pullRequest).toBeUndefined();
    }
    const outside = fromActionsContext(
      of({ eventName: '', payload: {}, runId: NaN, runAttempt: NaN, apiUrl: '', serverUrl: '' }),
      {},
    );
    expect(outside).toMatchObject({
      runId: undefined,
      runAttempt: undefined,
      apiUrl: 'https://api.github.com',
    });
  });
});
