import { randomBytes } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { deleteCiTrust, getCiTrust, postCiTrust } from '../../../server/routes/ci-trust.ts';
import { listScansRoute } from '../../../server/routes/scans.ts';
import { apiClient, expectError, okBody } from '../../helpers/api-client.ts';
import type { TestApp } from '../../helpers/app.ts';
import { testEngine } from '../../helpers/database.ts';
import { factory } from '../../helpers/factory.ts';
import { githubClaims, type OidcIssuer } from '../../fixtures/ci-oidc-issuer.ts';
import { useCiTrust } from './ci-trust-kit.ts';

/**
 * Keyless CI sign-in (issue 26), the policies: what an exchange refuses (audience, issuer,
 * time, signature, conditions, forks), key rotation and expiry, and the admins' management of
 * policies. The exchange itself: ci-trust.test.ts.
 */

describe(`keyless CI sign-in: policies and refusals (${testEngine})`, () => {
  const kit = useCiTrust();
  let app: TestApp;
  let issuer: OidcIssuer;
  beforeAll(() => {
    ({ app, issuer } = kit);
  });
  const { trusting, claimsOf, exchange, auditOf } = kit;
  // A test that moves the clock gives it back, to the next test and to the next file the worker runs.
  afterEach(() => {
    vi.useRealTimers();
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
