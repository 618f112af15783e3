import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError, RedirectError, isUserError } from '../../../../action/core/errors.ts';
import { scanwardError } from '../../../../action/service/api-errors.ts';
import { ScanwardClient } from '../../../../action/service/client.ts';
import { acquireCredentials, tokenExpiry } from '../../../../action/service/credentials.ts';
import {
  backoffMs,
  requestWithRetry,
  retryAfterMs,
  type HttpDeps,
  type RetryPolicy,
} from '../../../../action/service/http.ts';

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

const apiKey = (key: string, http: HttpDeps) =>
  acquireCredentials(
    { kind: 'api-key', apiKey: key },
    { baseUrl: 'http://127.0.0.1:1', http, userAgent: 'test' },
  );

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

  it('points a web option the service refused at its input, a header by its name too', async () => {
    const refused = (field: string) =>
      scanwardError(json(422, { detail: 'bad', error_code: 'VALIDATION_ERROR', field }), 'x');
    expect((await refused('web.authentication.login_url')).message).toContain('Check the `login-url` input');
    expect((await refused('web.authentication.headers.X Bad')).message).toContain(
      'Check the `auth-headers` input',
    );
    expect((await refused('web.exclude_paths')).message).toContain('Check the `exclude-paths` input');
  });

  it('describes an answer that is not JSON (a proxy’s page) in one line, without its markup', async () => {
    const error = await scanwardError(new Response('<html>Bad gateway</html>', { status: 502 }), 'read scan');
    expect(error.code).toBe('HTTP_502');
    expect(error.message).toContain('an HTML page ("Bad gateway"), not the Scanward API');
    expect(error.message).not.toContain('<');
    expect(error.message).not.toContain('\n');
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
    const given = jwt(now / 1000 + 60);
    const client = new ScanwardClient({
      baseUrl: 'http://127.0.0.1:1',
      credentials: acquireCredentials(
        { kind: 'token', token: given },
        { baseUrl: 'http://127.0.0.1:1', http: d, userAgent: 'test', onSecret: (s) => secrets.push(s) },
      ),
      http: d,
      userAgent: 'test',
    });
    const scan = await client.getScan('scan_1');
    expect(scan.status).toBe('running');
    const calls = d.calls as Array<{ url: string; init: RequestInit }>;
    expect(calls[0]!.url).toBe('http://127.0.0.1:1/api/v1/auth/refresh');
    expect((calls[1]!.init.headers as Record<string, string>).authorization).toBe(`Bearer ${fresh}`);
    expect(secrets).toEqual([given, fresh]);
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
      credentials: apiKey('k', d),
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
    const http = deps([json(200, { hello: 'world' })]);
    const client = new ScanwardClient({
      baseUrl: 'http://127.0.0.1:1',
      credentials: apiKey('k', http),
      http,
      userAgent: 'test',
    });
    await expect(client.getScan('scan_1')).rejects.toThrow(
      /unexpected body.*is api-url the Scanward service\?/,
    );
  });
});

describe('redirects', () => {
  const redirect = (status: number, location?: string) =>
    new Response(null, { status, headers: location === undefined ? {} : { location } });

  it('are never followed: fetch is told not to, and a 3xx answer fails at once, naming where it pointed', async () => {
    for (const status of [301, 302, 303, 307, 308]) {
      const d = deps([redirect(status, 'http://127.0.0.2:9999/api/v1/scans')]);
      const error = await requestWithRetry(
        d,
        'http://127.0.0.1:8000/api/v1/scans',
        { method: 'POST', headers: { 'x-api-key': 'k' } },
        'Scanward: create the scan',
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RedirectError);
      expect((error as RedirectError).location).toBe('http://127.0.0.2:9999/api/v1/scans');
      expect((error as Error).message).toContain(
        `the service answered ${status} with a redirect to http://127.0.0.2:9999/api/v1/scans`,
      );
      const calls = d.calls as Array<{ init: RequestInit }>;
      expect(calls).toHaveLength(1);
      expect(calls[0]!.init.redirect).toBe('manual');
      expect(d.sleeps).toEqual([]);
    }
  });

  it('names a relative Location as an address, and says when there is none', async () => {
    const relative = await requestWithRetry(
      deps([redirect(302, '/login?next=%2Fapi')]),
      'https://scanward.example.com/api/v1/scans/scan_1',
      {},
      'x',
    ).then(
      () => expect.unreachable(),
      (e: unknown) => e as RedirectError,
    );
    expect(relative.location).toBe('https://scanward.example.com/login?next=%2Fapi');
    const none = await requestWithRetry(deps([redirect(307)]), 'http://127.0.0.1/x', {}, 'x').then(
      () => expect.unreachable(),
      (e: unknown) => e as RedirectError,
    );
    expect(none.location).toBeUndefined();
    expect(none.message).toContain('(no Location header)');
  });

  it('are a mistake of the user (api-url), whatever the client was asked to do', async () => {
    const d = deps([redirect(307, 'https://elsewhere.example.com/api/v1/scans')]);
    const client = new ScanwardClient({
      baseUrl: 'http://scanward.example.com',
      credentials: apiKey('sw_secret', d),
      http: d,
      userAgent: 'test',
    });
    const error = await client
      .createScan({ target: 'app.example.com', scan_type: 'quick' }, 'key-1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedirectError);
    expect(isUserError(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /^Scanward: create the scan: the service answered 307 with a redirect to https:\/\/elsewhere\.example\.com\/api\/v1\/scans\. .*set api-url to the address the service answers on itself\.$/,
    );
    expect((d.calls as unknown[]).length).toBe(1);
  });

  it('are not followed when refreshing a bearer token either', async () => {
    const now = 1_700_000_000_000;
    const soon = `h.${Buffer.from(JSON.stringify({ exp: now / 1000 + 60 })).toString('base64url')}.s`;
    const d = deps([redirect(308, 'https://elsewhere.example.com/refresh')], now);
    const credentials = acquireCredentials(
      { kind: 'token', token: soon },
      { baseUrl: 'http://127.0.0.1:1', http: d, userAgent: 'test' },
    );
    await expect(credentials.headers()).rejects.toThrow(RedirectError);
    expect((d.calls as Array<{ init: RequestInit }>)[0]!.init.redirect).toBe('manual');
  });
});

describe('credentials', () => {
  it('send an API key as X-API-Key and a token as a bearer, and hand each secret over for masking', async () => {
    const http = deps([]);
    const secrets: string[] = [];
    const onSecret = (s: string) => void secrets.push(s);
    const key = acquireCredentials(
      { kind: 'api-key', apiKey: 'sw_k' },
      { baseUrl: '', http, userAgent: 't', onSecret },
    );
    const token = acquireCredentials(
      { kind: 'token', token: 'opaque' },
      { baseUrl: '', http, userAgent: 't', onSecret },
    );
    expect(await key.headers()).toEqual({ 'x-api-key': 'sw_k' });
    expect(await token.headers()).toEqual({ authorization: 'Bearer opaque' });
    expect(secrets).toEqual(['sw_k', 'opaque']);
    expect(http.calls).toEqual([]);
  });
});
