import { describe, expect, it } from 'vitest';
import { moveToOrganizationAudiences } from '../../../migrations/20261128010000_ci_audience_per_organization.ts';
import { getCiAudience, getCiTrust, postCiTrust } from '../../../server/routes/ci-trust.ts';
import { okBody } from '../../helpers/api-client.ts';
import { testEngine } from '../../helpers/database.ts';
import { factory, type BuiltTenant } from '../../helpers/factory.ts';
import { useTestApp } from '../../helpers/suite-app.ts';

/**
 * The migration that binds keyless CI to one organization (issue 31, item 1) moves the policies
 * that existed before it to their organization's audience: the base their oldest policy's audience
 * named, plus `/ci/<organization id>`. An organization whose policies named no URL gets its
 * audience, and its policies with it, on first use.
 */
describe(`moving CI trust policies to their organization's audience (${testEngine})`, () => {
  const suite = useTestApp();

  /** A tenant with one policy, put back as it was before the migration: no audience of its own, the policy's free text. */
  async function before(oldAudience: string): Promise<BuiltTenant> {
    const { app } = suite;
    const tenant = await factory.tenant(app);
    okBody(
      await tenant.api.call(postCiTrust, {
        body: { name: 'main', conditions: { repository: 'acme/web' }, permissions: ['read:scans'] },
      }),
      201,
    );
    await app.services.db('organizations').where({ id: tenant.orgId }).update({ ci_audience: null });
    await app.services
      .db('ci_trust_policies')
      .where({ org_id: tenant.orgId })
      .update({ audience: oldAudience });
    return tenant;
  }

  it("gives each organization its audience from its policies' base and moves them to it", async () => {
    const { app } = suite;
    const a = await before('https://scanward.example.test/');
    const b = await before('https://scanward.example.test');
    const c = await before('not a url');

    await moveToOrganizationAudiences(app.services.db);

    for (const t of [a, b]) {
      const expected = `https://scanward.example.test/ci/${t.orgId}`;
      expect(okBody(await t.api.call(getCiTrust)).items.map((p) => p.audience)).toEqual([expected]);
      expect(okBody(await t.api.call(getCiAudience)).audience).toBe(expected);
    }
    // No URL to take a base from: minted on first use, and the policies follow.
    const minted = okBody(await c.api.call(getCiAudience)).audience;
    expect(minted).toBe(`${app.url}/ci/${c.orgId}`);
    expect(okBody(await c.api.call(getCiTrust)).items.map((p) => p.audience)).toEqual([minted]);
    // Running it again changes nothing.
    await moveToOrganizationAudiences(app.services.db);
    expect(okBody(await a.api.call(getCiAudience)).audience).toBe(
      `https://scanward.example.test/ci/${a.orgId}`,
    );
  });
});
