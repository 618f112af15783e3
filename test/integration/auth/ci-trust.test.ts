import { randomBytes } from 'node:crypto';
import { decodeJwt } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  EXCHANGE_WINDOW_SECONDS,
  MAX_REFUSED_EXCHANGES_PER_ADDRESS,
} from '../../../server/auth/ci-exchange.ts';
import { acquireCredentials } from '../../../action/service/credentials.ts';
import { DEFAULT_RETRY } from '../../../action/service/http.ts';
import { CiIssuers } from '../../../server/auth/ci-issuers.ts';
import { postCiToken, refreshToken } from '../../../server/routes/auth.ts';
import { getCiAudience, getCiTrust, postCiTrust } from '../../../server/routes/ci-trust.ts';
import { createScanRoute, listScansRoute } from '../../../server/routes/scans.ts';
import { apiClient, expectError, okBody, type ApiClient } from '../../helpers/api-client.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { testEngine } from '../../helpers/database.ts';
import { factory } from '../../helpers/factory.ts';
import { type OidcIssuer } from '../../fixtures/ci-oidc-issuer.ts';
import { listFindingsRoute } from '../../../server/routes/findings.ts';
import { useCiTrust } from './ci-trust-kit.ts';

/**
 * Keyless CI sign-in (issue 26), the exchange: a matching ID token of a local OpenID issuer
 * becomes a short-lived token of the organization owning its audience, and of no other; the
 * audience is public; refused exchanges are rate limited. Policies and refusals:
 * ci-trust-policies.test.ts.
 */

describe(`keyless CI sign-in: the exchange (${testEngine})`, () => {
  const kit = useCiTrust();
  let app: TestApp;
  let issuer: OidcIssuer;
  let anonymous: ApiClient;
  beforeAll(() => {
    ({ app, issuer, anonymous } = kit);
  });
  const { trusting, claimsOf, exchange, auditOf } = kit;

  it('exchanges a matching token for a short-lived token that can create a scan and nothing the policy does not grant', async () => {
    const { tenant, repo, audience, policy } = await trusting((r) => ({
      repository: r,
      event_name: 'pull_request',
    }));
    const idToken = await issuer.sign(claimsOf(repo), { aud: audience });
    const answer = okBody(await exchange(idToken), 200);
    expect(answer.token_type).toBe('bearer');
    expect(answer.expires_in).toBe(900);
    expect(answer.permissions).toEqual(['read:scans', 'write:scans']);
    expect(answer.policy_id).toBe(policy.id);
    const claims = decodeJwt(answer.access_token);
    expect(claims.exp! - claims.iat!).toBe(900);

    const ci = apiClient(app, { token: answer.access_token });
    const scan = okBody(await ci.call(createScanRoute, { body: { target: '127.0.0.1', authorized: true } }));
    expect(scan.id).toMatch(/^scan_/);
    okBody(await ci.call(listScansRoute), 200);
    // Not granted: findings; never: managing trust, refreshing, sessions.
    await expectError(await ci.call(listFindingsRoute), 403, 'INSUFFICIENT_PERMISSION');
    await expectError(await ci.call(getCiTrust), 403, 'INSUFFICIENT_PERMISSION');
    await expectError(await ci.call(refreshToken), 403, 'INSUFFICIENT_PERMISSION');

    // Neither token is ever logged.
    expect(app.rawLogs()).toContain('/api/v1/auth/ci-token');
    expect(app.rawLogs()).not.toContain(idToken.split('.')[2]);
    expect(app.rawLogs()).not.toContain(answer.access_token.split('.')[2]);

    const [event] = await auditOf(tenant, 'ci.token_issued');
    expect(event!.details).toMatchObject({
      repository: repo,
      ref: 'refs/pull/7/merge',
      policy_id: policy.id,
      event_name: 'pull_request',
      permissions: 'read:scans write:scans',
      issuer: issuer.issuer,
    });
  });

  it("never lets another organization capture a CI job: only the policies of the organization owning the token's audience are read", async () => {
    // Organization A trusts its main branch only; B's admin tries to capture A's jobs.
    const a = await trusting((r) => ({ repository: r, ref: 'refs/heads/main' }));
    const b = await factory.tenant(app);
    const bAudience = okBody(await b.api.call(getCiAudience)).audience;
    expect(a.audience).toBe(`${app.url}/ci/${a.tenant.orgId}`);
    expect(bAudience).toBe(`${app.url}/ci/${b.orgId}`);

    // B can neither name A's audience nor trust every repository of the issuer.
    const capture = {
      name: 'everything',
      issuer: issuer.issuer,
      permissions: ['read:scans' as const, 'write:scans' as const],
    };
    await expectError(
      await b.api.call(postCiTrust, {
        body: {
          ...capture,
          audience: a.audience,
          conditions: { repository: a.repo },
        } as never,
      }),
      422,
      'VALIDATION_ERROR',
      'audience',
    );
    await expectError(
      await b.api.call(postCiTrust, {
        body: {
          ...capture,
          audience: a.audience,
          conditions: { repository_owner: a.repo.split('/')[0] },
        } as never,
      }),
      422,
      'VALIDATION_ERROR',
      'audience',
    );
    for (const conditions of [
      { repository: '**' },
      { repository: '*/*' },
      { repository_owner: '*' },
      { repository: '*/web', repository_owner: 'acme-*' },
    ]) {
      await expectError(
        await b.api.call(postCiTrust, { body: { ...capture, conditions } }),
        422,
        'VALIDATION_ERROR',
        'conditions',
      );
    }
    // The most B can do: trust A's owner under B's own audience, which A's jobs never ask for.
    okBody(
      await b.api.call(postCiTrust, {
        body: {
          name: 'A owner',
          issuer: issuer.issuer,
          conditions: { repository_owner: a.repo.split('/')[0] },
          permissions: ['read:scans', 'write:scans'],
        },
      }),
      201,
    );

    // A's pull request job, which A's own policy refuses: refused, and B learns nothing of it.
    const pr = await issuer.sign(claimsOf(a.repo), { aud: a.audience });
    await expectError(await exchange(pr), 403, 'INSUFFICIENT_PERMISSION');
    // Naming B does not help either.
    await expectError(
      await anonymous.call(postCiToken, { body: { id_token: pr, organization_id: b.orgId } }),
      403,
      'INSUFFICIENT_PERMISSION',
    );
    // A's main job signs in to A (no "several organizations" refusal), and only A hears of it.
    const main = okBody(
      await exchange(
        await issuer.sign(claimsOf(a.repo, { ref: 'refs/heads/main', event_name: 'push' }), {
          aud: a.audience,
        }),
      ),
      200,
    );
    expect(decodeJwt(main.access_token).org).toBe(a.tenant.orgId);
    expect(await auditOf(b, 'ci.token_refused')).toEqual([]);
    expect(await auditOf(b, 'ci.token_issued')).toEqual([]);
    expect(await auditOf(a.tenant, 'ci.token_issued')).toHaveLength(1);
    expect((await auditOf(a.tenant, 'ci.token_refused')).length).toBeGreaterThanOrEqual(1);

    // An audience no organization owns is not addressed to this service.
    await expectError(
      await exchange(await issuer.sign(claimsOf(a.repo), { aud: `${app.url}/ci/org_nobody` })),
      401,
      'INVALID_TOKEN',
    );
  });

  it("tells an organization's audience to anyone naming it, and its own to a signed-in caller", async () => {
    const tenant = await factory.tenant(app);
    await expectError(await anonymous.call(getCiAudience), 401, 'AUTHENTICATION_REQUIRED');
    const own = okBody(await tenant.api.call(getCiAudience));
    expect(own.audience).toBe(`${app.url}/ci/${tenant.orgId}`);
    expect(okBody(await anonymous.call(getCiAudience, { query: { organization_id: tenant.orgId } }))).toEqual(
      own,
    );
    // An unknown organization answers the same form: whether one exists is not told.
    expect(
      okBody(
        await anonymous.call(getCiAudience, { query: { organization_id: 'org_unknown0000000000000000' } }),
      ).audience,
    ).toBe(`${app.url}/ci/org_unknown0000000000000000`);
    await expectError(
      await anonymous.call(getCiAudience, { query: { organization_id: '../x' } }),
      422,
      'VALIDATION_ERROR',
      'organization_id',
    );
  });

  it('lets the Action sign in knowing only the organization: it asks the service for the audience, then mints the ID token for it', async () => {
    const { tenant, repo, policy } = await trusting((r) => ({ repository: r }));
    const asked: string[] = [];
    const credentials = acquireCredentials(
      { kind: 'oidc', organizationId: tenant.orgId },
      {
        baseUrl: app.url,
        userAgent: 'scanward-action-test',
        http: { fetch: globalThis.fetch, sleep: async () => {}, now: () => Date.now(), retry: DEFAULT_RETRY },
        idToken: async (aud) => {
          asked.push(aud);
          return issuer.sign(claimsOf(repo), { aud });
        },
      },
    );
    const headers = await credentials.headers();
    expect(asked).toEqual([`${app.url}/ci/${tenant.orgId}`]);
    okBody(
      await apiClient(app, { token: headers.authorization!.replace('Bearer ', '') }).call(listScansRoute),
      200,
    );
    const [event] = await auditOf(tenant, 'ci.token_issued');
    expect(event!.details.policy_id).toBe(policy.id);
  });

  it('refuses an address its 51st refused exchange in 15 minutes (429, Retry-After), while issued tokens do not count', async () => {
    // An app of its own: every request here comes from 127.0.0.1, so the other tests' refusals
    // would share the address's allowance.
    const own = await startTestApp({ env: { SCANWARD_CI_OIDC_ISSUERS: issuer.issuer } });
    try {
      own.services.ciIssuers = new CiIssuers({ ca: issuer.ca });
      const tenant = await factory.tenant(own);
      const repo = `acme-${randomBytes(4).toString('hex')}/web`;
      const { audience } = okBody(await tenant.api.call(getCiAudience));
      okBody(
        await tenant.api.call(postCiTrust, {
          body: {
            name: 'limited',
            issuer: issuer.issuer,
            conditions: { repository: repo },
            permissions: ['read:scans'],
          },
        }),
        201,
      );
      const client = apiClient(own);
      const valid = await issuer.sign(claimsOf(repo), { aud: audience });
      const attempt = (idToken: string) => client.call(postCiToken, { body: { id_token: idToken } });
      // A token of another repository verifies but matches no policy: refused, and counted.
      const refused = await issuer.sign(claimsOf(`${repo}-fork`), { aud: audience });
      for (let i = 0; i < MAX_REFUSED_EXCHANGES_PER_ADDRESS - 1; i++) {
        if (i % 2) await expectError(await attempt(refused), 403, 'INSUFFICIENT_PERMISSION');
        else await expectError(await attempt('not-a-jwt'), 401, 'INVALID_TOKEN');
      }
      // Issued tokens give their reservation back: three more fit before the last refusal.
      for (let i = 0; i < 3; i++) okBody(await attempt(valid), 200);
      await expectError(await attempt('not-a-jwt'), 401, 'INVALID_TOKEN');

      const limited = await attempt(valid);
      await expectError(limited, 429, 'RATE_LIMIT_EXCEEDED');
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(EXCHANGE_WINDOW_SECONDS);
    } finally {
      await own.close();
    }
  });
});
