import { describe, expect, it } from 'vitest';
import { acceptInvitation } from '../../../server/routes/auth.ts';
import { inviteUserRoute } from '../../../server/routes/users.ts';
import { apiClient, expectError, okBody } from '../../helpers/api-client.ts';
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
      await a.api.post('/api/v1/users', { email: `new.person@${a.orgId}.example.test` }),
      409,
      'CONFLICT',
    );
    await expectError(await a.api.post('/api/v1/users', { email: elsewhere.email }), 409, 'CONFLICT');

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
});
