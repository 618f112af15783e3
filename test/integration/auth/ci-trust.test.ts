import { randomBytes } from 'node:crypto';
import { decodeJwt } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  EXCHANGE_WINDOW_SECONDS,
  MAX_REFUSED_EXCHANGES_PER_ADDRESS,
} from '../../../server/auth/ci-exchange.ts';
import { acquireCredentials } from '../../../action/service/credentials.ts';
import { DEFAULT_RETRY } from '../../../action/service/http.ts';
import { CiIssuers } from '../../../server/auth/ci-issuers.ts';
import { listAuditEventsRoute } from '../../../server/routes/audit-events.ts';
import { postCiToken, refreshToken } from '../../../server/routes/auth.ts';
import { deleteCiTrust, getCiAudience, getCiTrust, postCiTrust } from '../../../server/routes/ci-trust.ts';
import { createScanRoute, listScansRoute } from '../../../server/routes/scans.ts';
import { apiClient, expectError, okBody, type ApiClient, type RouteBody } from '../../helpers/api-client.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { testEngine } from '../../helpers/database.ts';
import { factory, type BuiltTenant } from '../../helpers/factory.ts';
import { githubClaims, startOidcIssuer, type OidcIssuer } from '../../fixtures/ci-oidc-issuer.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { listFindingsRoute } from '../../../server/routes/findings.ts';

/**
 * Keyless CI sign-in (issue 26) against a local OpenID issuer over TLS on loopback. The app
 * runs in this process, which started without NODE_EXTRA_CA_CERTS, so the test hands the
 * issuer's CA to the app's issuer client (the `ca` the variable would add; docs/ci-trust.md).
 */

type Policy = RouteBody<typeof postCiTrust>;

describe(`keyless CI sign-in (${testEngine})`, () => {
  let app: TestApp;
  let issuer: OidcIssuer;
  let anonymous: ApiClient;

  // The app trusts the issuer, so the issuer starts first.
  const suite = useTestApp(async () => {
    issuer = await startOidcIssuer();
    return { captureLogs: true, env: { SCANWARD_CI_OIDC_ISSUERS: issuer.issuer } };
  });
  beforeAll(() => {
    app = suite.app;
    app.services.ciIssuers = new CiIssuers({ ca: issuer.ca });
    anonymous = apiClient(app);
  });
  afterAll(async () => {
    await issuer?.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A tenant of its own, trusting a repository of its own through an audience of its own. */
  async function trusting(
    conditions: (repo: string) => Record<string, string>,
    extra: Record<string, unknown> = {},
  ): Promise<{ tenant: BuiltTenant; repo: string; audience: string; policy: Policy }> {
    const tenant = await factory.tenant(app);
    const tag = randomBytes(4).toString('hex');
    const repo = `acme-${tag}/web`;
    const { audience } = okBody(await tenant.api.call(getCiAudience));
    const policy = okBody(
      await tenant.api.call(postCiTrust, {
        body: {
          name: `PRs of ${repo}`,
          issuer: issuer.issuer,
          conditions: conditions(repo),
          permissions: ['read:scans', 'write:scans'],
          ...extra,
        },
      }),
      201,
    );
    return { tenant, repo, audience, policy };
  }

  const claimsOf = (repo: string, overrides: Record<string, unknown> = {}) =>
    githubClaims({ repository: repo, repository_owner: repo.split('/')[0], ...overrides });

  const exchange = (idToken: string) => anonymous.call(postCiToken, { body: { id_token: idToken } });

  const auditOf = async (tenant: BuiltTenant, action: string) =>
    okBody(await tenant.api.call(listAuditEventsRoute, { query: { action } })).items;

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

  it('refuses a token for another audience, from an untrusted issuer, expired, not yet valid, unsigned or signed by an unknown key (401)', async () => {
    const { tenant, repo, audience } = await trusting((r) => ({ repository: r }));
    const claims = claimsOf(repo);
    await expectError(
      await exchange(await issuer.sign(claims, { aud: 'https://elsewhere.example.test' })),
      401,
      'INVALID_TOKEN',
    );
    await expectError(
      await exchange(await issuer.sign(claims, { aud: audience, iss: 'https://token.example.test' })),
      401,
      'INVALID_TOKEN',
    );
    await expectError(
      await exchange(
        await issuer.sign(claims, { aud: audience, iatOffset: -900, nbfOffset: -900, expOffset: -300 }),
      ),
      401,
      'TOKEN_EXPIRED',
    );
    await expectError(
      await exchange(
        await issuer.sign(claims, { aud: audience, nbfOffset: 600, iatOffset: 0, expOffset: 900 }),
      ),
      401,
      'INVALID_TOKEN',
    );
    await expectError(
      await exchange(await issuer.sign(claims, { aud: audience, iatOffset: 600, expOffset: 900 })),
      401,
      'INVALID_TOKEN',
    );
    await expectError(await exchange(issuer.unsigned(claims, { aud: audience })), 401, 'INVALID_TOKEN');
    await expectError(
      await exchange(await issuer.sign(claims, { aud: audience, key: await issuer.strayKey() })),
      401,
      'INVALID_TOKEN',
    );
    await expectError(await exchange('not-a-jwt'), 401, 'INVALID_TOKEN');
    // None of these verified: nothing to name in the audit trail.
    expect(await auditOf(tenant, 'ci.token_issued')).toEqual([]);
    expect(await auditOf(tenant, 'ci.token_refused')).toEqual([]);
  });

  it('refuses a verified token whose repository or ref does not match (403), and audits the refusal', async () => {
    const { tenant, repo, audience } = await trusting((r) => ({ repository: r, ref: 'refs/heads/main' }));
    const main = { aud: audience };
    okBody(
      await exchange(await issuer.sign(claimsOf(repo, { ref: 'refs/heads/main', event_name: 'push' }), main)),
      200,
    );
    await expectError(
      await exchange(await issuer.sign(claimsOf(repo, { ref: 'refs/heads/dev', event_name: 'push' }), main)),
      403,
      'INSUFFICIENT_PERMISSION',
    );
    await expectError(
      await exchange(
        await issuer.sign(claimsOf('acme/other', { ref: 'refs/heads/main', event_name: 'push' }), main),
      ),
      403,
      'INSUFFICIENT_PERMISSION',
    );
    const refused = await auditOf(tenant, 'ci.token_refused');
    expect(refused.map((e) => [e.details.repository, e.details.ref]).sort()).toEqual(
      [
        ['acme/other', 'refs/heads/main'],
        [repo, 'refs/heads/dev'],
      ].sort(),
    );
    expect(refused[0]!.details.reason).toMatch(/does not match/);
  });

  it('matches conditions and globs: main of every repository of an owner, pull requests of one repository', async () => {
    const tag = randomBytes(4).toString('hex');
    const { audience } = await trusting(() => ({ repository_owner: `owner-${tag}`, ref: 'refs/heads/main' }));
    const claims = (repo: string, ref: string) =>
      githubClaims({ repository: repo, repository_owner: `owner-${tag}`, ref, event_name: 'push' });
    okBody(
      await exchange(await issuer.sign(claims(`owner-${tag}/api`, 'refs/heads/main'), { aud: audience })),
      200,
    );
    await expectError(
      await exchange(await issuer.sign(claims(`owner-${tag}/api`, 'refs/heads/main2'), { aud: audience })),
      403,
      'INSUFFICIENT_PERMISSION',
    );
    const prs = await trusting((r) => ({
      repository: r,
      ref: 'refs/pull/*/merge',
      event_name: 'pull_request',
    }));
    okBody(await exchange(await issuer.sign(claimsOf(prs.repo), { aud: prs.audience })), 200);
    await expectError(
      await exchange(
        await issuer.sign(claimsOf(prs.repo, { ref: 'refs/pull/7/head/x' }), { aud: prs.audience }),
      ),
      403,
      'INSUFFICIENT_PERMISSION',
    );
  });

  it("never matches a run that may execute a fork's code unless the policy allows forks", async () => {
    const closed = await trusting((r) => ({ repository: r }));
    const fork = (repo: string) => claimsOf(repo, { event_name: 'pull_request_target' });
    const refused = await expectError(
      await exchange(await issuer.sign(fork(closed.repo), { aud: closed.audience })),
      403,
      'INSUFFICIENT_PERMISSION',
    );
    expect(refused.detail).toMatch(/fork/);
    const [event] = await auditOf(closed.tenant, 'ci.token_refused');
    expect(event!.details).toMatchObject({ repository: closed.repo, event_name: 'pull_request_target' });

    const open = await trusting((r) => ({ repository: r }), { allow_forks: true });
    okBody(await exchange(await issuer.sign(fork(open.repo), { aud: open.audience })), 200);
  });

  it('picks up a key rotation at the issuer', async () => {
    const { repo, audience } = await trusting((r) => ({ repository: r }));
    okBody(await exchange(await issuer.sign(claimsOf(repo), { aud: audience })), 200);
    const before = issuer.jwksFetches();
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 15_000 });
    const rotated = await issuer.rotate();
    okBody(await exchange(await issuer.sign(claimsOf(repo), { aud: audience, key: rotated })), 200);
    expect(issuer.jwksFetches()).toBe(before + 1);
    // Cached now: no fetch for the next token of the same key.
    okBody(await exchange(await issuer.sign(claimsOf(repo), { aud: audience, key: rotated })), 200);
    expect(issuer.jwksFetches()).toBe(before + 1);
  });

  it('expires the access token when it says, and a deleted policy stops its tokens', async () => {
    const { tenant, repo, audience, policy } = await trusting((r) => ({ repository: r }));
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: start });
    const answer = okBody(await exchange(await issuer.sign(claimsOf(repo), { aud: audience })), 200);
    const ci = apiClient(app, { token: answer.access_token });
    vi.setSystemTime(start + (answer.expires_in - 5) * 1000);
    okBody(await ci.call(listScansRoute), 200);
    vi.setSystemTime(start + (answer.expires_in + 1) * 1000);
    await expectError(await ci.call(listScansRoute), 401, 'TOKEN_EXPIRED');
    vi.useRealTimers();

    const again = okBody(await exchange(await issuer.sign(claimsOf(repo), { aud: audience })), 200);
    const second = apiClient(app, { token: again.access_token });
    okBody(await second.call(listScansRoute), 200);
    okBody(await tenant.api.call(deleteCiTrust, { params: { policy_id: policy.id } }), 200);
    await expectError(await second.call(listScansRoute), 401, 'INVALID_TOKEN');
    // No policy of the organization matches any more.
    await expectError(
      await exchange(await issuer.sign(claimsOf(repo), { aud: audience })),
      403,
      'INSUFFICIENT_PERMISSION',
    );
  });

  it('lets admins manage policies: defaults, validation, isolation', async () => {
    const tenant = await factory.tenant(app);
    const created = okBody(
      await tenant.api.call(postCiTrust, {
        body: {
          name: 'main of acme/*',
          conditions: { repository: 'acme/*', ref: 'refs/heads/main' },
          permissions: ['write:scans', 'read:scans'],
        },
      }),
      201,
    );
    expect(created.issuer).toBe('https://token.actions.githubusercontent.com');
    expect(created.audience).toBe(`${app.url}/ci/${tenant.orgId}`);
    expect(created.allow_forks).toBe(false);
    expect(created.permissions).toEqual(['read:scans', 'write:scans']);
    const listed = okBody(await tenant.api.call(getCiTrust));
    expect(listed.items.map((p) => p.id)).toEqual([created.id]);

    await expectError(
      await tenant.api.call(postCiTrust, {
        body: {
          name: 'x',
          issuer: 'https://gitlab.example.test',
          conditions: { repository: 'a/b' },
          permissions: ['read:scans'],
        },
      }),
      422,
      'VALIDATION_ERROR',
      'issuer',
    );
    await expectError(
      await tenant.api.call(postCiTrust, {
        body: {
          name: 'x',
          conditions: { ref: 'refs/heads/main' },
          permissions: ['read:scans'],
        },
      }),
      422,
      'VALIDATION_ERROR',
    );
    await expectError(
      await tenant.api.call(postCiTrust, {
        body: {
          name: 'x',
          conditions: { repository: 'a/b' },
          permissions: ['admin'],
        } as never,
      }),
      422,
      'VALIDATION_ERROR',
    );
    const member = await tenant.client(await tenant.addUser('member'));
    await expectError(await member.call(getCiTrust), 403, 'INSUFFICIENT_PERMISSION');
    const key = await tenant.keyClient(['read:scans', 'write:scans']);
    await expectError(await key.call(getCiTrust), 403, 'INSUFFICIENT_PERMISSION');

    const other = await factory.tenant(app);
    await expectError(
      await other.api.call(deleteCiTrust, { params: { policy_id: created.id } }),
      404,
      'NOT_FOUND',
    );
    expect(okBody(await other.api.call(getCiTrust)).items).toEqual([]);
    okBody(await tenant.api.call(deleteCiTrust, { params: { policy_id: created.id } }), 200);
    await expectError(
      await tenant.api.call(deleteCiTrust, { params: { policy_id: created.id } }),
      404,
      'NOT_FOUND',
    );
    const [createdEvent] = await auditOf(tenant, 'ci_trust.created');
    expect(createdEvent!.actor?.email).toBe(tenant.admin.email);
    expect(createdEvent!.details).toEqual({
      policy_id: created.id,
      name: 'main of acme/*',
      issuer: 'https://token.actions.githubusercontent.com',
      audience: created.audience,
      conditions: JSON.stringify({ repository: 'acme/*', ref: 'refs/heads/main' }),
      permissions: 'read:scans write:scans',
      allow_forks: 'false',
    });
    const [deletedEvent] = await auditOf(tenant, 'ci_trust.deleted');
    expect(deletedEvent!.details).toMatchObject({ policy_id: created.id, name: 'main of acme/*' });
    expect(deletedEvent!.created_at).toEqual(expect.any(String));
  });
});
