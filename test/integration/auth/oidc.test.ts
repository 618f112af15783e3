import { randomBytes } from 'node:crypto';
import { URI, type TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapIfEmpty } from '../../../server/identity/bootstrap.ts';
import { listAuditEventsRoute } from '../../../server/routes/audit-events.ts';
import { startTestApp, TEST_ENV, type TestApp } from '../../helpers/app.ts';
import { apiClient } from '../../helpers/api-client.ts';
import { testEngine } from '../../helpers/database.ts';
import { factory, logIn, stepWithRoom, type Tenant } from '../../helpers/factory.ts';
import { fetchTrusting } from '../../helpers/trusting-fetch.ts';
import { startFakeIssuer, type FakeIssuer, type NextSignIn } from '../../fixtures/oidc-issuer.ts';
import { generateLoopbackCertificates, type LoopbackCertificates } from '../../fixtures/tls-certificates.ts';
import {
  getAuthenticationSettings,
  getSignInMethods,
  putAuthenticationSettings,
} from '../../../server/routes/oidc.ts';
import { updateUserRoute } from '../../../server/routes/users.ts';
import { setupMfa, verifyMfa } from '../../../server/routes/auth.ts';

/**
 * Single sign-on over HTTP against a hand-made OpenID provider on loopback (HTTPS with a test
 * CA): the flow, auto-provisioning off and on, every ID token and state the callback must
 * refuse, logout and the organization's password switch. The browser flow against a real
 * provider is in test/integration/console/sso-browser.test.ts.
 */

interface Finished {
  status: number;
  location: string | null;
  /** `scanward_session=…` when signed in. */
  session: string | undefined;
  /** Every cookie set. */
  cookies: string[];
  text: string;
  contentType: string;
}

describe(`single sign-on with OpenID Connect (${testEngine})`, () => {
  let certs: LoopbackCertificates;
  let idp: FakeIssuer;
  let trusting: typeof fetch;
  /** Auto-provisioning off. */
  let app: TestApp;
  /** Auto-provisioning on, as `member`. */
  let provisioning: TestApp;

  const oidcEnv = (extra: Record<string, string> = {}) => ({
    SCANWARD_OIDC_ISSUER: idp.issuer,
    SCANWARD_OIDC_CLIENT_ID: idp.clientId,
    SCANWARD_OIDC_CLIENT_SECRET: idp.clientSecret,
    ...extra,
  });

  beforeAll(async () => {
    certs = generateLoopbackCertificates();
    idp = await startFakeIssuer(certs.server);
    trusting = fetchTrusting(certs.ca);
    app = await startTestApp({ env: oidcEnv() });
    app.services.oidcFetch = trusting;
    provisioning = await startTestApp({
      env: oidcEnv({ SCANWARD_OIDC_AUTO_PROVISION: 'true', SCANWARD_OIDC_DEFAULT_ROLE: 'member' }),
    });
    provisioning.services.oidcFetch = trusting;
    // The first start's organization and admin, as `scanward` makes them: the default organization.
    for (const a of [app, provisioning]) await bootstrapIfEmpty(a.services.db, a.config);
  });
  afterAll(async () => {
    await app?.close();
    await provisioning?.close();
    await idp?.close();
  });

  const email = () => `sso-${randomBytes(5).toString('hex')}@example.test`;
  const domainOf = (address: string) => address.slice(address.indexOf('@') + 1);

  /** The tenant's admin turns single sign-on on for the tenant's own e-mail domain. */
  async function optIn(target: TestApp, tenant: Tenant, extra: Record<string, unknown> = {}) {
    const admin = apiClient(target, { token: await tenant.bearer() });
    const res = await admin.call(putAuthenticationSettings, {
      body: {
        sso_enabled: true,
        sso_domains: [domainOf(tenant.admin.email)],
        ...extra,
      },
    });
    expect(res.status, res.text).toBe(200);
    return admin;
  }

  /** Browser steps over fetch: login → the provider → the callback (optionally tampered with). */
  async function signIn(
    target: TestApp,
    who: NextSignIn,
    tamper?: (callback: URL) => void,
    keepFlowCookie = true,
  ): Promise<Finished> {
    const start = await target.request('/api/v1/auth/oidc/login', { redirect: 'manual' });
    expect(start.status).toBe(302);
    const flowCookie = start.headers
      .getSetCookie()
      .find((c) => c.startsWith('scanward_oidc='))!
      .split(';')[0]!;
    idp.next(who);
    const atProvider = await trusting(start.headers.get('location')!, { redirect: 'manual' });
    expect(atProvider.status).toBe(302);
    const callback = new URL(atProvider.headers.get('location')!);
    tamper?.(callback);
    const done = await fetch(callback, {
      redirect: 'manual',
      headers: keepFlowCookie ? { cookie: flowCookie } : {},
    });
    return {
      status: done.status,
      location: done.headers.get('location'),
      session: done.headers
        .getSetCookie()
        .find((c) => c.startsWith('scanward_session=') && !c.startsWith('scanward_session=;'))
        ?.split(';')[0],
      cookies: done.headers.getSetCookie(),
      text: await done.text(),
      contentType: done.headers.get('content-type') ?? '',
    };
  }

  async function consoleSession(target: TestApp, cookie: string) {
    const res = await target.request('/api/v1/auth/console/session', { headers: { cookie } });
    return (
      (await res.json()) as {
        session: {
          csrf_token: string;
          user: { email: string; role: string };
          organization: { name: string };
        } | null;
      }
    ).session;
  }

  /** The default organization's admin (made at first start) reads its audit trail. */
  async function defaultOrgAudit(target: TestApp, action: string) {
    const res = await logIn(target, { email: 'admin@localhost', password: TEST_ENV.SCANWARD_ADMIN_PASSWORD });
    const api = apiClient(target, { token: res.body.access_token as string });
    const list = await api.call(listAuditEventsRoute, { query: { action, per_page: 100 } });
    expect(list.status).toBe(200);
    return list.body.items;
  }

  const expectRefusalPage = (done: Finished, status: number, words: RegExp) => {
    expect(done.status).toBe(status);
    expect(done.contentType).toMatch(/^text\/html/);
    expect(done.text).toContain('Single sign-on failed');
    expect(done.text).toMatch(words);
    expect(done.session).toBeUndefined();
  };

  it('tells the sign-in page that single sign-on is there, and where it starts', async () => {
    const res = await apiClient(app, null).call(getSignInMethods);
    expect(res.body).toEqual({ password: true, sso: { login_url: '/api/v1/auth/oidc/login' } });
  });

  it('sends the browser to the provider with PKCE, state and nonce, keeping them in a short-lived cookie', async () => {
    const res = await app.request('/api/v1/auth/oidc/login', { redirect: 'manual' });
    expect(res.status).toBe(302);
    const to = new URL(res.headers.get('location')!);
    expect(to.origin + to.pathname).toBe(`${idp.issuer}/authorize`);
    expect(to.searchParams.get('redirect_uri')).toBe(`${app.url}/api/v1/auth/oidc/callback`);
    expect(to.searchParams.get('scope')).toBe('openid email profile');
    expect(to.searchParams.get('code_challenge_method')).toBe('S256');
    for (const p of ['state', 'nonce', 'code_challenge']) expect(to.searchParams.get(p)).toBeTruthy();
    const cookie = res.headers
      .getSetCookie()
      .find((c) => c.startsWith('scanward_oidc='))!
      .toLowerCase();
    expect(cookie).toContain('httponly');
    expect(cookie).toContain('samesite=lax');
    const expires = Date.parse(/expires=([^;]+)/.exec(cookie)![1]!);
    expect(expires - Date.now()).toBeLessThanOrEqual(600_000);
    // The verifier does not travel in clear.
    expect(cookie).not.toContain(to.searchParams.get('state')!.toLowerCase());
  });

  it('signs a known user in with a console session like the password sign-in, then logs out', async () => {
    const tenant = await factory.tenant(app, { limits: false });
    await optIn(app, tenant);
    const member = await tenant.addUser('member');
    const pkceBefore = idp.verifiedPkce;
    const done = await signIn(app, { email: member.email.toUpperCase() });
    expect(done.status).toBe(302);
    expect(done.location).toBe('/');
    expect(idp.verifiedPkce).toBe(pkceBefore + 1);
    expect(done.session).toMatch(/^scanward_session=ey/);
    const session = await consoleSession(app, done.session!);
    expect(session?.user).toMatchObject({ email: member.email, role: 'member' });

    const events = await apiClient(app, { token: await tenant.bearer() }).call(listAuditEventsRoute, {
      query: { action: 'auth.login', actor: member.email },
    });
    expect(events.body.items).toEqual([
      expect.objectContaining({
        action: 'auth.login',
        actor: expect.objectContaining({ email: member.email }),
        details: { method: 'oidc' },
      }),
    ]);

    const out = await app.request('/api/v1/auth/console/session', {
      method: 'DELETE',
      headers: { cookie: done.session!, 'x-csrf-token': session!.csrf_token },
    });
    expect(out.status).toBe(200);
    expect(await consoleSession(app, done.session!)).toBeNull();
  });

  it('refuses an unknown e-mail when auto-provisioning is off, and records the failure', async () => {
    const stranger = email();
    const done = await signIn(app, { email: stranger });
    expectRefusalPage(done, 403, /No Scanward account has the e-mail/);
    const failures = await defaultOrgAudit(app, 'auth.login_failed');
    expect(failures).toContainEqual(
      expect.objectContaining({
        target: { id: null, email: stranger },
        details: { method: 'oidc', reason: 'unknown_user' },
      }),
    );
  });

  it('creates an unknown, verified e-mail as a user of the organization that turned SSO on for its domain when auto-provisioning is on', async () => {
    const res = await logIn(provisioning, {
      email: 'admin@localhost',
      password: TEST_ENV.SCANWARD_ADMIN_PASSWORD,
    });
    const defaultAdmin = apiClient(provisioning, { token: res.body.access_token as string });
    expect(
      (
        await defaultAdmin.call(putAuthenticationSettings, {
          body: {
            sso_enabled: true,
            sso_domains: ['example.test'],
          },
        })
      ).status,
    ).toBe(200);
    const newcomer = email();
    const done = await signIn(provisioning, { email: newcomer });
    expect(done.status).toBe(302);
    const session = await consoleSession(provisioning, done.session!);
    expect(session?.user).toMatchObject({ email: newcomer, role: 'member' });
    expect(session?.organization.name).toBe('Default organization');
    // The second time finds the same user.
    const again = await signIn(provisioning, { email: newcomer });
    expect((await consoleSession(provisioning, again.session!))?.user.email).toBe(newcomer);
    const created = await defaultOrgAudit(provisioning, 'user.provisioned');
    expect(created.filter((e) => e.target?.email === newcomer)).toHaveLength(1);
  });

  it('refuses an e-mail the provider has not verified, even with auto-provisioning', async () => {
    const done = await signIn(provisioning, { email: email(), email_verified: false });
    expectRefusalPage(done, 403, /has not verified/);
  });

  it('refuses a disabled user', async () => {
    const tenant = await factory.tenant(app, { limits: false });
    const viewer = await tenant.addUser('viewer');
    const admin = apiClient(app, { token: await tenant.bearer() });
    expect(
      (await admin.call(updateUserRoute, { params: { user_id: viewer.id }, body: { disabled: true } }))
        .status,
    ).toBe(200);
    expectRefusalPage(await signIn(app, { email: viewer.email }), 403, /is disabled/);
  });

  it('refuses a tampered state, and a callback without the browser’s flow cookie', async () => {
    const tenant = await factory.tenant(app, { limits: false });
    expectRefusalPage(
      await signIn(app, { email: tenant.admin.email }, (cb) => cb.searchParams.set('state', 'forged')),
      400,
      /state/,
    );
    expectRefusalPage(
      await signIn(app, { email: tenant.admin.email }, undefined, false),
      400,
      /not started in this browser/,
    );
  });

  it('refuses an ID token for another audience, from another issuer, expired, or signed with a foreign key', async () => {
    const tenant = await factory.tenant(app, { limits: false });
    const who = tenant.admin.email;
    const past = Math.floor(Date.now() / 1000) - 3600;
    expectRefusalPage(await signIn(app, { email: who, claims: { aud: 'someone-else' } }), 400, /aud/);
    expectRefusalPage(await signIn(app, { email: who, claims: { iss: 'https://127.0.0.1:1' } }), 400, /iss/);
    expectRefusalPage(await signIn(app, { email: who, claims: { iat: past - 300, exp: past } }), 400, /exp/);
    expectRefusalPage(await signIn(app, { email: who, foreignKey: true }), 400, /refused/);
    const failures = await apiClient(app, { token: await tenant.bearer() }).call(listAuditEventsRoute, {
      query: { action: 'auth.login_failed' },
    });
    // Refused before the person is known: recorded in the default organization, not this one.
    expect(failures.body.items).toEqual([]);
  });

  it('switches password log-in off for one organization; single sign-on still works there', async () => {
    const tenant = await factory.tenant(app, { limits: false });
    const other = await factory.tenant(app, { limits: false });
    const admin = apiClient(app, { token: await tenant.bearer() });
    expect((await admin.call(getAuthenticationSettings)).body).toEqual({
      password_login: true,
      sso_configured: true,
      sso_enabled: false,
      sso_domains: [],
      sso_trusts_idp_mfa: false,
    });
    // Not while SSO is off for the organization: nobody could sign in.
    expect((await admin.call(putAuthenticationSettings, { body: { password_login: false } })).status).toBe(
      409,
    );
    const off = await admin.call(putAuthenticationSettings, {
      body: {
        password_login: false,
        sso_enabled: true,
        sso_domains: [domainOf(tenant.admin.email).toUpperCase()],
      },
    });
    expect(off.body).toEqual({
      password_login: false,
      sso_configured: true,
      sso_enabled: true,
      sso_domains: [domainOf(tenant.admin.email)],
      sso_trusts_idp_mfa: false,
    });

    const refused = await logIn(app, tenant.admin);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error_code: 'PASSWORD_LOGIN_DISABLED' });
    expect(refused.text).toMatch(/single sign-on/);
    const consoleTry = await app.request('/api/v1/auth/console/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: tenant.admin.email, password: tenant.admin.password }),
    });
    expect(consoleTry.status).toBe(403);
    // A wrong password still answers like any wrong password.
    expect((await logIn(app, { ...tenant.admin, password: 'not-the-password' })).status).toBe(401);
    // Another organization is untouched.
    expect((await logIn(app, other.admin)).status).toBe(200);

    const sso = await signIn(app, { email: tenant.admin.email });
    expect(sso.status).toBe(302);
    expect((await consoleSession(app, sso.session!))?.user.email).toBe(tenant.admin.email);

    await admin.call(putAuthenticationSettings, { body: { password_login: true } });
    expect((await logIn(app, tenant.admin)).status).toBe(200);

    const changes = await admin.call(listAuditEventsRoute, {
      query: { action: 'auth.password_login_changed' },
    });
    expect(changes.body.items.map((e) => [e.actor?.email, e.details.password_login])).toEqual([
      [tenant.admin.email, 'true'],
      [tenant.admin.email, 'false'],
    ]);
    const refusedEvents = await admin.call(listAuditEventsRoute, { query: { action: 'auth.login_failed' } });
    expect(refusedEvents.body.items.map((e) => e.details)).toContainEqual({
      method: 'password',
      reason: 'PASSWORD_LOGIN_DISABLED',
    });
  });

  it('refuses SSO into an organization that did not turn it on, and for an address outside its domains', async () => {
    const tenant = await factory.tenant(app, { limits: false });
    // The review's exploit: a verified IdP e-mail of an admin whose organization never opted in.
    expectRefusalPage(await signIn(app, { email: tenant.admin.email }), 403, /not turned on/);
    const admin = apiClient(app, { token: await tenant.bearer() });
    const failures = await admin.call(listAuditEventsRoute, { query: { action: 'auth.login_failed' } });
    expect(failures.body.items.map((e) => e.details)).toContainEqual({
      method: 'oidc',
      reason: 'sso_not_enabled',
    });
    // On, but for another domain than the admin's address.
    expect(
      (
        await admin.call(putAuthenticationSettings, {
          body: {
            sso_enabled: true,
            sso_domains: ['elsewhere.example'],
          },
        })
      ).status,
    ).toBe(200);
    expectRefusalPage(await signIn(app, { email: tenant.admin.email }), 403, /not turned on/);
    // On for its domain: signed in.
    await optIn(app, tenant);
    expect((await signIn(app, { email: tenant.admin.email })).status).toBe(302);
    // SSO on needs a domain; switching it on is audited with what changed.
    const none = await admin.call(putAuthenticationSettings, {
      body: { sso_enabled: true, sso_domains: [] },
    });
    expect(none.status).toBe(422);
    expect(none.body).toMatchObject({ error_code: 'VALIDATION_ERROR', field: 'sso_domains' });
    const changes = await admin.call(listAuditEventsRoute, { query: { action: 'auth.settings_changed' } });
    expect(changes.body.items[0]).toMatchObject({
      actor: { id: tenant.admin.id, email: tenant.admin.email },
      details: {
        sso_domains: domainOf(tenant.admin.email),
        sso_domains_was: 'elsewhere.example',
      },
    });
  });

  it('binds the account to the provider identity at the first sign-in, and never matches it by e-mail again', async () => {
    const tenant = await factory.tenant(app, { limits: false });
    await optIn(app, tenant);
    const member = await tenant.addUser('member');
    const first = await signIn(app, { email: member.email, claims: { sub: `first-${member.id}` } });
    expect(first.status).toBe(302);
    // Another identity at the provider with another case of the same address: refused.
    const impostor = await signIn(app, {
      email: member.email.toUpperCase(),
      claims: { sub: `other-${member.id}` },
    });
    expectRefusalPage(impostor, 403, /another single sign-on identity/);
    // The bound identity signs in even when the provider's e-mail changed.
    const renamed = await signIn(app, {
      email: `renamed-${member.email}`,
      claims: { sub: `first-${member.id}` },
    });
    expect(renamed.status).toBe(302);
    expect((await consoleSession(app, renamed.session!))?.user.email).toBe(member.email);
  });

  it('asks a user with local MFA for the code after SSO, unless the organization trusts the provider’s MFA and it says so', async () => {
    const tenant = await factory.tenant(app, { limits: false });
    const admin = await optIn(app, tenant);
    const member = await tenant.addUser('member');
    const api = apiClient(app, { token: await tenant.login(member) });
    const setup = await api.call(setupMfa);
    const totp = URI.parse(String(setup.body.otpauth_uri)) as TOTP;
    const step = await stepWithRoom(totp, 5_000);
    expect(
      (await api.call(verifyMfa, { body: { code: totp.generate({ timestamp: step * 30_000 }) } })).status,
    ).toBe(200);

    // The review's exploit: SSO signed this user in with no code. Now a page asks for it.
    const sso = await signIn(app, { email: member.email, claims: { amr: ['pwd'] } });
    expect(sso.status).toBe(200);
    expect(sso.session).toBeUndefined();
    expect(sso.text).toContain('name="mfa_code"');
    const mfaCookie = sso.cookies.find((c) => c.startsWith('scanward_oidc_mfa='))!.split(';')[0]!;
    const post = (code: string, cookie = mfaCookie) =>
      app.request('/api/v1/auth/oidc/mfa', {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
        body: new URLSearchParams({ mfa_code: code }).toString(),
      });
    const next = totp.generate({ timestamp: (step + 1) * 30_000 });
    const wrong = await post(next === '000000' ? '111111' : '000000');
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('name="mfa_code"');
    expect((await post(next, 'scanward_oidc_mfa=forged')).status).toBe(403);
    const right = await post(next);
    expect(right.status).toBe(302);
    const session = right.headers
      .getSetCookie()
      .find((c) => c.startsWith('scanward_session=ey'))!
      .split(';')[0]!;
    expect((await consoleSession(app, session))?.user.email).toBe(member.email);

    // Trusting the provider's MFA: a token whose amr says mfa signs straight in; one that does not still asks.
    expect((await admin.call(putAuthenticationSettings, { body: { sso_trusts_idp_mfa: true } })).status).toBe(
      200,
    );
    const vouched = await signIn(app, { email: member.email, claims: { amr: ['pwd', 'mfa'] } });
    expect(vouched.status).toBe(302);
    expect(vouched.session).toBeDefined();
    const plain = await signIn(app, { email: member.email, claims: { amr: ['pwd'] } });
    expect(plain.status).toBe(200);
    expect(plain.session).toBeUndefined();
  });

  it('refuses to switch password log-in off where single sign-on is not configured', async () => {
    const plain = await startTestApp();
    try {
      const tenant = await factory.tenant(plain, { limits: false });
      const admin = apiClient(plain, { token: await tenant.bearer() });
      const res = await admin.call(putAuthenticationSettings, { body: { password_login: false } });
      expect(res.status).toBe(409);
      expect((await apiClient(plain, null).call(getSignInMethods)).body).toEqual({
        password: true,
        sso: null,
      });
      const page = await plain.request('/api/v1/auth/oidc/login', { redirect: 'manual' });
      expect(page.status).toBe(404);
      expect(await page.text()).toContain('not configured');
    } finally {
      await plain.close();
    }
  });

  it("verifies the provider's TLS: an issuer whose CA the process does not trust is refused with a page", async () => {
    const untrusting = await startTestApp({ env: oidcEnv() });
    try {
      const page = await untrusting.request('/api/v1/auth/oidc/login', { redirect: 'manual' });
      expect(page.status).toBe(502);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await page.text()).toMatch(/could not be reached/);
    } finally {
      await untrusting.close();
    }
  });
});
