import { randomBytes } from 'node:crypto';
import { issueToken } from '../../server/auth/tokens.ts';
import { newId } from '../../server/identity/ids.ts';
import { createOrganization } from '../../server/identity/organizations.ts';
import { createUser } from '../../server/identity/users.ts';
import type { Plan } from '../../server/schemas/common.ts';
import type { TestApp } from './app.ts';

export interface TestUser {
  id: string;
  email: string;
  password: string;
  role: 'admin' | 'member';
}

export interface Tenant {
  orgId: string;
  plan: Plan;
  admin: TestUser;
  /** Logs a user in over HTTP and returns the access token. */
  login(user?: TestUser): Promise<string>;
  /**
   * A bearer token for a new session of the user, minted directly (no password
   * check), for tests that are not about logging in.
   */
  bearer(user?: TestUser): Promise<string>;
  /** Adds a user to the tenant's organization. */
  addUser(role: 'admin' | 'member'): Promise<TestUser>;
}

/** A fresh organization with an admin of its own, so tests never share rows. */
export async function createTenant(app: TestApp, plan: Plan = 'professional'): Promise<Tenant> {
  const tag = randomBytes(5).toString('hex');
  const org = await createOrganization(app.services.db, { name: `Org ${tag}`, plan });
  const addUser = async (role: 'admin' | 'member'): Promise<TestUser> => {
    const email = `${role}-${randomBytes(5).toString('hex')}@${tag}.example.test`;
    const password = `pw-${randomBytes(12).toString('hex')}`;
    const user = await createUser(app.services.db, { orgId: org.id, email, password, role });
    return { id: user.id, email, password, role };
  };
  const admin = await addUser('admin');
  const login = async (user: TestUser = admin) => {
    const res = await app.request('/api/v1/auth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: user.email, password: user.password }),
    });
    if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { access_token: string }).access_token;
  };
  const bearer = async (user: TestUser = admin) => {
    const sid = newId('sess');
    await app.services.db('sessions').insert({
      id: sid,
      org_id: org.id,
      user_id: user.id,
      expires_at: new Date(Date.now() + 86_400_000),
    });
    return (await issueToken(app.services.keys.jwtSecret, { sub: user.id, org: org.id, sid })).access_token;
  };
  return { orgId: org.id, plan, admin, login, bearer, addUser };
}
