import { URI, type TOTP } from 'otpauth';
import { beforeAll, describe, expect, it } from 'vitest';
import { listAuditEventsRoute } from '../../../server/routes/audit-events.ts';
import { deleteMfa, regenerateMfaRecoveryCodes, setupMfa, verifyMfa } from '../../../server/routes/auth.ts';
import { apiClient, okBody } from '../../helpers/api-client.ts';
import type { TestApp } from '../../helpers/app.ts';
import { testEngine } from '../../helpers/database.ts';
import { factory, stepWithRoom, type BuiltTenant } from '../../helpers/factory.ts';
import { useTestApp } from '../../helpers/suite-app.ts';

/**
 * The audit trail of sign-in changes (issue 31, item 10, the auth share): MFA turned on, its
 * recovery codes replaced, MFA turned off, and the organization's authentication settings. Each
 * event names the actor, the action, the target, the time and what changed, and no secret.
 */

describe(`audit of sign-in changes (${testEngine})`, () => {
  let app: TestApp;
  let tenant: BuiltTenant;
  const suite = useTestApp({
    env: { SCANWARD_OIDC_ISSUER: 'https://idp.example.test', SCANWARD_OIDC_CLIENT_ID: 'scanward' },
  });
  beforeAll(async () => {
    app = suite.app;
    tenant = await factory.tenant(app, { plan: 'startup', limits: false });
  });

  const eventsOf = async (action: string) =>
    okBody(await tenant.api.call(listAuditEventsRoute, { query: { action } })).items;

  it('records MFA enabled, recovery codes regenerated and MFA disabled, without any code or secret', async () => {
    const user = await tenant.addUser('member');
    const api = apiClient(app, { token: await tenant.login(user) });
    const setup = okBody(await api.call(setupMfa));
    const totp = URI.parse(setup.otpauth_uri) as TOTP;
    const step = await stepWithRoom(totp, 5_000);
    const enrolled = okBody(
      await api.call(verifyMfa, { body: { code: totp.generate({ timestamp: step * 30_000 }) } }),
    );
    const [first, second] = enrolled.recovery_codes;
    const regenerated = okBody(await api.call(regenerateMfaRecoveryCodes, { body: { code: first! } }));
    const [fresh] = regenerated.recovery_codes;
    okBody(await api.call(deleteMfa, { body: { code: fresh! } }));

    const person = { id: user.id, email: user.email };
    const [enabled] = await eventsOf('mfa.enabled');
    expect(enabled).toMatchObject({ actor: person, target: person, details: { recovery_codes: '10' } });
    expect(enabled!.ip).toBeTruthy();
    expect(Date.parse(enabled!.created_at)).not.toBeNaN();
    const [replaced] = await eventsOf('mfa.recovery_codes_regenerated');
    expect(replaced).toMatchObject({ actor: person, target: person, details: { recovery_codes: '10' } });
    const [disabled] = await eventsOf('mfa.disabled');
    expect(disabled).toMatchObject({ actor: person, target: person, details: { by: 'self' } });

    const trail = JSON.stringify(
      okBody(await tenant.api.call(listAuditEventsRoute, { query: { per_page: 100 } })).items,
    );
    for (const secret of [setup.secret, first!, second!, fresh!]) expect(trail).not.toContain(secret);
  });
});
