import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { testEngine } from '../../helpers/database.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory, mintApiKey, type Tenant } from '../../helpers/factory.ts';
import { eventually } from '../../helpers/poll.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe(`request logs and request ids (${testEngine})`, () => {
  let app: TestApp;
  let tenant: Tenant;
  const suite = useTestApp({ captureLogs: true });
  beforeAll(async () => {
    app = suite.app;
    tenant = await factory.tenant(app, { plan: 'professional' });
  });

  /** The request line logged for a request id, once it is written. */
  const requestLine = (requestId: string) =>
    eventually(
      async () => app.logs.find((l) => l.msg === 'request' && l.request_id === requestId),
      `the log line of ${requestId}`,
      5000,
    );

  it('writes one JSON line per request with method, route, status, duration and request id', async () => {
    const res = await app.request('/api/health', { headers: { 'x-request-id': 'trace-abc.123' } });
    expect(res.headers.get('x-request-id')).toBe('trace-abc.123');
    const line = await requestLine('trace-abc.123');
    expect(line).toMatchObject({ method: 'GET', route: '/api/health', status: 200 });
    expect(typeof line.ms).toBe('number');
    expect(app.rawLogs().trim().split('\n').length).toBe(app.logs.length);
  });

  it('logs the route template, not the concrete path with its ids or query', async () => {
    const res = await app.request('/api/v1/auth/sessions/sess_notreal123?x=1', {
      method: 'DELETE',
      headers: { 'x-request-id': 'template-check' },
    });
    expect(res.status).toBe(401);
    const line = await requestLine('template-check');
    expect(line.route).toBe('/api/v1/auth/sessions/:session_id');
    expect(JSON.stringify(line)).not.toContain('sess_notreal123');
  });

  it('gives a request without a usable X-Request-Id a fresh one and echoes it', async () => {
    const none = await app.request('/api/health');
    expect(none.headers.get('x-request-id')).toMatch(UUID);
    await requestLine(none.headers.get('x-request-id')!);

    const hostile = await app.request('/api/health', {
      headers: { 'x-request-id': 'a b"c\\d' + 'x'.repeat(200) },
    });
    const replaced = hostile.headers.get('x-request-id')!;
    expect(replaced).toMatch(UUID);
    await requestLine(replaced);
  });

  it('never logs passwords, tokens or API keys, wherever the request carried them', async () => {
    const secrets = {
      password: `pw-${randomBytes(8).toString('hex')}`,
      bearer: `eyJhbGciOiJIUzI1NiJ9.${randomBytes(12).toString('hex')}.sig`,
      apiKey: `sw_${randomBytes(16).toString('hex')}`,
      cookie: `cookie-${randomBytes(8).toString('hex')}`,
      query: `q-${randomBytes(8).toString('hex')}`,
    };
    const realKey = await mintApiKey(app.services.db, { id: tenant.admin.id, orgId: tenant.orgId });

    // A successful login: its body holds the real password, its answer the real token.
    const login = await app.request(`/api/v1/auth/token?access_token=${secrets.query}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Bearer ${secrets.bearer}`,
        'x-api-key': secrets.apiKey,
        cookie: `session=${secrets.cookie}`,
        'x-request-id': 'secret-login',
      },
      body: new URLSearchParams({ username: tenant.admin.email, password: tenant.admin.password }),
    });
    expect(login.status).toBe(200);
    const issued = ((await login.json()) as { access_token: string }).access_token;

    // A failed login with a wrong password, and the docs with Basic credentials and a real API key.
    const failed = await app.request('/api/v1/auth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-request-id': 'secret-failed' },
      body: new URLSearchParams({ username: tenant.admin.email, password: secrets.password }),
    });
    expect(failed.status).toBe(401);
    const basic = Buffer.from(`${tenant.admin.email}:${secrets.password}`).toString('base64');
    await app.request('/docs', {
      headers: { authorization: `Basic ${basic}`, 'x-request-id': 'secret-basic' },
    });
    await app.request('/openapi.json', { headers: { 'x-api-key': realKey, 'x-request-id': 'secret-key' } });
    await app.request('/api/v1/auth/sessions', {
      headers: { authorization: `Bearer ${issued}`, 'x-request-id': 'secret-bearer' },
    });

    for (const id of ['secret-login', 'secret-failed', 'secret-basic', 'secret-key', 'secret-bearer']) {
      await requestLine(id);
    }
    const raw = app.rawLogs();
    for (const secret of [...Object.values(secrets), tenant.admin.password, issued, realKey, basic]) {
      expect(raw).not.toContain(secret);
    }
  });
});
