import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { CiIssuers } from '../../../server/auth/ci-issuers.ts';
import { listAuditEventsRoute } from '../../../server/routes/audit-events.ts';
import { postCiToken } from '../../../server/routes/auth.ts';
import { getCiAudience, postCiTrust } from '../../../server/routes/ci-trust.ts';
import { apiClient, okBody, type Answer, type ApiClient, type RouteBody } from '../../helpers/api-client.ts';
import type { TestApp } from '../../helpers/app.ts';
import { factory, type BuiltTenant } from '../../helpers/factory.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { githubClaims, startOidcIssuer, type OidcIssuer } from '../../fixtures/ci-oidc-issuer.ts';

/**
 * What the keyless CI sign-in tests share (issue 26): a local OpenID issuer over TLS on loopback
 * and an app trusting it. The app runs in this process, which started without
 * NODE_EXTRA_CA_CERTS, so the kit hands the issuer's CA to the app's issuer client (the `ca` the
 * variable would add; docs/ci-trust.md). Call `useCiTrust()` inside a `describe`.
 */

export type Policy = RouteBody<typeof postCiTrust>;

export interface CiTrustKit {
  app: TestApp;
  issuer: OidcIssuer;
  anonymous: ApiClient;
  /** A tenant of its own, trusting a repository of its own through an audience of its own. */
  trusting(
    conditions: (repo: string) => Record<string, string>,
    extra?: Record<string, unknown>,
  ): Promise<{ tenant: BuiltTenant; repo: string; audience: string; policy: Policy }>;
  claimsOf(repo: string, overrides?: Record<string, unknown>): ReturnType<typeof githubClaims>;
  exchange(idToken: string): Promise<Answer<RouteBody<typeof postCiToken>>>;
  auditOf(tenant: BuiltTenant, action: string): Promise<RouteBody<typeof listAuditEventsRoute>['items']>;
}

export function useCiTrust(): CiTrustKit {
  const kit = {} as CiTrustKit;
  // The app trusts the issuer, so the issuer starts first.
  const suite = useTestApp(async () => {
    kit.issuer = await startOidcIssuer();
    return { captureLogs: true, env: { SCANWARD_CI_OIDC_ISSUERS: kit.issuer.issuer } };
  });
  beforeAll(() => {
    kit.app = suite.app;
    kit.app.services.ciIssuers = new CiIssuers({ ca: kit.issuer.ca });
    kit.anonymous = apiClient(kit.app);
  });
  afterAll(async () => {
    await kit.issuer?.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  kit.trusting = async (conditions, extra = {}) => {
    const tenant = await factory.tenant(kit.app);
    const tag = randomBytes(4).toString('hex');
    const repo = `acme-${tag}/web`;
    const { audience } = okBody(await tenant.api.call(getCiAudience));
    const policy = okBody(
      await tenant.api.call(postCiTrust, {
        body: {
          name: `PRs of ${repo}`,
          issuer: kit.issuer.issuer,
          conditions: conditions(repo),
          permissions: ['read:scans', 'write:scans'],
          ...extra,
        },
      }),
      201,
    );
    return { tenant, repo, audience, policy };
  };
  kit.claimsOf = (repo, overrides = {}) =>
    githubClaims({ repository: repo, repository_owner: repo.split('/')[0], ...overrides });
  kit.exchange = (idToken) => kit.anonymous.call(postCiToken, { body: { id_token: idToken } });
  kit.auditOf = async (tenant, action) =>
    okBody(await tenant.api.call(listAuditEventsRoute, { query: { action } })).items;
  return kit;
}
