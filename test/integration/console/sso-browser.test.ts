import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapIfEmpty } from '../../../server/people/bootstrap.ts';
import { TEST_ENV, type TestApp } from '../../helpers/app.ts';
import { apiClient, okBody } from '../../helpers/api-client.ts';
import { hasChromium, seriousViolations, signIn, useBrowser, visitAs } from '../../helpers/browser.ts';
import { testEngine } from '../../helpers/database.ts';
import { factory, logIn } from '../../helpers/factory.ts';
import { fetchTrusting } from '../../helpers/trusting-fetch.ts';
import { startTestProvider, type TestProvider } from '../../fixtures/oidc-provider.ts';
import { generateLoopbackCertificates } from '../../fixtures/tls-certificates.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { putAuthenticationSettings } from '../../../server/routes/oidc.ts';

/**
 * Single sign-on in Chromium against a real OpenID provider (`oidc-provider`, over HTTPS with
 * a test CA, on loopback): "Sign in with SSO" on the console's sign-in page, the provider's
 * login and consent pages, back into the console signed in; a newcomer created as a viewer
 * (auto-provisioning on); sign out. The server trusts the test CA (as NODE_EXTRA_CA_CERTS
 * would); Chromium is told to accept the provider's certificate. Any page error, and any
 * console error, failed request or error answer of the console, fails the test (the
 * provider's own pages load a web font the sandboxed browser cannot reach, so only the
 * console's origin is watched).
 */

if (!hasChromium) console.warn('sso-browser: skipped; /usr/bin/chromium is absent');

const T = 60_000;

describe.skipIf(!hasChromium)(`single sign-on in the web console (${testEngine})`, () => {
  let app: TestApp;
  let provider: TestProvider;
  let certs: ReturnType<typeof generateLoopbackCertificates>;

  // The app trusts the provider, so the provider starts first.
  const suite = useTestApp(async () => {
    certs = generateLoopbackCertificates();
    provider = await startTestProvider(certs.server);
    return {
      env: {
        SCANWARD_OIDC_ISSUER: provider.issuer,
        SCANWARD_OIDC_CLIENT_ID: provider.clientId,
        SCANWARD_OIDC_CLIENT_SECRET: provider.clientSecret,
        SCANWARD_OIDC_AUTO_PROVISION: 'true',
      },
    };
  });
  const web = useBrowser(() => app.url, { ignoreHTTPSErrors: true, ignoreOtherSites: true });
  beforeAll(async () => {
    app = suite.app;
    app.services.oidcFetch = fetchTrusting(certs.ca);
    await bootstrapIfEmpty(app.services.db, app.config);
    provider.register([`${app.url}/api/v1/auth/oidc/callback`]);
  }, 60_000);
  afterAll(async () => {
    await provider?.close();
  });

  /** From the console's sign-in page through the provider's login and consent pages. */
  const signInWithSso = async (page: Page, login: string) => {
    await page.goto('/');
    await page.getByRole('link', { name: 'Sign in with SSO' }).click();
    await page.waitForURL((url) => url.href.startsWith(provider.issuer));
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill('any password the test provider accepts');
    await page.locator('button[type="submit"]').click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((url) => url.href.startsWith(app.url));
  };

  it(
    'signs a colleague in through the provider and out again',
    async () => {
      const tenant = await factory.tenant(app, { limits: false });
      // The organization turned single sign-on on for its domain (SSO signs in nowhere else).
      const domain = tenant.admin.email.slice(tenant.admin.email.indexOf('@') + 1);
      okBody(
        await tenant.api.call(putAuthenticationSettings, {
          body: { sso_enabled: true, sso_domains: [domain] },
        }),
      );
      const member = await tenant.addUser('member');
      const { page } = await web.open();
      await page.goto('/');
      await page.getByRole('heading', { name: 'Sign in to Scanward' }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      await signInWithSso(page, member.email);
      await page.locator('.who .email', { hasText: member.email }).waitFor();
      await page.goto('/settings');
      await page.getByText(`${member.email} (member)`).waitFor();

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('heading', { name: 'Sign in to Scanward' }).waitFor();
      const session = await page.evaluate(async () => {
        const res = await fetch('/api/v1/auth/console/session');
        return ((await res.json()) as { session: unknown }).session;
      });
      expect(session).toBeNull();
    },
    T,
  );

  it(
    'creates a newcomer as a viewer of the default organization, which turned SSO on for the domain (auto-provisioning on)',
    async () => {
      const login = await logIn(app, {
        email: 'admin@localhost',
        password: TEST_ENV.SCANWARD_ADMIN_PASSWORD,
      });
      const defaultAdmin = apiClient(app, { token: login.body.access_token });
      okBody(
        await defaultAdmin.call(putAuthenticationSettings, {
          body: {
            sso_enabled: true,
            sso_domains: ['example.test'],
          },
        }),
      );
      const newcomer = `newcomer-${randomBytes(4).toString('hex')}@example.test`;
      const { page } = await web.open();
      await signInWithSso(page, newcomer);
      await page.goto('/settings');
      await page.getByText(`${newcomer} (viewer)`).waitFor();
      await page.getByText('Default organization', { exact: false }).first().waitFor();
    },
    T,
  );

  it(
    'lets an admin switch password sign-in off in the settings; the password form then says why',
    async () => {
      const tenant = await factory.tenant(app, { limits: false });
      const watched = await web.open();
      const { page } = watched;
      await visitAs(page, tenant.admin, '/settings');
      await page.locator('.who .email', { hasText: tenant.admin.email }).waitFor();
      const section = page.locator('section[aria-labelledby="sign-in-methods"]');
      await section.getByText('Configured on this instance').waitFor();
      // Single sign-on on for the organization's domain first: password off needs it.
      const domain = tenant.admin.email.slice(tenant.admin.email.indexOf('@') + 1);
      await section.getByLabel('E-mail domains single sign-on covers').fill(domain);
      await section.getByRole('button', { name: 'Turn single sign-on on' }).click();
      await section.getByText(`On for ${domain}`).waitFor();
      await section.getByRole('button', { name: 'Switch password sign-in off' }).click();
      await section.getByText('Off: single sign-on only').waitFor();
      await page.getByRole('button', { name: 'Sign out' }).click();

      // The refusal is the answer this test asks for, not a problem of the page.
      watched.expect(403, '/api/v1/auth/console/session');
      const [refusal] = await Promise.all([
        page.waitForResponse(
          (r) =>
            r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/v1/auth/console/session',
        ),
        signIn(page, tenant.admin),
      ]);
      await page.getByText('password sign-in is switched off for this organization').waitFor();
      expect(`${refusal.status()} for ${refusal.request().method()} ${refusal.url()}`).toBe(
        `403 for POST ${app.url}/api/v1/auth/console/session`,
      );

      await signInWithSso(page, tenant.admin.email);
      await page.locator('.who .email', { hasText: tenant.admin.email }).waitFor();
    },
    T,
  );
});
