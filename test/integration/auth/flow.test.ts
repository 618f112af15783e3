import { decodeJwt, decodeProtectedHeader } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { deleteSession, listMySessions, logoutAll, refreshToken } from '../../../server/routes/auth.ts';
import { apiClient, expectError, okBody, type Answer, type RouteInput } from '../../helpers/api-client.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory, logIn, type Tenant, type TestUser } from '../../helpers/factory.ts';
import { testEngine } from '../../helpers/database.ts';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Every error answer has the one shape `{detail, error_code, field?}`. */
describe(`authentication flow over HTTP (${testEngine})`, () => {
  let app: TestApp;
  let tenant: Tenant;

  /** A login from a browser that says `userAgent` (the sessions list shows it). */
  const login = (user: TestUser, userAgent = 'flow-test/1.0') =>
    logIn(app, user, {}, { headers: { 'user-agent': userAgent } });
  const tokenOf = (res: Answer<{ access_token: string }>) => okBody(res, 200).access_token;
  const sessions = async (token: string, query: RouteInput<typeof listMySessions>['query'] = {}) =>
    okBody(await apiClient(app, { token }).call(listMySessions, { query }), 200);

  const suite = useTestApp();
  beforeAll(async () => {
    app = suite.app;
    tenant = await factory.tenant(app, { plan: 'professional' });
  });

  it('logs in with the form fields and answers a bearer JWT of one hour bound to a new session', async () => {
    const res = await login(tenant.admin);
    expect(res.status).toBe(200);
    const body = res.body;
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'token_type']);
    expect(body.token_type).toBe('bearer');
    expect(body.expires_in).toBe(3600);
    const token = body.access_token;
    expect(decodeProtectedHeader(token).alg).toBe('HS256');
    const claims = decodeJwt(token);
    expect(claims.sub).toBe(tenant.admin.id);
    expect(claims.org).toBe(tenant.orgId);
    expect(claims.sid).toMatch(/^sess_[0-9a-z]{24}$/);
    expect(typeof claims.jti).toBe('string');
    expect(claims.exp! - claims.iat!).toBe(3600);
  });

  it('ignores the case of the e-mail and extra OAuth2 form fields', async () => {
    const res = await logIn(
      app,
      { email: tenant.admin.email.toUpperCase(), password: tenant.admin.password },
      { grant_type: 'password' },
    );
    expect(res.status).toBe(200);
  });

  it('answers a wrong password and an unknown e-mail identically', async () => {
    const wrong = await logIn(app, { email: tenant.admin.email, password: 'not-the-password' });
    const unknown = await logIn(app, { email: 'nobody@nowhere.example.test', password: 'not-the-password' });
    const a = await expectError(wrong, 401, 'INVALID_CREDENTIALS');
    const b = await expectError(unknown, 401, 'INVALID_CREDENTIALS');
    expect(a).toEqual({ detail: 'incorrect email or password', error_code: 'INVALID_CREDENTIALS' });
    expect(b).toEqual(a);
  });

  it('names the missing form field and refuses a JSON login body', async () => {
    const missing = await app.request('/api/v1/auth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: tenant.admin.email }),
    });
    const body = await expectError(missing, 422, 'VALIDATION_ERROR');
    expect(body.field).toBe('password');
    const json = await app.request('/api/v1/auth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: tenant.admin.email, password: tenant.admin.password }),
    });
    await expectError(json, 400, 'BAD_REQUEST');
  });

  it('lists sessions with the caller flagged current, its address, user agent and a 30-day lifetime', async () => {
    const user = await tenant.addUser('member');
    const first = tokenOf(await login(user, 'browser-one'));
    const second = tokenOf(await login(user, 'browser-two'));

    const seenByFirst = await sessions(first);
    expect(seenByFirst).toMatchObject({ total: 2, page: 1, per_page: 20, pages: 1 });
    expect(seenByFirst.items.map((s) => s.user_agent)).toEqual(['browser-two', 'browser-one']);
    const current = seenByFirst.items.filter((s) => s.current);
    expect(current).toHaveLength(1);
    expect(current[0]!.id).toBe(decodeJwt(first).sid);
    for (const s of seenByFirst.items) {
      expect(Object.keys(s).sort()).toEqual(
        ['created_at', 'current', 'expires_at', 'id', 'ip_address', 'last_used_at', 'user_agent'].sort(),
      );
      expect(s.created_at).toMatch(ISO_MS);
      expect(s.last_used_at).toMatch(ISO_MS);
      expect(s.ip_address).toMatch(/127\.0\.0\.1$/);
      expect(Date.parse(s.expires_at) - Date.parse(s.created_at)).toBe(30 * 24 * 3600 * 1000);
    }

    const seenBySecond = await sessions(second);
    expect(seenBySecond.items.find((s) => s.current)!.id).toBe(decodeJwt(second).sid);

    const paged = await sessions(first, { per_page: 1, page: 2 });
    expect(paged).toMatchObject({ total: 2, page: 2, per_page: 1, pages: 2 });
    expect(paged.items.map((s) => s.user_agent)).toEqual(['browser-one']);
    const bad = await apiClient(app, { token: first }).call(listMySessions, { query: { per_page: 101 } });
    expect((await expectError(bad, 422, 'VALIDATION_ERROR')).field).toBe('per_page');
  });

  it('never lists or revokes the sessions of another user or organization', async () => {
    const user = await tenant.addUser('member');
    const colleague = await tenant.addUser('admin');
    const stranger = await factory.tenant(app, { plan: 'enterprise' });
    const mine = tokenOf(await login(user));
    const theirs = tokenOf(await login(colleague));
    const foreign = tokenOf(await login(stranger.admin));

    expect((await sessions(mine)).items.map((s) => s.id)).toEqual([decodeJwt(mine).sid]);
    for (const victim of [theirs, foreign]) {
      const res = await apiClient(app, { token: mine }).call(deleteSession, {
        params: { session_id: String(decodeJwt(victim).sid) },
      });
      await expectError(res, 404, 'NOT_FOUND');
      expect((await apiClient(app, { token: victim }).call(listMySessions)).status).toBe(200);
    }
    const missing = await apiClient(app, { token: mine }).call(deleteSession, {
      params: { session_id: 'sess_doesnotexist' },
    });
    await expectError(missing, 404, 'NOT_FOUND');
  });

  it('refreshes a token into a new one of the same session; revoking the session kills both at once', async () => {
    const user = await tenant.addUser('member');
    const token = tokenOf(await login(user, 'laptop'));
    const other = tokenOf(await login(user, 'phone'));

    const refreshRes = await apiClient(app, { token }).call(refreshToken);
    expect(refreshRes.status).toBe(200);
    const refreshed = refreshRes.body;
    expect(refreshed.token_type).toBe('bearer');
    expect(refreshed.expires_in).toBe(3600);
    expect(refreshed.access_token).not.toBe(token);
    expect(decodeJwt(refreshed.access_token).sid).toBe(decodeJwt(token).sid);
    expect(decodeJwt(refreshed.access_token).jti).not.toBe(decodeJwt(token).jti);
    expect((await sessions(refreshed.access_token)).total).toBe(2);

    const sid = String(decodeJwt(token).sid);
    const revoke = await apiClient(app, { token: other }).call(deleteSession, {
      params: { session_id: sid },
    });
    expect(revoke.status).toBe(200);
    expect(revoke.body).toEqual({ id: sid, revoked: true });

    for (const dead of [token, refreshed.access_token]) {
      await expectError(await apiClient(app, { token: dead }).call(listMySessions), 401, 'INVALID_TOKEN');
      await expectError(await apiClient(app, { token: dead }).call(refreshToken), 401, 'INVALID_TOKEN');
    }
    const again = await apiClient(app, { token: other }).call(deleteSession, { params: { session_id: sid } });
    await expectError(again, 404, 'NOT_FOUND');
    const left = await sessions(other);
    expect(left.items.map((s) => s.user_agent)).toEqual(['phone']);
  });

  it('logout-all revokes every session of the user, the caller included, and no one else', async () => {
    const user = await tenant.addUser('member');
    const colleague = await tenant.addUser('member');
    const tokens = [
      tokenOf(await login(user, 'a')),
      tokenOf(await login(user, 'b')),
      tokenOf(await login(user, 'c')),
    ];
    const colleagueToken = tokenOf(await login(colleague));

    const res = await apiClient(app, { token: tokens[1]! }).call(logoutAll);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ revoked: 3 });
    for (const t of tokens) {
      await expectError(await apiClient(app, { token: t }).call(listMySessions), 401, 'INVALID_TOKEN');
    }
    expect((await sessions(colleagueToken)).total).toBe(1);
    // The password still works: logging out is not locking out.
    expect((await sessions(tokenOf(await login(user)))).total).toBe(1);
  });

  it('asks for credentials on the session endpoints', async () => {
    await expectError(await apiClient(app).call(listMySessions), 401, 'AUTHENTICATION_REQUIRED');
    await expectError(await apiClient(app).call(refreshToken), 401, 'AUTHENTICATION_REQUIRED');
    await expectError(
      await apiClient(app, { headers: { authorization: 'Bearer' } }).call(logoutAll),
      401,
      'INVALID_TOKEN',
    );
  });

  it('opens the API documentation with HTTP Basic e-mail and password, and challenges without', async () => {
    const basic = (user: string, password: string) =>
      `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
    const ok = await apiClient(app, {
      headers: { authorization: basic(tenant.admin.email, tenant.admin.password) },
    }).get('/docs');
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^text\/html/);
    const wrong = await apiClient(app, {
      headers: { authorization: basic(tenant.admin.email, 'wrong-password') },
    }).get('/docs');
    await expectError(wrong, 401, 'INVALID_CREDENTIALS');
    expect(wrong.headers.get('www-authenticate')).toBe('Basic realm="Scanward"');
    const none = await apiClient(app).get('/docs');
    await expectError(none, 401, 'AUTHENTICATION_REQUIRED');
    expect(none.headers.get('www-authenticate')).toBe('Basic realm="Scanward"');
  });

  it('documents every authentication and API key route in /openapi.json with its errors', async () => {
    const token = tokenOf(await login(tenant.admin));
    // eslint-disable-next-line no-restricted-syntax -- /openapi.json is a documentation page, not a declared route: its shape is typed here
    const res = await apiClient(app, { token }).get<{
      paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>>;
    }>('/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body;
    const documented = (path: string, method: string) => doc.paths[path]?.[method]?.responses ?? {};
    expect(documented('/api/v1/auth/token', 'post')['401']?.description).toMatch(/MFA_REQUIRED/);
    expect(documented('/api/v1/auth/token', 'post')['429']).toBeDefined();
    expect(documented('/api/v1/auth/sessions/{session_id}', 'delete')['404']).toBeDefined();
    expect(documented('/api/v1/api-keys', 'post')['201']).toBeDefined();
    expect(documented('/api/v1/api-keys', 'post')['403']?.description).toMatch(/PLAN_UPGRADE_REQUIRED/);
    for (const [path, method] of [
      ['/api/v1/auth/refresh', 'post'],
      ['/api/v1/auth/sessions', 'get'],
      ['/api/v1/auth/logout-all', 'post'],
      ['/api/v1/auth/mfa/setup', 'post'],
      ['/api/v1/auth/mfa/verify', 'post'],
      ['/api/v1/auth/mfa', 'get'],
      ['/api/v1/auth/mfa/recovery-codes', 'post'],
      ['/api/v1/auth/mfa', 'delete'],
      ['/api/v1/api-keys', 'get'],
      ['/api/v1/api-keys/{key_id}', 'delete'],
    ]) {
      expect(Object.keys(documented(path!, method!)), `${method} ${path}`).toContain('200');
    }
  });
});
