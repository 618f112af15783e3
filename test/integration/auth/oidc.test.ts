import { beforeAll, describe, expect, it } from 'vitest';
import { listAuditEventsRoute } from '../../../server/routes/audit-events.ts';
import { TEST_ENV, type TestApp } from '../../helpers/app.ts';
import { signOutConsole } from '../../../server/routes/console-session.ts';
import { apiClient } from '../../helpers/api-client.ts';
import { testEngine } from '../../helpers/database.ts';
import { factory, logIn } from '../../helpers/factory.ts';
import { type FakeIssuer } from '../../fixtures/oidc-issuer.ts';
import { getSignInMethods, putAuthenticationSettings } from '../../../server/routes/oidc.ts';
import { updateUserRoute } from '../../../server/routes/users.ts';
import { useSso } from './oidc-kit.ts';

/**
 * Single sign-on over HTTP against a hand-made OpenID provider on loopback (oidc-kit.ts): the
 * flow, auto-provisioning off and on, and every ID token and state the callback must refuse.
 * The organization's settings (password switch, domains, identity binding, MFA, the provider's
 * TLS): oidc-organizations.test.ts. The browser flow against a real provider is in
 * test/integration/console/sso-browser.test.ts.
 */

describe(`single sign-on with OpenID Connect: the flow (${testEngine})`, () => {
  const kit = useSso();
  let idp: FakeIssuer;
  /** Auto-provisioning off. */
  let app: TestApp;
  /** Auto-provisioning on, as `member`. */
  let provisioning: TestApp;
  beforeAll(() => {
    ({ idp, app, provisioning } = kit);
  });
  const { email, optIn, signIn, consoleSession, defaultOrgAudit, expectRefusalPage } = kit;

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

    const out = await apiClient(app, { headers: { cookie: done.session! } }).call(
      signOutConsole,
      {},
      { headers: { 'x-csrf-token': session!.csrf_token } },
    );
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
});
