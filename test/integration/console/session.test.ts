import { beforeAll, describe, expect, it } from 'vitest';
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
    const res = await app.request('/api/v1/auth/console/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: tenant.admin.email, password: tenant.admin.password }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { csrf_token: string; session_id: string };
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

    const me = await app.request('/api/v1/auth/console/session', { headers: { cookie: s.cookie } });
    const body = (await me.json()) as { session: { user: { email: string }; csrf_token: string } };
    expect(body.session.user.email).toBe(tenant.admin.email);
    expect(body.session.csrf_token).toBe(s.csrf);

    const scans = await app.request('/api/v1/scans', { headers: { cookie: s.cookie } });
    expect(scans.status).toBe(200);
    // The documentation pages take any credential the API takes: no Basic prompt once signed in.
    expect((await app.request('/docs')).status).toBe(401);
    expect((await app.request('/docs', { headers: { cookie: s.cookie } })).status).toBe(200);
  });

  it('answers a null session, not an error, without a valid cookie', async () => {
    const none = await app.request('/api/v1/auth/console/session');
    expect(await none.json()).toEqual({ session: null });
    const stale = await app.request('/api/v1/auth/console/session', {
      headers: { cookie: 'scanward_session=not-a-token' },
    });
    expect(await stale.json()).toEqual({ session: null });
    expect(stale.headers.get('set-cookie')).toMatch(/scanward_session=;/);
  });

  it('refuses a state-changing cookie request without the CSRF token of its session', async () => {
    const s = await signIn();
    const other = await signIn();
    const body = JSON.stringify({ name: 'ci', permissions: ['read:scans'] });
    const post = (headers: Record<string, string>) =>
      app.request('/api/v1/api-keys', {
        method: 'POST',
        headers: { cookie: s.cookie, 'content-type': 'application/json', ...headers },
        body,
      });
    const missing = await post({});
    expect(missing.status).toBe(403);
    expect(((await missing.json()) as { error_code: string }).error_code).toBe('INSUFFICIENT_PERMISSION');
    expect((await post({ 'x-csrf-token': other.csrf })).status).toBe(403);
    expect((await post({ 'x-csrf-token': s.csrf })).status).toBe(201);
  });

  it('signs out by revoking the session, so the cookie stops working', async () => {
    const s = await signIn();
    const out = await app.request('/api/v1/auth/console/session', {
      method: 'DELETE',
      headers: { cookie: s.cookie, 'x-csrf-token': s.csrf },
    });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/scanward_session=;/);
    const after = await app.request('/api/v1/scans', { headers: { cookie: s.cookie } });
    expect(after.status).toBe(401);
  });

  it('asks for the MFA code only after the password is right, like the token endpoint', async () => {
    const member = await tenant.addUser('member');
    await enrollMfa(await tenant.client(member));
    const res = await app.request('/api/v1/auth/console/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: member.email, password: member.password }),
    });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error_code: string }).error_code).toBe('MFA_REQUIRED');
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it('refuses a form-encoded sign-in, which a page of another site could submit', async () => {
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
