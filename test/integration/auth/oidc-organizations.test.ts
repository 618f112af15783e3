import { URI, type TOTP } from 'otpauth';
import { beforeAll, describe, expect, it } from 'vitest';
import { listAuditEventsRoute } from '../../../server/routes/audit-events.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { signInConsole } from '../../../server/routes/console-session.ts';
import { apiClient } from '../../helpers/api-client.ts';
import { testEngine } from '../../helpers/database.ts';
import { factory, logIn, stepWithRoom } from '../../helpers/factory.ts';
import {
  getAuthenticationSettings,
  getSignInMethods,
  putAuthenticationSettings,
} from '../../../server/routes/oidc.ts';
import { setupMfa, verifyMfa } from '../../../server/routes/auth.ts';
import { useSso } from './oidc-kit.ts';

/**
 * Single sign-on and the organization (oidc-kit.ts): the password switch, SSO only into an
 * organization that turned it on for its domains, the account bound to the provider identity,
 * local MFA after SSO, and the provider's TLS. The flow itself: oidc.test.ts.
 */

describe(`single sign-on with OpenID Connect: the organization (${testEngine})`, () => {
  const kit = useSso({ provisioning: false });
  /** Auto-provisioning off. */
  let app: TestApp;
  beforeAll(() => {
    ({ app } = kit);
  });
  const { oidcEnv, domainOf, optIn, signIn, consoleSession, expectRefusalPage } = kit;

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
    const consoleTry = await apiClient(app).call(signInConsole, {
      body: { email: tenant.admin.email, password: tenant.admin.password },
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
