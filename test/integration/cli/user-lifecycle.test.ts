import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { OpenOperatorDatabase } from '../../../server/cli/database.ts';
import { spendRecoveryCode } from '../../../server/auth/mfa-recovery-codes.repository.ts';
import { disableUser } from '../../../server/people/user-lifecycle.ts';
import { findUser } from '../../../server/identity/users.repository.ts';
import {
  addFindingCommentRoute,
  getFindingRoute,
  listFindingsRoute,
  updateFindingRoute,
} from '../../../server/routes/findings.ts';
import { apiClient, expectError, okBody, type ApiClient } from '../../helpers/api-client.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { runCliCaptured } from '../../helpers/cli.ts';
import { testEngine } from '../../helpers/database.ts';
import {
  detection,
  enrollMfa,
  factory,
  logIn,
  totpCodeAt,
  type BuiltTenant,
  type TestUser,
} from '../../helpers/factory.ts';
import { listScansRoute } from '../../../server/routes/scans.ts';
import { getConsoleSession, signInConsole } from '../../../server/routes/console-session.ts';
import { deleteMfa, getMfa, setupMfa } from '../../../server/routes/auth.ts';

/**
 * A user's whole lifecycle through the operator command line (`scanward admin user
 * disable|enable|delete|reset-password|reset-mfa`), run in-process against the
 * running app's database, with every effect checked over HTTP: bearer tokens, API
 * keys, the console cookie, HTTP Basic and the log-in itself.
 */

interface Revocations {
  id: string;
  email: string;
  revoked_sessions: number;
  revoked_api_keys: number;
}

describe(`user lifecycle through the command line (${testEngine})`, () => {
  let app: TestApp;
  let tenant: BuiltTenant;

  /** Hands every command the app's own database (kept open across commands). */
  const openShared: OpenOperatorDatabase = async () => ({
    database: { ...app.database, close: async () => undefined },
    applied: [],
  });
  const cli = (...argv: string[]) => runCliCaptured(argv, {}, { openDatabase: openShared });
  /** A command with --json that must succeed. */
  async function json<T>(...argv: string[]): Promise<T> {
    const result = await cli(...argv, '--json');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    return JSON.parse(result.stdout) as T;
  }

  /** Everything a user can authenticate with: a token of a log-in, an API key, a console cookie. */
  async function credentialsOf(user: TestUser) {
    const token = (await logIn(app, user)).body.access_token;
    const key = await tenant.apiKey(['read:scans'], user);
    const signIn = await apiClient(app).call(signInConsole, {
      body: { email: user.email, password: user.password },
    });
    expect(signIn.status).toBe(200);
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]!;
    return { token, key, cookie };
  }
  const byToken = (token: string) => apiClient(app, { token }).call(listScansRoute);
  const byKey = (key: string) => apiClient(app, { apiKey: key }).call(listScansRoute);
  const byCookie = (cookie: string) => apiClient(app, { headers: { cookie } }).call(listScansRoute);
  const byBasic = (user: TestUser) =>
    app.request('/openapi.json', {
      headers: { authorization: `Basic ${Buffer.from(`${user.email}:${user.password}`).toString('base64')}` },
    });

  const suite = useTestApp();
  beforeAll(async () => {
    app = suite.app;
    tenant = await factory.tenant(app, { plan: 'professional', findings: [detection()] });
  });

  it('disable cuts every credential off at once and refuses the log-in; enable lets the user log in again', async () => {
    const user = await tenant.addUser('member');
    const { token, key, cookie } = await credentialsOf(user);
    expect((await byToken(token)).status).toBe(200);
    expect((await byKey(key)).status).toBe(200);
    expect((await byCookie(cookie)).status).toBe(200);

    const disabled = await json<Revocations & { disabled: boolean; disabled_at: string }>(
      'admin',
      'user',
      'disable',
      '--email',
      user.email.toUpperCase(),
    );
    expect(disabled).toMatchObject({ id: user.id, email: user.email, disabled: true });
    // The log-in above, the console sign-in: two sessions; one key.
    expect(disabled.revoked_sessions).toBe(2);
    expect(disabled.revoked_api_keys).toBe(1);

    await expectError(await byToken(token), 401, 'INVALID_TOKEN');
    await expectError(await byKey(key), 401, 'INVALID_API_KEY');
    expect((await byCookie(cookie)).status).toBe(401);
    const state = await apiClient(app, { headers: { cookie } }).call(getConsoleSession);
    expect(state.body).toEqual({ session: null });
    // The right password answers exactly like a wrong one, on every way in.
    await expectError(await logIn(app, user), 401, 'INVALID_CREDENTIALS');
    await expectError(await byBasic(user), 401, 'INVALID_CREDENTIALS');
    // Even a key minted after the fact (bypassing the revocation) does not answer for a disabled user.
    await expectError(await byKey(await tenant.apiKey(['read:scans'], user)), 401, 'INVALID_API_KEY');

    const listed = await json<{ items: Array<{ id: string; disabled_at: string | null }> }>(
      'admin',
      'user',
      'list',
      '--org',
      tenant.orgId,
    );
    expect(listed.items.find((u) => u.id === user.id)?.disabled_at).toBe(disabled.disabled_at);

    const enabled = await cli('admin', 'user', 'enable', '--email', user.email);
    expect(enabled).toEqual({
      code: 0,
      stdout: `enabled ${user.email}; the user can log in again\n`,
      stderr: '',
    });
    const again = await logIn(app, user);
    expect(again.status).toBe(200);
    expect((await byToken(again.body.access_token)).status).toBe(200);
    // What was revoked stays revoked.
    await expectError(await byToken(token), 401, 'INVALID_TOKEN');
    await expectError(await byKey(key), 401, 'INVALID_API_KEY');
    expect((await byBasic(user)).status).toBe(200);
  });

  it('refuses to disable or delete the last active admin of an organization, and says why', async () => {
    const lone = await factory.tenant(app, { plan: 'startup' });
    for (const action of ['disable', 'delete']) {
      const refused = await cli('admin', 'user', action, '--email', lone.admin.email);
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toBe(
        `scanward: error: cannot ${action} ${lone.admin.email}: the last active admin of the organization; ` +
          'make another user an admin first\n',
      );
    }
    expect((await logIn(app, lone.admin)).status).toBe(200);

    // With a second admin, one of the two may go; a disabled admin does not count as active.
    const second = await lone.addUser('admin');
    await json('admin', 'user', 'disable', '--email', second.email);
    expect((await cli('admin', 'user', 'disable', '--email', lone.admin.email)).code).toBe(1);
    await json('admin', 'user', 'enable', '--email', second.email);
    await json('admin', 'user', 'disable', '--email', lone.admin.email);
    expect((await cli('admin', 'user', 'delete', '--email', second.email)).code).toBe(1);
    // Members are never the last admin.
    const member = await lone.addUser('member');
    await json('admin', 'user', 'disable', '--email', member.email);
    await json('admin', 'user', 'delete', '--email', member.email);
  });

  it('lets only one of two concurrent disables of the last two admins through', async () => {
    const pair = await factory.tenant(app, { plan: 'startup' });
    const other = await pair.addUser('admin');
    const results = await Promise.allSettled(
      [pair.admin, other].map((u) => disableUser(app.services.db, { orgId: pair.orgId, userId: u.id })),
    );
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const active = await Promise.all(
      [pair.admin, other].map(async (u) => (await findUser(app.services.db, pair.orgId, u.id))!.disabled_at),
    );
    expect(active.filter((d) => d === null)).toHaveLength(1);
  });

  it('delete removes the user with their sessions and keys; their comments and history keep the e-mail', async () => {
    const leaver = await tenant.addUser('member');
    const { token, key } = await credentialsOf(leaver);
    const findingId = okBody(await tenant.api.call(listFindingsRoute)).items[0]!.id;
    const as: ApiClient = apiClient(app, { token });
    expect(
      (
        await as.call(addFindingCommentRoute, {
          params: { finding_id: findingId },
          body: { text: 'looked at it' },
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await as.call(updateFindingRoute, {
          params: { finding_id: findingId },
          body: { status: 'in_progress' },
        })
      ).status,
    ).toBe(200);

    const deleted = await json<Revocations & { deleted: boolean }>(
      'admin',
      'user',
      'delete',
      '--email',
      leaver.email,
    );
    expect(deleted).toEqual({
      id: leaver.id,
      email: leaver.email,
      deleted: true,
      revoked_sessions: 2,
      revoked_api_keys: 1,
    });
    await expectError(await byToken(token), 401, 'INVALID_TOKEN');
    await expectError(await byKey(key), 401, 'INVALID_API_KEY');
    await expectError(await logIn(app, leaver), 401, 'INVALID_CREDENTIALS');
    expect(await findUser(app.services.db, tenant.orgId, leaver.id)).toBeUndefined();

    const detail = await tenant.api.call(getFindingRoute, { params: { finding_id: findingId } });
    expect(detail.status).toBe(200);
    expect(detail.body.comments).toContainEqual(
      expect.objectContaining({ user: leaver.email, text: 'looked at it' }),
    );
    expect(detail.body.history).toContainEqual(
      expect.objectContaining({ user: leaver.email, to: 'in_progress' }),
    );

    const unknown = await cli('admin', 'user', 'delete', '--email', leaver.email);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe(`scanward: error: no user with the e-mail ${leaver.email}\n`);
    // The address is free again.
    const recreated = await cli(
      'admin',
      'user',
      'create',
      '--org',
      tenant.orgId,
      '--email',
      leaver.email,
      '--password',
      leaver.password,
    );
    expect(recreated.code).toBe(0);
    expect((await logIn(app, leaver)).status).toBe(200);
  });

  it('reset-password revokes the sessions and the API keys at once, or keeps the keys with --keep-api-keys', async () => {
    const user = await tenant.addUser('member');
    const first = await credentialsOf(user);
    const reset = await json<Revocations & { api_keys_kept: boolean }>(
      'admin',
      'user',
      'reset-password',
      '--email',
      user.email,
      '--password',
      'a-brand-new-password',
    );
    expect(reset).toMatchObject({ revoked_sessions: 2, revoked_api_keys: 1, api_keys_kept: false });
    await expectError(await byToken(first.token), 401, 'INVALID_TOKEN');
    await expectError(await byKey(first.key), 401, 'INVALID_API_KEY');
    await expectError(await logIn(app, user), 401, 'INVALID_CREDENTIALS');
    const renewed = { ...user, password: 'a-brand-new-password' };
    expect((await logIn(app, renewed)).status).toBe(200);

    const second = await credentialsOf(renewed);
    const kept = await cli(
      'admin',
      'user',
      'reset-password',
      '--email',
      user.email,
      '--password',
      'yet-another-password',
      '--keep-api-keys',
    );
    expect(kept.code).toBe(0);
    expect(kept.stdout).toMatch(/^password of .+ reset; revoked 3 sessions and kept the API keys\n$/);
    await expectError(await byToken(second.token), 401, 'INVALID_TOKEN');
    expect((await byKey(second.key)).status).toBe(200);
  });

  it('reset-mfa turns MFA off and deletes the recovery codes, so the password alone logs in', async () => {
    const user = await tenant.addUser('member');
    const { totp, step, verified } = await enrollMfa(apiClient(app, { token: await tenant.bearer(user) }));
    const codes = verified.recovery_codes as string[];
    await expectError(await logIn(app, user), 401, 'MFA_REQUIRED');

    const reset = await json<{ mfa_reset: boolean; mfa_was_enabled: boolean }>(
      'admin',
      'user',
      'reset-mfa',
      '--email',
      user.email,
    );
    expect(reset).toEqual({ id: user.id, email: user.email, mfa_reset: true, mfa_was_enabled: true });
    const plain = await logIn(app, user);
    expect(plain.status).toBe(200);
    const api = apiClient(app, { token: plain.body.access_token });
    expect((await api.call(getMfa)).body).toEqual({
      mfa_enabled: false,
      recovery_codes_remaining: 0,
    });
    // The old recovery codes are gone, not merely unusable while MFA is off.
    const hash = createHash('sha256').update(codes[0]!.replaceAll('-', '')).digest('hex');
    expect(await spendRecoveryCode(app.services.db, tenant.orgId, user.id, hash, new Date())).toBe(false);
    const again = await cli('admin', 'user', 'reset-mfa', '--email', user.email);
    expect(again.stdout).toBe(`${user.email} had no MFA; nothing to reset\n`);
    // MFA can be set up again; the old authenticator's codes mean nothing any more.
    await expectError(await api.call(deleteMfa, { body: { code: totpCodeAt(totp, step) } }), 409, 'CONFLICT');
    expect((await api.call(setupMfa)).status).toBe(200);
  });

  it('refuses an unknown e-mail on every command, and a malformed one before opening the database', async () => {
    for (const action of ['disable', 'enable', 'delete', 'reset-mfa']) {
      const result = await cli('admin', 'user', action, '--email', 'nobody@nowhere.example');
      expect(result.code, action).toBe(1);
      expect(result.stderr).toBe('scanward: error: no user with the e-mail nobody@nowhere.example\n');
    }
    const missing = await cli('admin', 'user', 'disable');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("required option '--email <email>' not specified");
    const broken = await runCliCaptured(['admin', 'user', 'delete', '--email', 'not-an-address'], {
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/unreachable',
    });
    expect(broken).toEqual({
      code: 2,
      stdout: '',
      stderr: 'scanward: error: "not-an-address" is not an e-mail address\n',
    });
  });
});
