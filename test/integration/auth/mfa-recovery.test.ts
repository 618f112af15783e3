import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { spendRecoveryCode } from '../../../server/auth/mfa-recovery-codes.repository.ts';
import { deleteMfa, getMfa, regenerateMfaRecoveryCodes } from '../../../server/routes/auth.ts';
import { apiClient, expectError, type ApiClient } from '../../helpers/api-client.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { testEngine } from '../../helpers/database.ts';
import {
  factory,
  enrollMfa,
  logIn,
  stepWithRoom,
  totpCodeAt,
  wrongTotpCode,
  type Tenant,
  type TestUser,
} from '../../helpers/factory.ts';

/**
 * MFA recovery codes: 10 handed out when MFA is turned on, each logging in once in
 * place of a TOTP code, accepted wherever a current code is asked for, replaced
 * all at once by POST /api/v1/auth/mfa/recovery-codes.
 */

const CODE = /^[0-9a-hjkmnp-tv-z]{4}(-[0-9a-hjkmnp-tv-z]{4}){3}$/;

describe(`MFA recovery codes (${testEngine})`, () => {
  let app: TestApp;
  let tenant: Tenant;

  /** A member with MFA on: their client, authenticator and recovery codes. */
  async function enrolled(): Promise<{
    user: TestUser;
    api: ApiClient;
    codes: string[];
    totp: Awaited<ReturnType<typeof enrollMfa>>['totp'];
    step: number;
  }> {
    const user = await tenant.addUser('member');
    const api = apiClient(app, { token: await tenant.bearer(user) });
    const { totp, step, verified } = await enrollMfa(api);
    return { user, api, totp, step, codes: verified.recovery_codes as string[] };
  }

  const suite = useTestApp();
  beforeAll(async () => {
    app = suite.app;
    tenant = await factory.tenant(app, { plan: 'professional' });
  });

  it('hands out 10 distinct codes when MFA is turned on, stored only as hashes', async () => {
    const { user, api, codes } = await enrolled();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(CODE);
    expect((await api.call(getMfa)).body).toEqual({
      mfa_enabled: true,
      recovery_codes_remaining: 10,
    });
    // What is stored is the SHA-256 of the code without its dashes: spending by that hash works.
    const hash = createHash('sha256').update(codes[9]!.replaceAll('-', '')).digest('hex');
    expect(await spendRecoveryCode(app.services.db, tenant.orgId, user.id, hash, new Date())).toBe(true);
    expect((await api.call(getMfa)).body).toMatchObject({ recovery_codes_remaining: 9 });
  });

  it('logs in once with each code in place of a TOTP code, however it is typed', async () => {
    const { user, api, codes } = await enrolled();
    const first = await logIn(app, user, { mfa_code: codes[0]! });
    expect(first.status).toBe(200);
    expect(first.body.token_type).toBe('bearer');
    await expectError(await logIn(app, user, { mfa_code: codes[0]! }), 401, 'INVALID_MFA_CODE');

    // Upper case, no dashes, spaces: the same code.
    const typed = codes[1]!.toUpperCase().replaceAll('-', ' ');
    expect((await logIn(app, user, { mfa_code: typed })).status).toBe(200);
    await expectError(await logIn(app, user, { mfa_code: codes[1]! }), 401, 'INVALID_MFA_CODE');
    expect((await api.call(getMfa)).body).toMatchObject({ recovery_codes_remaining: 8 });

    // Someone else's code, or a made-up one, is a wrong code; the password alone still is not enough.
    const other = await enrolled();
    await expectError(await logIn(app, user, { mfa_code: other.codes[0]! }), 401, 'INVALID_MFA_CODE');
    await expectError(await logIn(app, user, { mfa_code: '0000-0000-0000-0000' }), 401, 'INVALID_MFA_CODE');
    await expectError(await logIn(app, user), 401, 'MFA_REQUIRED');
    // The other user's code is still theirs to use.
    expect((await logIn(app, other.user, { mfa_code: other.codes[0]! })).status).toBe(200);
  });

  it('accepts exactly one of several concurrent log-ins with the same recovery code', async () => {
    const { user, codes } = await enrolled();
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => logIn(app, user, { mfa_code: codes[3]! })),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 401, 401, 401]);
  });

  it('regenerates the codes with a current TOTP code: the old ones stop working, the new ones work once', async () => {
    const { user, api, codes, totp } = await enrolled();
    const step = await stepWithRoom(totp, 5_000);
    await expectError(
      await api.call(regenerateMfaRecoveryCodes, { body: { code: wrongTotpCode(totp) } }),
      401,
      'INVALID_MFA_CODE',
    );
    const renewed = await api.call(regenerateMfaRecoveryCodes, { body: { code: totpCodeAt(totp, step) } });
    expect(renewed.status).toBe(200);
    const fresh = renewed.body.recovery_codes;
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((c) => codes.includes(c))).toEqual([]);

    await expectError(await logIn(app, user, { mfa_code: codes[0]! }), 401, 'INVALID_MFA_CODE');
    expect((await logIn(app, user, { mfa_code: fresh[0]! })).status).toBe(200);
    expect((await api.call(getMfa)).body).toMatchObject({ recovery_codes_remaining: 9 });
    // The TOTP code that regenerated them is spent as well.
    await expectError(
      await api.call(regenerateMfaRecoveryCodes, { body: { code: totpCodeAt(totp, step) } }),
      401,
      'INVALID_MFA_CODE',
    );
  });

  it('regenerates with a recovery code (lost authenticator) and spends it', async () => {
    const { user, api, codes } = await enrolled();
    const renewed = await api.call(regenerateMfaRecoveryCodes, { body: { code: codes[5]! } });
    expect(renewed.status).toBe(200);
    await expectError(
      await api.call(regenerateMfaRecoveryCodes, { body: { code: codes[5]! } }),
      401,
      'INVALID_MFA_CODE',
    );
    expect((await logIn(app, user, { mfa_code: renewed.body.recovery_codes[5]! })).status).toBe(200);
  });

  it('turns MFA off with a recovery code, and deletes the rest', async () => {
    const { user, api, codes } = await enrolled();
    const off = await api.call(deleteMfa, { body: { code: codes[2]! } });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ mfa_enabled: false });
    expect((await api.call(getMfa)).body).toEqual({
      mfa_enabled: false,
      recovery_codes_remaining: 0,
    });
    expect((await logIn(app, user)).status).toBe(200);

    // Enrolling again hands out new codes; the earlier ones mean nothing.
    const again = await enrollMfa(api);
    const newCodes = again.verified.recovery_codes as string[];
    await expectError(await logIn(app, user, { mfa_code: codes[3]! }), 401, 'INVALID_MFA_CODE');
    expect((await logIn(app, user, { mfa_code: newCodes[3]! })).status).toBe(200);
  });

  it('validates the code field and refuses regeneration while MFA is off', async () => {
    const user = await tenant.addUser('member');
    const api = apiClient(app, { token: await tenant.bearer(user) });
    expect((await api.call(getMfa)).body).toEqual({
      mfa_enabled: false,
      recovery_codes_remaining: 0,
    });
    await expectError(
      await api.call(regenerateMfaRecoveryCodes, { body: { code: '123456' } }),
      409,
      'CONFLICT',
    );
    for (const body of [{}, { code: '12345' }, { code: 'abc' }, { code: 123456 }, { code: 'x'.repeat(40) }]) {
      await expectError(
        await api.call(regenerateMfaRecoveryCodes, { body: body as never }),
        422,
        'VALIDATION_ERROR',
        'code',
      );
      await expectError(await api.call(deleteMfa, { body: body as never }), 422, 'VALIDATION_ERROR', 'code');
    }
    // Bearer tokens only, like every MFA endpoint.
    const key = apiClient(app, { apiKey: await tenant.apiKey(['read:scans'], user) });
    await expectError(await key.call(getMfa), 403, 'INSUFFICIENT_PERMISSION');
  });
});
