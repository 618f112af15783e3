import { beforeAll, describe, expect, it } from 'vitest';
import { postApiKey } from '../../../server/routes/api-keys.ts';
import { getConsoleSession, signInConsole, signOutConsole } from '../../../server/routes/console-session.ts';
import { listScansRoute } from '../../../server/routes/scans.ts';
import { apiClient, expectError, okBody } from '../../helpers/api-client.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { enrollMfa, factory, type Tenant } from '../../helpers/factory.ts';
import { testEngine } from '../../helpers/database.ts';

/** The web console's cookie session and the pages at `/` (no browser: the HTTP contract only). */

interface SignedIn {
  cookie: string;
  setCookie: string;
  csrf: string;
  sessionId: string;
}

describe(`console session and pages (${testEngine})`, () => {
  let app: TestApp;
  let tenant: Tenant;

  const suite = useTestApp();
  beforeAll(async () => {
    app = suite.app;
    tenant = await factory.tenant(app);
  });

  const signIn = async (): Promise<SignedIn> => {
    const res = await apiClient(app).call(signInConsole, {
      body: { email: tenant.admin.email, password: tenant.admin.password },
    });
    const body = okBody(res, 200);
    const setCookie = res.headers.get('set-cookie') ?? '';
    return {
      setCookie,
      cookie: setCookie.split(';')[0]!,
      csrf: body.csrf_token,
      sessionId: body.session_id,
    };
  };

  it('signs in with a cookie that page scripts cannot read and that no other site sends', async () => {
    const s = await signIn();
    expect(s.cookie).toMatch(/^scanward_session=ey/);
    expect(s.setCookie.toLowerCase()).toContain('httponly');
    expect(s.setCookie.toLowerCase()).toContain('samesite=strict');
    expect(s.setCookie.toLowerCase()).toContain('path=/');

    const signedIn = apiClient(app, { headers: { cookie: s.cookie } });
    const { session } = okBody(await signedIn.call(getConsoleSession), 200);
    expect(session?.user.email).toBe(tenant.admin.email);
    expect(session?.csrf_token).toBe(s.csrf);

    const scans = await signedIn.call(listScansRoute);
    expect(scans.status).toBe(200);
    // The documentation pages take any credential the API takes: no Basic prompt once signed in.
    expect((await app.request('/docs')).status).toBe(401);
    expect((await app.request('/docs', { headers: { cookie: s.cookie } })).status).toBe(200);
  });

  it('answers a null session, not an error, without a valid cookie', async () => {
    const none = await apiClient(app).call(getConsoleSession);
    expect(none.body).toEqual({ session: null });
    const stale = await apiClient(app, { headers: { cookie: 'scanward_session=not-a-token' } }).call(
      getConsoleSession,
    );
    expect(stale.body).toEqual({ session: null });
    expect(stale.headers.get('set-cookie')).toMatch(/scanward_session=;/);
  });

  it('refuses a state-changing cookie request without the CSRF token of its session', async () => {
    const s = await signIn();
    const other = await signIn();
    const post = (headers: Record<string, string>) =>
      apiClient(app, { headers: { cookie: s.cookie } }).call(
        postApiKey,
        { body: { name: 'ci', permissions: ['read:scans'] } },
        { headers },
      );
    await expectError(await post({}), 403, 'INSUFFICIENT_PERMISSION');
    expect((await post({ 'x-csrf-token': other.csrf })).status).toBe(403);
    expect((await post({ 'x-csrf-token': s.csrf })).status).toBe(201);
  });

  it('signs out by revoking the session, so the cookie stops working', async () => {
    const s = await signIn();
    const cookie = apiClient(app, { headers: { cookie: s.cookie } });
    const out = await cookie.call(signOutConsole, {}, { headers: { 'x-csrf-token': s.csrf } });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/scanward_session=;/);
    const after = await cookie.call(listScansRoute);
    expect(after.status).toBe(401);
  });

  it('asks for the MFA code only after the password is right, like the token endpoint', async () => {
    const member = await tenant.addUser('member');
    await enrollMfa(await tenant.client(member));
    const res = await apiClient(app).call(signInConsole, {
      body: { email: member.email, password: member.password },
    });
    await expectError(res, 401, 'MFA_REQUIRED');
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it('refuses a form-encoded sign-in, which a page of another site could submit', async () => {
    // A content type the contract refuses: sent as it is.
    const res = await app.request('/api/v1/auth/console/session', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: tenant.admin.email, password: tenant.admin.password }),
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it('serves the console at / and its page paths under the strict CSP, and its hashed assets', async () => {
    for (const path of ['/', '/findings', '/scans/scan_x', '/compliance/soc2-cc6.1']) {
      const res = await app.request(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
      const html = await res.text();
      expect(html).toContain('<div id="root">');
    }
    const html = await (await app.request('/')).text();
    const script = /src="(\/assets\/index-[\w-]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await app.request(script!);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toContain('text/javascript');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect((await app.request('/assets/../../package.json')).status).toBe(404);
    expect((await app.request('/api/v1/nothing')).status).toBe(404);
  });
});
