import { URI, TOTP } from 'otpauth';
import { beforeAll, describe, expect, it } from 'vitest';
import { openSecret } from '../../../server/auth/keys.ts';
import { findUser } from '../../../server/identity/users.repository.ts';
import { deleteMfa, setupMfa, verifyMfa } from '../../../server/routes/auth.ts';
import { apiClient, expectError, type ApiClient } from '../../helpers/api-client.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory, logIn, type Tenant, type TestUser, stepWithRoom } from '../../helpers/factory.ts';
import { testEngine } from '../../helpers/database.ts';

describe(`MFA with TOTP (${testEngine})`, () => {
  let app: TestApp;
  let tenant: Tenant;

  /** A member logged in over HTTP, and their client. */
  const loggedIn = async () => {
    const user = await tenant.addUser('member');
    return { user, api: apiClient(app, { token: await tenant.login(user) }) };
  };
  const setup = async (api: ApiClient) => {
    const res = await api.call(setupMfa);
    expect(res.status).toBe(200);
    const totp = URI.parse(res.body.otpauth_uri) as TOTP;
    return { ...res.body, totp };
  };
  const mfaRow = async (user: TestUser) => (await findUser(app.services.db, tenant.orgId, user.id))!;
  /** A 6-digit string that is not the code of any step near now. */
  const wrongCode = (totp: TOTP) => {
    const near = new Set<string>();
    const counter = totp.counter();
    for (let s = counter - 3; s <= counter + 3; s++) near.add(totp.generate({ timestamp: s * 30_000 }));
    let n = 0;
    while (near.has(String(n).padStart(6, '0'))) n++;
    return String(n).padStart(6, '0');
  };
  const codeAt = (totp: TOTP, step: number) => totp.generate({ timestamp: step * 30_000 });

  const suite = useTestApp();
  beforeAll(async () => {
    app = suite.app;
    tenant = await factory.tenant(app, { plan: 'startup' });
  });

  it('sets up with an RFC 6238 secret (SHA-1, 6 digits, 30 s) stored encrypted, and is not on until verified', async () => {
    const { user, api } = await loggedIn();
    const { secret, otpauth_uri, totp } = await setup(api);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauth_uri).toMatch(/^otpauth:\/\/totp\//);
    expect(totp.secret.base32).toBe(secret);
    expect(totp.algorithm).toBe('SHA1');
    expect(totp.digits).toBe(6);
    expect(totp.period).toBe(30);
    expect(totp.issuer).toBe('Scanward');
    expect(totp.label).toBe(user.email);

    const row = await mfaRow(user);
    expect(row.mfa_enabled).toBe(false);
    expect(String(row.mfa_pending_secret)).not.toContain(secret);
    expect(openSecret(app.services.keys.encryptionKey, String(row.mfa_pending_secret))).toBe(secret);
    // Not on yet: the password alone still logs in.
    expect((await logIn(app, user)).status).toBe(200);
  });

  it('runs the whole cycle: verify, MFA_REQUIRED, wrong code, right code, reuse refused, disable', async () => {
    const { user, api } = await loggedIn();
    const { totp } = await setup(api);

    // A wrong code does not turn MFA on.
    await expectError(
      await api.call(verifyMfa, { body: { code: wrongCode(totp) } }),
      401,
      'INVALID_MFA_CODE',
    );
    expect((await logIn(app, user)).status).toBe(200);

    // The previous, current and next steps are each accepted once, in increasing order.
    const step = await stepWithRoom(totp, 5_000);
    const verify = await api.call(verifyMfa, { body: { code: codeAt(totp, step - 1) } });
    expect(verify.status).toBe(200);
    expect(verify.body).toEqual({ mfa_enabled: true, recovery_codes: expect.any(Array) });
    expect(verify.body.recovery_codes).toHaveLength(10);

    const noCode = await expectError(await logIn(app, user), 401, 'MFA_REQUIRED');
    expect(noCode.detail).toBe('MFA code required');
    await expectError(await logIn(app, user, { mfa_code: '' }), 401, 'MFA_REQUIRED');
    await expectError(await logIn(app, user, { mfa_code: wrongCode(totp) }), 401, 'INVALID_MFA_CODE');
    // Three steps away is outside the one-step drift window, however the clock moved meanwhile.
    await expectError(await logIn(app, user, { mfa_code: codeAt(totp, step + 3) }), 401, 'INVALID_MFA_CODE');
    await expectError(await logIn(app, user, { mfa_code: codeAt(totp, step - 3) }), 401, 'INVALID_MFA_CODE');
    // The code used to verify cannot log in.
    await expectError(await logIn(app, user, { mfa_code: codeAt(totp, step - 1) }), 401, 'INVALID_MFA_CODE');

    const current = codeAt(totp, step);
    const ok = await logIn(app, user, { mfa_code: current });
    expect(ok.status).toBe(200);
    expect(ok.body.token_type).toBe('bearer');
    await expectError(await logIn(app, user, { mfa_code: current }), 401, 'INVALID_MFA_CODE');

    // A wrong password never reveals that MFA is on.
    await expectError(await logIn(app, user, { password: 'nope' }), 401, 'INVALID_CREDENTIALS');

    // Setting up again while on is refused; disabling needs a fresh code.
    await expectError(await api.call(setupMfa), 409, 'CONFLICT');
    await expectError(await api.call(deleteMfa, { body: { code: current } }), 401, 'INVALID_MFA_CODE');
    const off = await api.call(deleteMfa, { body: { code: codeAt(totp, step + 1) } });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ mfa_enabled: false });

    expect((await logIn(app, user)).status).toBe(200);
    const row = await mfaRow(user);
    expect(row).toMatchObject({ mfa_enabled: false, mfa_secret: null, mfa_pending_secret: null });
    await expectError(await api.call(deleteMfa, { body: { code: current } }), 409, 'CONFLICT');
  });

  it('refuses verify without a setup, and validates the code field', async () => {
    const { api } = await loggedIn();
    await expectError(await api.call(verifyMfa, { body: { code: '123456' } }), 409, 'CONFLICT');
    for (const body of [{}, { code: '12345' }, { code: 123456 }, { code: '12345a' }]) {
      await expectError(await api.call(verifyMfa, { body: body as never }), 422, 'VALIDATION_ERROR', 'code');
    }
  });

  it('accepts exactly one of several concurrent logins with the same code', async () => {
    const { user, api } = await loggedIn();
    const { totp } = await setup(api);
    const step = await stepWithRoom(totp, 5_000);
    expect((await api.call(verifyMfa, { body: { code: codeAt(totp, step - 1) } })).status).toBe(200);
    const code = codeAt(totp, step);
    const answers = await Promise.all([
      logIn(app, user, { mfa_code: code }),
      logIn(app, user, { mfa_code: code }),
      logIn(app, user, { mfa_code: code }),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 401, 401]);
  });

  it("keeps MFA per user: a colleague cannot turn off someone else's MFA, and setup needs credentials", async () => {
    const { api } = await loggedIn();
    const { totp } = await setup(api);
    const step = await stepWithRoom(totp, 5_000);
    expect((await api.call(verifyMfa, { body: { code: codeAt(totp, step) } })).status).toBe(200);
    // Another user of the organization has MFA off: the first user's state is not theirs.
    const colleague = await tenant.addUser('admin');
    const colleagueApi = apiClient(app, { token: await tenant.login(colleague) });
    await expectError(
      await colleagueApi.call(deleteMfa, { body: { code: codeAt(totp, step + 1) } }),
      409,
      'CONFLICT',
    );
    await expectError(await apiClient(app).call(setupMfa), 401, 'AUTHENTICATION_REQUIRED');
  });
});
