import { beforeAll, describe, expect, it } from 'vitest';
import { putAuthenticationSettings } from '../../../server/routes/oidc.ts';
import { listAuditEventsRoute } from '../../../server/routes/audit-events.ts';
import { okBody } from '../../helpers/api-client.ts';
import type { TestApp } from '../../helpers/app.ts';
import { testEngine } from '../../helpers/database.ts';
import { factory, logIn } from '../../helpers/factory.ts';
import { useTestApp } from '../../helpers/suite-app.ts';

/**
 * Every password path (the token route, the console's session route and HTTP Basic on the
 * documentation pages) goes through one check (auth/login.ts, checkPasswordLogin) that honours
 * the organization's password-log-in switch and the log-in limits (issue 31, item 4). The
 * instance names an OpenID provider only so that an admin may switch password log-in off; no
 * single sign-on happens here.
 */

const basic = (user: string, password: string) => ({
  authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
});

/** What a client can observe of an answer: status, the headers that matter, the body. */
async function observed(res: Response) {
  return {
    status: res.status,
    challenge: res.headers.get('www-authenticate'),
    type: res.headers.get('content-type'),
    body: await res.text(),
  };
}

describe(`password paths (${testEngine})`, () => {
  let app: TestApp;
  const suite = useTestApp({
    env: { SCANWARD_OIDC_ISSUER: 'https://idp.example.test', SCANWARD_OIDC_CLIENT_ID: 'scanward' },
  });
  beforeAll(() => {
    app = suite.app;
  });

  it('refuses HTTP Basic with password log-in switched off exactly as a wrong password (no oracle)', async () => {
    const tenant = await factory.tenant(app, { plan: 'professional', limits: false });
    const right = basic(tenant.admin.email, tenant.admin.password);
    const wrong = basic(tenant.admin.email, 'not-the-password');
    expect((await app.request('/docs', { headers: right })).status).toBe(200);

    const domain = tenant.admin.email.slice(tenant.admin.email.indexOf('@') + 1);
    okBody(
      await tenant.api.call(putAuthenticationSettings, {
        body: { password_login: false, sso_enabled: true, sso_domains: [domain] },
      }),
    );
    const withRight = await observed(await app.request('/docs', { headers: right }));
    const withWrong = await observed(await app.request('/docs', { headers: wrong }));
    expect(withRight.status).toBe(401);
    expect(withRight).toEqual(withWrong);
    expect(JSON.parse(withRight.body)).toMatchObject({ error_code: 'INVALID_CREDENTIALS' });

    // The token and console routes keep saying the switch is off, but only to the right password.
    const token = await logIn(app, tenant.admin);
    expect(token.status).toBe(403);
    expect(token.body).toMatchObject({ error_code: 'PASSWORD_LOGIN_DISABLED' });
    expect((await logIn(app, { ...tenant.admin, password: 'not-the-password' })).status).toBe(401);

    // Back on, Basic opens again; both refusals were recorded as failed log-ins of the account.
    okBody(await tenant.api.call(putAuthenticationSettings, { body: { password_login: true } }));
    expect((await app.request('/docs', { headers: right })).status).toBe(200);
    const failed = okBody(
      await tenant.api.call(listAuditEventsRoute, { query: { action: 'auth.login_failed' } }),
    ).items.map((e) => e.details);
    expect(failed).toContainEqual({ method: 'basic', reason: 'INVALID_CREDENTIALS' });
  });

  it('counts Basic refusals against the same log-in limit as the token route', async () => {
    const tenant = await factory.tenant(app, { plan: 'professional', limits: false });
    const wrong = basic(tenant.admin.email, 'not-the-password');
    for (let i = 0; i < 5; i++) expect((await app.request('/docs', { headers: wrong })).status).toBe(401);
    for (let i = 0; i < 5; i++)
      expect((await logIn(app, { ...tenant.admin, password: 'not-the-password' })).status).toBe(401);
    // The e-mail's tenth failure was the last: the right password now waits too, on every path.
    expect((await logIn(app, tenant.admin)).status).toBe(429);
    expect(
      (await app.request('/docs', { headers: basic(tenant.admin.email, tenant.admin.password) })).status,
    ).toBe(429);
  });
});
