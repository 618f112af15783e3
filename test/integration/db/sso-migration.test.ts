import { describe, expect, it } from 'vitest';
import { keepSsoOnlyOrganizations } from '../../../migrations/20261128010200_sso_per_organization.ts';
import { getAuthenticationSettings } from '../../../server/routes/oidc.ts';
import { okBody } from '../../helpers/api-client.ts';
import { testEngine } from '../../helpers/database.ts';
import { factory } from '../../helpers/factory.ts';
import { useTestApp } from '../../helpers/suite-app.ts';

/**
 * SSO per organization (issue 31, item 3) starts off everywhere, except where an organization had
 * already switched password log-in off: those keep signing in, with SSO on for their people's
 * e-mail domains.
 */
describe(`turning SSO on for organizations that were SSO-only (${testEngine})`, () => {
  const suite = useTestApp({
    env: { SCANWARD_OIDC_ISSUER: 'https://idp.example.test', SCANWARD_OIDC_CLIENT_ID: 'scanward' },
  });

  it("turns SSO on with the people's domains where password log-in was off, and nowhere else", async () => {
    const { app } = suite;
    const ssoOnly = await factory.tenant(app);
    await ssoOnly.addUser('member');
    const ordinary = await factory.tenant(app);
    // As before the migration: the password switch off, no SSO settings.
    await app.services.db('organizations').where({ id: ssoOnly.orgId }).update({ password_login: false });

    await keepSsoOnlyOrganizations(app.services.db);

    const domain = ssoOnly.admin.email.slice(ssoOnly.admin.email.indexOf('@') + 1);
    expect(okBody(await ssoOnly.api.call(getAuthenticationSettings))).toMatchObject({
      password_login: false,
      sso_enabled: true,
      sso_domains: [domain],
    });
    expect(okBody(await ordinary.api.call(getAuthenticationSettings))).toMatchObject({
      password_login: true,
      sso_enabled: false,
      sso_domains: [],
    });
  });
});
