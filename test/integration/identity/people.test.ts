import { describe, expect, it } from 'vitest';
import { postApiKey } from '../../../server/routes/api-keys.ts';
import { acceptInvitation, changePassword, listMySessions } from '../../../server/routes/auth.ts';
import {
  addFindingCommentRoute,
  getFindingRoute,
  listFindingsRoute,
  updateFindingRoute,
} from '../../../server/routes/findings.ts';
import { listAuditEventsRoute } from '../../../server/routes/audit-events.ts';
import {
  deleteUserRoute,
  getUserRoute,
  inviteUserRoute,
  listUsersRoute,
  updateUserRoute,
} from '../../../server/routes/users.ts';
import { apiClient, expectError, okBody, type ApiClient, type RouteInput } from '../../helpers/api-client.ts';
import { testEngine } from '../../helpers/database.ts';
import { detection, factory, logIn } from '../../helpers/factory.ts';
import { useTestApp } from '../../helpers/suite-app.ts';

/**
 * The People API and the self-service password through HTTP (issue 22): an admin
 * invites with a role, the person sets a password with the one-time link and logs
 * in, a role change takes effect on the next request, disabling cuts off their
 * session and API key at once, deleting keeps their e-mail on what they wrote,
 * the last active admin is protected, and every step lands in the audit trail.
 */

const PUBLIC_URL = 'https://scanward.example.test/base';
const tokenOf = (inviteUrl: string) => decodeURIComponent(new URL(inviteUrl).hash.replace(/^#token=/, ''));

describe(`people of an organization (${testEngine})`, () => {
  const suite = useTestApp({ env: { SCANWARD_PUBLIC_URL: PUBLIC_URL } });

  const events = async (api: ApiClient, query: RouteInput<typeof listAuditEventsRoute>['query'] = {}) =>
    okBody(await api.call(listAuditEventsRoute, { query })).items;

  it('runs a person from invitation to deletion, each step taking effect at once and audited', async () => {
    const { app } = suite;
    const t = await factory.tenant(app, {
      plan: 'enterprise',
      findings: [detection({ severity: 'high', target: 'people.example.test' })],
    });
    const findingId = t.summary!.new_finding_ids[0]!;
    const email = `new.person@${t.orgId}.example.test`;

    // Invite as a viewer: a one-time link under SCANWARD_PUBLIC_URL that expires.
    const invited = okBody(await t.api.call(inviteUserRoute, { body: { email, role: 'viewer' } }), 201);
    expect(invited.user).toMatchObject({ email, role: 'viewer', disabled: false, invite_pending: true });
    expect(invited.invite_url.startsWith(`${PUBLIC_URL}/set-password#token=`)).toBe(true);
    const expires = Date.parse(invited.invite_expires_at) - Date.now();
    expect(expires).toBeGreaterThan(71 * 3600_000);
    expect(expires).toBeLessThanOrEqual(72 * 3600_000);
    await expectError(
      await t.api.call(inviteUserRoute, { body: { email: email.toUpperCase() } }),
      409,
      'CONFLICT',
    );

    // Nobody can log in before the password is set; the link works once.
    const password = 'a-new-password-of-mine';
    await expectError(await logIn(app, { email, password }), 401, 'INVALID_CREDENTIALS');
    const token = tokenOf(invited.invite_url);
    const anonymous = apiClient(app);
    await expectError(
      await anonymous.call(acceptInvitation, { body: { token, password: 'short' } }),
      422,
      'VALIDATION_ERROR',
      'password',
    );
    okBody(await anonymous.call(acceptInvitation, { body: { token, password } }));
    await expectError(
      await anonymous.call(acceptInvitation, { body: { token, password: 'another-password-1' } }),
      422,
      'VALIDATION_ERROR',
      'token',
    );
    const me = apiClient(app, { token: okBody(await logIn(app, { email, password })).access_token });
    const person = invited.user;
    expect(okBody(await t.api.call(getUserRoute, { params: { user_id: person.id } })).invite_pending).toBe(
      false,
    );

    // A viewer reads and changes nothing.
    okBody(await me.call(getFindingRoute, { params: { finding_id: findingId } }));
    await expectError(
      await me.call(addFindingCommentRoute, { params: { finding_id: findingId }, body: { text: 'hello' } }),
      403,
      'INSUFFICIENT_PERMISSION',
    );

    // Made a member: the same session may comment on its next request, and make a key.
    okBody(await t.api.call(updateUserRoute, { params: { user_id: person.id }, body: { role: 'member' } }));
    okBody(
      await me.call(addFindingCommentRoute, {
        params: { finding_id: findingId },
        body: { text: 'written by the new person' },
      }),
    );
    const key = okBody(
      await me.call(postApiKey, { body: { name: 'mine', permissions: ['read:findings', 'write:findings'] } }),
      201,
    );
    const keyApi = apiClient(app, { apiKey: key.key });
    okBody(
      await keyApi.call(updateFindingRoute, { params: { finding_id: findingId }, body: { notes: 'by key' } }),
    );

    // Made a viewer again: the key's write permission stops at once, its read permission works.
    okBody(await t.api.call(updateUserRoute, { params: { user_id: person.id }, body: { role: 'viewer' } }));
    await expectError(
      await keyApi.call(updateFindingRoute, {
        params: { finding_id: findingId },
        body: { notes: 'by key again' },
      }),
      403,
      'INSUFFICIENT_PERMISSION',
    );
    okBody(await keyApi.call(getFindingRoute, { params: { finding_id: findingId } }));

    // Disabled: the open session and the key stop working at once, and no log-in.
    const disabled = okBody(
      await t.api.call(updateUserRoute, { params: { user_id: person.id }, body: { disabled: true } }),
    );
    expect(disabled.disabled).toBe(true);
    await expectError(await me.call(listFindingsRoute), 401, 'INVALID_TOKEN');
    await expectError(await keyApi.call(listFindingsRoute), 401, 'INVALID_API_KEY');
    await expectError(await logIn(app, { email, password }), 401, 'INVALID_CREDENTIALS');

    // Enabled: they may log in again.
    okBody(await t.api.call(updateUserRoute, { params: { user_id: person.id }, body: { disabled: false } }));
    okBody(await logIn(app, { email, password }));

    // Deleted: gone, and their comment keeps their e-mail.
    okBody(await t.api.call(deleteUserRoute, { params: { user_id: person.id } }));
    await expectError(await t.api.call(getUserRoute, { params: { user_id: person.id } }), 404, 'NOT_FOUND');
    await expectError(await logIn(app, { email, password }), 401, 'INVALID_CREDENTIALS');
    const finding = okBody(await t.api.call(getFindingRoute, { params: { finding_id: findingId } }));
    expect(finding.comments).toContainEqual(expect.objectContaining({ user: email }));

    // Every step, in the audit trail, newest first (a log-in of a deleted e-mail names nobody: not kept).
    const trail = await events(t.api);
    const about = trail.filter((e) => e.target?.email === email).map((e) => e.action);
    expect(about.reverse()).toEqual([
      'user.invited',
      'auth.login_failed',
      'user.invite_accepted',
      'auth.login',
      'user.role_changed',
      'user.role_changed',
      'user.disabled',
      'auth.login_failed',
      'user.enabled',
      'auth.login',
      'user.deleted',
    ]);
    const invitedEvent = trail.find((e) => e.action === 'user.invited')!;
    expect(invitedEvent.actor).toEqual({ id: t.admin.id, email: t.admin.email });
    expect(invitedEvent.target).toEqual({ id: person.id, email });
    expect(invitedEvent.details).toEqual({ role: 'viewer' });
    const demoted = trail.filter((e) => e.action === 'user.role_changed').map((e) => e.details);
    expect(demoted).toEqual([
      { from: 'member', to: 'viewer' },
      { from: 'viewer', to: 'member' },
    ]);
    const disabledEvent = trail.find((e) => e.action === 'user.disabled')!;
    expect(disabledEvent.details).toEqual({ sessions_revoked: '1', api_keys_revoked: '1' });
  });

  it('never lets the organization lose its last active admin', async () => {
    const t = await factory.tenant(suite.app);
    const self = t.admin.id;
    await expectError(
      await t.api.call(updateUserRoute, { params: { user_id: self }, body: { role: 'member' } }),
      409,
      'CONFLICT',
    );
    await expectError(
      await t.api.call(updateUserRoute, { params: { user_id: self }, body: { disabled: true } }),
      409,
      'CONFLICT',
    );
    await expectError(await t.api.call(deleteUserRoute, { params: { user_id: self } }), 409, 'CONFLICT');

    // With a second admin, the first may step down; then the second is the last.
    const second = await t.addUser('admin');
    expect(
      okBody(await t.api.call(updateUserRoute, { params: { user_id: self }, body: { role: 'member' } })).role,
    ).toBe('member');
    const secondApi = await t.client(second);
    await expectError(
      await secondApi.call(deleteUserRoute, { params: { user_id: second.id } }),
      409,
      'CONFLICT',
    );
    // The demoted admin's own session lost the admin role on its next request.
    await expectError(await t.api.call(listUsersRoute), 403, 'INSUFFICIENT_PERMISSION');
  });

  it('answers 422 for a body that changes nothing or names an unknown role', async () => {
    const t = await factory.tenant(suite.app);
    const other = await t.addUser('member');
    await expectError(
      await t.api.call(updateUserRoute, { params: { user_id: other.id }, body: {} }),
      422,
      'VALIDATION_ERROR',
    );
    await expectError(
      await t.api.call(updateUserRoute, { params: { user_id: other.id }, body: { role: 'owner' } as never }),
      422,
      'VALIDATION_ERROR',
      'role',
    );
    await expectError(
      await t.api.call(inviteUserRoute, { body: { email: 'not an address', role: 'member' } }),
      422,
      'VALIDATION_ERROR',
      'email',
    );
  });

  it("changes one's own password, revoking the other sessions and keeping this one", async () => {
    const { app } = suite;
    const t = await factory.tenant(app);
    const viewer = await t.addUser('viewer');
    const current = apiClient(app, { token: await t.login(viewer) });
    const other = apiClient(app, { token: await t.login(viewer) });
    await expectError(
      await current.call(changePassword, {
        body: {
          current_password: 'wrong-password',
          new_password: 'the-new-password',
        },
      }),
      422,
      'VALIDATION_ERROR',
      'current_password',
    );
    const changed = okBody(
      await current.call(changePassword, {
        body: { current_password: viewer.password, new_password: 'the-new-password' },
      }),
    );
    expect(changed.sessions_revoked).toBe(1);
    okBody(await current.call(listMySessions));
    await expectError(await other.call(listMySessions), 401, 'INVALID_TOKEN');
    await expectError(await logIn(app, viewer), 401, 'INVALID_CREDENTIALS');
    okBody(await logIn(app, { email: viewer.email, password: 'the-new-password' }));

    const trail = await events(t.api, { actor: viewer.email });
    expect(trail.map((e) => e.action)).toEqual([
      'auth.login',
      'user.password_changed',
      'auth.login',
      'auth.login',
    ]);
    // The log-in with the old password failed; a wrong current password is the 422 above, not a log-in.
    const failed = await events(t.api, { action: 'auth.login_failed' });
    expect(failed).toHaveLength(1);
    expect(failed.every((e) => e.target?.email === viewer.email && e.actor === null)).toBe(true);
  });

  it('filters the audit trail by actor, action and date, and keeps it to the organization', async () => {
    const { app } = suite;
    const t = await factory.tenant(app);
    const other = await factory.tenant(app);
    okBody(
      await t.api.call(inviteUserRoute, { body: { email: `a@${t.orgId}.example.test`, role: 'member' } }),
      201,
    );
    okBody(await other.api.call(inviteUserRoute, { body: { email: `b@${other.orgId}.example.test` } }), 201);

    const all = await events(t.api);
    expect(all.map((e) => e.action)).toEqual(['user.invited']);
    expect(await events(t.api, { actor: t.admin.id })).toHaveLength(1);
    expect(await events(t.api, { actor: t.admin.email.toUpperCase() })).toHaveLength(1);
    expect(await events(t.api, { actor: other.admin.id })).toHaveLength(0);
    expect(await events(t.api, { action: 'user.deleted' })).toHaveLength(0);
    const today = new Date().toISOString().slice(0, 10);
    expect(await events(t.api, { from: today })).toHaveLength(1);
    expect(await events(t.api, { to: today })).toHaveLength(0);
    await expectError(
      await t.api.call(listAuditEventsRoute, { query: { action: 'nope' } }),
      422,
      'VALIDATION_ERROR',
      'action',
    );
    await expectError(
      await t.api.call(listAuditEventsRoute, { query: { from: 'yesterday' } }),
      422,
      'VALIDATION_ERROR',
      'from',
    );
  });
});
