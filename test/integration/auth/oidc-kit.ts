import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import { bootstrapIfEmpty } from '../../../server/people/bootstrap.ts';
import { listAuditEventsRoute } from '../../../server/routes/audit-events.ts';
import { getConsoleSession } from '../../../server/routes/console-session.ts';
import { putAuthenticationSettings } from '../../../server/routes/oidc.ts';
import { startTestApp, TEST_ENV, type TestApp } from '../../helpers/app.ts';
import { apiClient, okBody, type ApiClient, type RouteBody } from '../../helpers/api-client.ts';
import { logIn, type Tenant } from '../../helpers/factory.ts';
import { fetchTrusting } from '../../helpers/trusting-fetch.ts';
import { startFakeIssuer, type FakeIssuer, type NextSignIn } from '../../fixtures/oidc-issuer.ts';
import { generateLoopbackCertificates, type LoopbackCertificates } from '../../fixtures/tls-certificates.ts';

/**
 * What the single sign-on tests share: a hand-made OpenID provider on loopback (HTTPS with a
 * test CA), two apps trusting it (auto-provisioning off, and on as `member`), each with its
 * default organization, and the browser's steps over fetch. Call `useSso()` inside a `describe`.
 */

export interface Finished {
  status: number;
  location: string | null;
  /** `scanward_session=…` when signed in. */
  session: string | undefined;
  /** Every cookie set. */
  cookies: string[];
  text: string;
  contentType: string;
}

export interface SsoKit {
  certs: LoopbackCertificates;
  idp: FakeIssuer;
  trusting: typeof fetch;
  /** Auto-provisioning off. */
  app: TestApp;
  /** Auto-provisioning on, as `member` (unless `useSso({ provisioning: false })`). */
  provisioning: TestApp;
  /** The environment that points an app at the provider. */
  oidcEnv(extra?: Record<string, string>): Record<string, string>;
  email(): string;
  domainOf(address: string): string;
  /** The tenant's admin turns single sign-on on for the tenant's own e-mail domain. */
  optIn(target: TestApp, tenant: Tenant, extra?: Record<string, unknown>): Promise<ApiClient>;
  /** Browser steps over fetch: login → the provider → the callback (optionally tampered with). */
  signIn(
    target: TestApp,
    who: NextSignIn,
    tamper?: (callback: URL) => void,
    keepFlowCookie?: boolean,
  ): Promise<Finished>;
  /** The console session a cookie opens (null when none). */
  consoleSession(target: TestApp, cookie: string): Promise<RouteBody<typeof getConsoleSession>['session']>;
  /** The default organization's admin (made at first start) reads its audit trail. */
  defaultOrgAudit(target: TestApp, action: string): Promise<RouteBody<typeof listAuditEventsRoute>['items']>;
  expectRefusalPage(done: Finished, status: number, words: RegExp): void;
}

/** `provisioning: false` starts no auto-provisioning app, for a file that does not use one. */
export function useSso(options: { provisioning?: boolean } = {}): SsoKit {
  const kit = {} as SsoKit;
  kit.oidcEnv = (extra = {}) => ({
    SCANWARD_OIDC_ISSUER: kit.idp.issuer,
    SCANWARD_OIDC_CLIENT_ID: kit.idp.clientId,
    SCANWARD_OIDC_CLIENT_SECRET: kit.idp.clientSecret,
    ...extra,
  });

  beforeAll(async () => {
    kit.certs = generateLoopbackCertificates();
    kit.idp = await startFakeIssuer(kit.certs.server);
    kit.trusting = fetchTrusting(kit.certs.ca);
    kit.app = await startTestApp({ env: kit.oidcEnv() });
    kit.app.services.oidcFetch = kit.trusting;
    if (options.provisioning !== false) {
      kit.provisioning = await startTestApp({
        env: kit.oidcEnv({ SCANWARD_OIDC_AUTO_PROVISION: 'true', SCANWARD_OIDC_DEFAULT_ROLE: 'member' }),
      });
      kit.provisioning.services.oidcFetch = kit.trusting;
    }
    // The first start's organization and admin, as `scanward` makes them: the default organization.
    for (const a of [kit.app, kit.provisioning]) if (a) await bootstrapIfEmpty(a.services.db, a.config);
  });
  afterAll(async () => {
    await kit.app?.close();
    await kit.provisioning?.close();
    await kit.idp?.close();
  });

  kit.email = () => `sso-${randomBytes(5).toString('hex')}@example.test`;
  kit.domainOf = (address) => address.slice(address.indexOf('@') + 1);

  /** The tenant's admin turns single sign-on on for the tenant's own e-mail domain. */
  kit.optIn = async (target, tenant, extra = {}) => {
    const admin = apiClient(target, { token: await tenant.bearer() });
    const res = await admin.call(putAuthenticationSettings, {
      body: {
        sso_enabled: true,
        sso_domains: [kit.domainOf(tenant.admin.email)],
        ...extra,
      },
    });
    expect(res.status, res.text).toBe(200);
    return admin;
  };

  /** Browser steps over fetch: login → the provider → the callback (optionally tampered with). */
  kit.signIn = async (target, who, tamper, keepFlowCookie = true) => {
    const start = await target.request('/api/v1/auth/oidc/login', { redirect: 'manual' });
    expect(start.status).toBe(302);
    const flowCookie = start.headers
      .getSetCookie()
      .find((c) => c.startsWith('scanward_oidc='))!
      .split(';')[0]!;
    kit.idp.next(who);
    const atProvider = await kit.trusting(start.headers.get('location')!, { redirect: 'manual' });
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
  };

  kit.consoleSession = async (target, cookie) =>
    okBody(await apiClient(target, { headers: { cookie } }).call(getConsoleSession), 200).session;

  /** The default organization's admin (made at first start) reads its audit trail. */
  kit.defaultOrgAudit = async (target, action) => {
    const res = await logIn(target, { email: 'admin@localhost', password: TEST_ENV.SCANWARD_ADMIN_PASSWORD });
    const api = apiClient(target, { token: res.body.access_token });
    const list = await api.call(listAuditEventsRoute, { query: { action, per_page: 100 } });
    expect(list.status).toBe(200);
    return list.body.items;
  };

  kit.expectRefusalPage = (done, status, words) => {
    expect(done.status).toBe(status);
    expect(done.contentType).toMatch(/^text\/html/);
    expect(done.text).toContain('Single sign-on failed');
    expect(done.text).toMatch(words);
    expect(done.session).toBeUndefined();
  };

  return kit;
}
