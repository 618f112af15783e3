import { describe, expect, it } from 'vitest';
import { listAuditEventsRoute } from '../../../server/routes/audit-events.ts';
import { acceptInvitation } from '../../../server/routes/auth.ts';
import {
  deleteUserRoute,
  getUserRoute,
  inviteUserRoute,
  listUsersRoute,
  updateUserRoute,
} from '../../../server/routes/users.ts';
import { apiClient, expectError, okBody, type ApiClient } from '../../helpers/api-client.ts';
import { testEngine } from '../../helpers/database.ts';
import { factory, logIn } from '../../helpers/factory.ts';
import { useTestApp } from '../../helpers/suite-app.ts';

/**
 * Invitations tell one organization nothing about another's people (issue 31, item 6): an
 * address that has an account elsewhere is answered exactly as a new address, and only the
 * person who opens the link learns the address is taken.
 */

const tokenOf = (inviteUrl: string) => decodeURIComponent(new URL(inviteUrl).hash.replace(/^#token=/, ''));

/** An invitation's answer with what differs between any two invitations (ids, token, times) blanked. */
function shapeOf(res: { status: number; headers: Headers; body: unknown }) {
  const body = res.body as {
    user: Record<string, unknown>;
    invite_url: string;
    invite_expires_at: string;
  };
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    keys: Object.keys(body),
    user: {
      ...body.user,
      id: String(body.user.id).replace(/^(user_)[a-z0-9]{24}$/, '$1…'),
      email: '…',
      created_at: Number.isNaN(Date.parse(String(body.user.created_at))) ? 'bad' : 'a time',
    },
    invite_url: body.invite_url.replace(/#token=inv_[A-Za-z0-9_-]{43}$/, '#token=…'),
    invite_expires_at: Number.isNaN(Date.parse(body.invite_expires_at)) ? 'bad' : 'a time',
  };
}

/** A person as the People API answers them, with what differs between any two people (id, e-mail, time) blanked. */
function personShape(person: Record<string, unknown>) {
  return {
    ...person,
    id: String(person.id).replace(/^(user_)[a-z0-9]{24}$/, '$1…'),
    email: '…',
    created_at: Number.isNaN(Date.parse(String(person.created_at))) ? 'bad' : 'a time',
    disabled_at: person.disabled_at === null ? null : 'a time',
  };
}

/** An answer of the People API: status, content type and body, ids, e-mails and times blanked. */
function answerShape(res: { status: number; headers: Headers; body: unknown }) {
  const body = res.body as Record<string, unknown>;
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    body:
      'email' in body ? personShape(body) : { ...body, id: String(body.id).replace(/^(user_).*$/, '$1…') },
  };
}

/** The audit trail of one person: actions and details, newest first. */
async function auditOf(api: ApiClient, userId: string) {
  const events = okBody(await api.call(listAuditEventsRoute, { query: { target: userId } })).items;
  return events.map((event) => ({ action: event.action, details: event.details }));
}

describe(`invitations of addresses with an account elsewhere (${testEngine})`, () => {
  const suite = useTestApp({ env: { SCANWARD_PUBLIC_URL: 'https://scanward.example.test' } });

  it('answers an address of another organization exactly as a new one, and tells only the person opening the link', async () => {
    const { app } = suite;
    const a = await factory.tenant(app);
    const b = await factory.tenant(app);
    const elsewhere = await b.addUser('member');

    const fresh = await a.api.call(inviteUserRoute, {
      body: { email: `new.person@${a.orgId}.example.test`, role: 'viewer' },
    });
    // Another case of the address, as an attacker might try: the same answer still.
    const taken = await a.api.call(inviteUserRoute, {
      body: { email: elsewhere.email.toUpperCase(), role: 'viewer' },
    });
    expect(fresh.status).toBe(201);
    expect(shapeOf(taken)).toEqual(shapeOf(fresh));
    expect(taken.body.user.email).toBe(elsewhere.email.toUpperCase());

    // Inviting either again is this organization's own business: 409 alike.
    await expectError(
      await a.api.call(inviteUserRoute, { body: { email: `new.person@${a.orgId}.example.test` } }),
      409,
      'CONFLICT',
    );
    await expectError(
      await a.api.call(inviteUserRoute, { body: { email: elsewhere.email } }),
      409,
      'CONFLICT',
    );

    // The person opening the link learns the address is taken; their account is untouched.
    const anonymous = apiClient(app);
    const opened = await expectError(
      await anonymous.call(acceptInvitation, {
        body: { token: tokenOf(taken.body.invite_url), password: 'a-new-password-123' },
      }),
      409,
      'CONFLICT',
    );
    expect(opened.detail).toMatch(/another organization/);
    expect((await logIn(app, elsewhere)).status).toBe(200);
    expect((await logIn(app, { email: elsewhere.email, password: 'a-new-password-123' })).status).toBe(401);

    // The new address's link works as always.
    okBody(
      await anonymous.call(acceptInvitation, {
        body: { token: tokenOf(fresh.body.invite_url), password: 'a-new-password-123' },
      }),
    );
  });

  it("lists, looks up, changes, disables and deletes such an invitation exactly as a new address's", async () => {
    const { app } = suite;
    const a = await factory.tenant(app);
    const b = await factory.tenant(app);
    const elsewhere = await b.addUser('member');
    const before = okBody(await a.api.call(listUsersRoute, { query: { per_page: 100 } })).total;

    const freshInvite = okBody(
      await a.api.call(inviteUserRoute, {
        body: { email: `new.person@${a.orgId}.example.test`, role: 'viewer' },
      }),
      201,
    );
    const takenInvite = okBody(
      await a.api.call(inviteUserRoute, { body: { email: elsewhere.email, role: 'viewer' } }),
      201,
    );
    const [fresh, taken] = [freshInvite.user, takenInvite.user];
    const both = [fresh.id, taken.id];

    // Listed and counted alike, oldest first, with pagination over both.
    const list = okBody(await a.api.call(listUsersRoute, { query: { per_page: 100 } }));
    expect(list.total).toBe(before + 2);
    expect(list.items.map((person) => person.id).slice(-2)).toEqual(both);
    const listed = (id: string) => list.items.find((person) => person.id === id)!;
    expect(personShape(listed(taken.id))).toEqual(personShape(listed(fresh.id)));
    expect(listed(taken.id)).toMatchObject({ email: elsewhere.email, role: 'viewer', invite_pending: true });
    const pages = await Promise.all(
      [before + 1, before + 2].map(async (page) =>
        okBody(await a.api.call(listUsersRoute, { query: { page, per_page: 1 } })),
      ),
    );
    expect(pages.map((p) => p.items.map((person) => person.id))).toEqual([[fresh.id], [taken.id]]);
    expect(pages.map((p) => p.total)).toEqual([before + 2, before + 2]);

    // Looked up alike; another organization sees neither.
    const got = await Promise.all(both.map((id) => a.api.call(getUserRoute, { params: { user_id: id } })));
    expect(answerShape(got[1]!)).toEqual(answerShape(got[0]!));
    expect(got[1]!.body).toEqual(listed(taken.id));
    for (const id of both)
      await expectError(await b.api.call(getUserRoute, { params: { user_id: id } }), 404, 'NOT_FOUND');

    // A role change, a disable and an enable answer alike and take effect.
    for (const body of [
      { role: 'member' as const },
      { disabled: true },
      { disabled: false },
      { role: 'admin' as const },
    ]) {
      const changed = await Promise.all(
        both.map((id) => a.api.call(updateUserRoute, { params: { user_id: id }, body })),
      );
      expect(answerShape(changed[1]!)).toEqual(answerShape(changed[0]!));
      expect(changed[1]!.body).toMatchObject(body);
      expect(okBody(await a.api.call(getUserRoute, { params: { user_id: taken.id } }))).toEqual(
        changed[1]!.body,
      );
      if (body.disabled === true) {
        // While disabled, either link is refused alike.
        const refused = await Promise.all(
          [freshInvite, takenInvite].map(async (invite) =>
            expectError(
              await apiClient(app).call(acceptInvitation, {
                body: { token: tokenOf(invite.invite_url), password: 'a-new-password-123' },
              }),
              422,
              'VALIDATION_ERROR',
              'token',
            ),
          ),
        );
        expect(refused[1]).toEqual(refused[0]);
      }
    }

    // Each step audited alike.
    expect(await auditOf(a.api, taken.id)).toEqual(await auditOf(a.api, fresh.id));

    // Deleted alike: gone from the list and the look-up, and the address can be invited again.
    const deleted = await Promise.all(
      both.map((id) => a.api.call(deleteUserRoute, { params: { user_id: id } })),
    );
    expect(answerShape(deleted[1]!)).toEqual(answerShape(deleted[0]!));
    expect(deleted[1]!.body).toEqual({ id: taken.id, deleted: true });
    for (const id of both)
      await expectError(await a.api.call(getUserRoute, { params: { user_id: id } }), 404, 'NOT_FOUND');
    expect(okBody(await a.api.call(listUsersRoute, { query: { per_page: 100 } })).total).toBe(before);
    expect(
      (await a.api.call(inviteUserRoute, { body: { email: elsewhere.email, role: 'viewer' } })).status,
    ).toBe(201);
  });

  it("counts an invited admin of an address elsewhere toward the last-admin rule, as a new address's", async () => {
    const { app } = suite;
    const elsewhere = await (await factory.tenant(app)).addUser('member');
    const stepDown = async (email: string) => {
      const t = await factory.tenant(app);
      okBody(await t.api.call(inviteUserRoute, { body: { email, role: 'admin' } }), 201);
      return (
        await t.api.call(updateUserRoute, { params: { user_id: t.admin.id }, body: { role: 'member' } })
      ).status;
    };
    // Alone, the admin may not step down; with an invited admin, they may, whichever the address.
    const alone = await factory.tenant(app);
    await expectError(
      await alone.api.call(updateUserRoute, {
        params: { user_id: alone.admin.id },
        body: { role: 'member' },
      }),
      409,
      'CONFLICT',
    );
    expect([await stepDown('new.admin@example.test'), await stepDown(elsewhere.email)]).toEqual([200, 200]);
  });

  it('answers two concurrent invitations of one address 201 and 409, whether it is new or has an account elsewhere', async () => {
    const { app } = suite;
    const a = await factory.tenant(app);
    const elsewhere = await (await factory.tenant(app)).addUser('member');
    for (const email of [`twice@${a.orgId}.example.test`, elsewhere.email]) {
      const answers = await Promise.all(
        [1, 2].map(
          async () => (await a.api.call(inviteUserRoute, { body: { email, role: 'member' } })).status,
        ),
      );
      expect(answers.sort()).toEqual([201, 409]);
    }
    const listed = okBody(await a.api.call(listUsersRoute, { query: { per_page: 100 } })).items;
    expect(listed.filter((person) => person.email === elsewhere.email)).toHaveLength(1);
  });
});
