import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPlan } from '../../../server/identity/organizations.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createTenant, type Tenant } from '../../helpers/factory.ts';
import { testEngine } from '../../helpers/database.ts';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const RECORD_KEYS = ['created_at', 'expires_at', 'id', 'last_used_at', 'name', 'permissions', 'prefix'];

async function expectError(res: Response, status: number, code: string): Promise<Record<string, unknown>> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await res.json()) as Record<string, unknown>;
  expect(body.error_code).toBe(code);
  expect(typeof body.detail).toBe('string');
  expect(Object.keys(body).every((k) => ['detail', 'error_code', 'field'].includes(k))).toBe(true);
  return body;
}

interface ApiKeyRecord {
  id: string;
  name: string;
  prefix: string;
  permissions: string[];
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  key?: string;
}

describe(`API keys (${testEngine})`, () => {
  let app: TestApp;
  let tenant: Tenant;
  let adminToken: string;

  const call = (token: string, method: string, path: string, body?: unknown) =>
    app.request(path, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const create = async (token: string, body: Record<string, unknown>) => {
    const res = await call(token, 'POST', '/api/v1/api-keys', body);
    expect(res.status).toBe(201);
    return (await res.json()) as ApiKeyRecord & { key: string };
  };
  const list = async (token: string, query = '') => {
    const res = await call(token, 'GET', `/api/v1/api-keys${query}`);
    expect(res.status).toBe(200);
    return (await res.json()) as {
      items: ApiKeyRecord[];
      total: number;
      page: number;
      per_page: number;
      pages: number;
    };
  };
  /**
   * A request with the key on a bearer-only route: 403 means the key was recognised
   * (then refused for the route), 401 that it was not.
   */
  const useKey = (key: string) => app.request('/api/v1/auth/sessions', { headers: { 'x-api-key': key } });

  beforeAll(async () => {
    app = await startTestApp();
    tenant = await createTenant(app, 'professional');
    adminToken = await tenant.login();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('creates a key shown once: sw_ + 43 base64url characters, stored only as its SHA-256', async () => {
    const expiresAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const created = await create(adminToken, {
      name: '  CI pipeline  ',
      permissions: ['write:scans', 'read:scans'],
      expires_at: expiresAt,
    });
    expect(Object.keys(created).sort()).toEqual([...RECORD_KEYS, 'key'].sort());
    expect(created.key).toMatch(/^sw_[A-Za-z0-9_-]{43}$/);
    expect(created.id).toMatch(/^key_[0-9a-z]{24}$/);
    expect(created.name).toBe('CI pipeline');
    expect(created.prefix).toBe(created.key.slice(0, 10));
    expect(created.permissions).toEqual(['read:scans', 'write:scans']);
    expect(created.created_at).toMatch(ISO_MS);
    expect(created.expires_at).toBe(expiresAt);
    expect(created.last_used_at).toBeNull();

    const row = (await app.services.db('api_keys').where({ id: created.id }).first())!;
    expect(row.key_hash).toBe(createHash('sha256').update(created.key).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(created.key);

    const listed = await list(adminToken);
    const record = listed.items.find((k) => k.id === created.id)!;
    expect(Object.keys(record).sort()).toEqual(RECORD_KEYS.sort());
    const { key: _secret, ...withoutSecret } = created;
    expect(record).toEqual(withoutSecret);
    expect(JSON.stringify(listed)).not.toContain(created.key.slice(10));
  });

  it('authenticates with X-API-Key as its creator, records last use, and keeps it out of bearer-only routes', async () => {
    const created = await create(adminToken, { name: 'usage', permissions: ['read:findings'] });
    // A bearer-only route answers 403 (not 401): the key was recognised, then refused for the route.
    await expectError(await useKey(created.key), 403, 'INSUFFICIENT_PERMISSION');
    const listed = await list(adminToken);
    expect(listed.items.find((k) => k.id === created.id)!.last_used_at).toMatch(ISO_MS);
    const basic = `Basic ${Buffer.from(`anyone:${created.key}`).toString('base64')}`;
    expect((await app.request('/docs', { headers: { authorization: basic } })).status).toBe(200);
    expect((await app.request('/docs', { headers: { 'x-api-key': created.key } })).status).toBe(200);
    const refresh = await app.request('/api/v1/auth/refresh', {
      method: 'POST',
      headers: { 'x-api-key': created.key },
    });
    await expectError(refresh, 403, 'INSUFFICIENT_PERMISSION');
  });

  it('revokes a key: it stops working at once, leaves the list, and cannot be revoked twice', async () => {
    const created = await create(adminToken, { name: 'short-lived', permissions: ['read:grc'] });
    const revoke = await call(adminToken, 'DELETE', `/api/v1/api-keys/${created.id}`);
    expect(revoke.status).toBe(200);
    expect(await revoke.json()).toEqual({ id: created.id, revoked: true });
    await expectError(await useKey(created.key), 401, 'INVALID_API_KEY');
    expect((await list(adminToken)).items.map((k) => k.id)).not.toContain(created.id);
    await expectError(await call(adminToken, 'DELETE', `/api/v1/api-keys/${created.id}`), 404, 'NOT_FOUND');
  });

  it('refuses an expired key, and unknown or malformed keys', async () => {
    const created = await create(adminToken, {
      name: 'expiring',
      permissions: ['read:scans'],
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    await expectError(await useKey(created.key), 403, 'INSUFFICIENT_PERMISSION');
    await app.services
      .db('api_keys')
      .where({ id: created.id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    await expectError(await useKey(created.key), 401, 'INVALID_API_KEY');
    // Still listed, so an admin sees it expired.
    expect((await list(adminToken)).items.find((k) => k.id === created.id)).toBeDefined();
    for (const bogus of [`${created.key.slice(0, -1)}A`, 'sw_nope', 'not-a-key', created.prefix]) {
      await expectError(await useKey(bogus), 401, 'INVALID_API_KEY');
    }
  });

  it('validates name, permissions and expires_at, naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ permissions: ['read:scans'] }, 'name'],
      [{ name: '   ', permissions: ['read:scans'] }, 'name'],
      [{ name: 'x'.repeat(101), permissions: ['read:scans'] }, 'name'],
      [{ name: 'k' }, 'permissions'],
      [{ name: 'k', permissions: [] }, 'permissions'],
      [{ name: 'k', permissions: ['read:scans', 'read:scans'] }, 'permissions'],
      [{ name: 'k', permissions: ['admin:everything'] }, 'permissions'],
      [{ name: 'k', permissions: ['read:scans'], expires_at: 'tomorrow' }, 'expires_at'],
      [
        { name: 'k', permissions: ['read:scans'], expires_at: new Date(Date.now() - 60_000).toISOString() },
        'expires_at',
      ],
    ];
    for (const [body, field] of cases) {
      const res = await call(adminToken, 'POST', '/api/v1/api-keys', body);
      expect((await expectError(res, 422, 'VALIDATION_ERROR')).field).toBe(field);
    }
    const noExpiry = await create(adminToken, {
      name: 'forever',
      permissions: ['read:scans'],
      expires_at: null,
    });
    expect(noExpiry.expires_at).toBeNull();
  });

  it('pages the list newest first with the full envelope', async () => {
    const own = await createTenant(app, 'enterprise');
    const token = await own.login();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await create(token, { name: `k${i}`, permissions: ['read:scans'] })).id);
    const first = await list(token, '?per_page=2');
    expect(first).toMatchObject({ total: 3, page: 1, per_page: 2, pages: 2 });
    const second = await list(token, '?per_page=2&page=2');
    expect([...first.items, ...second.items].map((k) => k.id)).toEqual([...ids].reverse());
    expect((await list(token, '?page=3&per_page=2')).items).toEqual([]);
  });

  it('lets only admins manage keys; members get INSUFFICIENT_PERMISSION', async () => {
    const member = await tenant.addUser('member');
    const memberToken = await tenant.login(member);
    const existing = await create(adminToken, { name: 'admin-made', permissions: ['read:scans'] });
    await expectError(
      await call(memberToken, 'POST', '/api/v1/api-keys', { name: 'mine', permissions: ['read:scans'] }),
      403,
      'INSUFFICIENT_PERMISSION',
    );
    await expectError(await call(memberToken, 'GET', '/api/v1/api-keys'), 403, 'INSUFFICIENT_PERMISSION');
    await expectError(
      await call(memberToken, 'DELETE', `/api/v1/api-keys/${existing.id}`),
      403,
      'INSUFFICIENT_PERMISSION',
    );
    // Another admin of the organization manages the same keys.
    const otherAdmin = await tenant.addUser('admin');
    const otherAdminToken = await tenant.login(otherAdmin);
    expect((await list(otherAdminToken)).items.map((k) => k.id)).toContain(existing.id);
    expect((await call(otherAdminToken, 'DELETE', `/api/v1/api-keys/${existing.id}`)).status).toBe(200);
  });

  it("never shows or revokes another organization's keys: 404 like a missing one", async () => {
    const stranger = await createTenant(app, 'professional');
    const strangerToken = await stranger.login();
    const theirs = await create(strangerToken, { name: 'theirs', permissions: ['read:scans'] });
    expect((await list(adminToken)).items.map((k) => k.id)).not.toContain(theirs.id);
    await expectError(await call(adminToken, 'DELETE', `/api/v1/api-keys/${theirs.id}`), 404, 'NOT_FOUND');
    await expectError(await call(adminToken, 'DELETE', '/api/v1/api-keys/key_missing'), 404, 'NOT_FOUND');
    // Still alive for its owner.
    await expectError(await useKey(theirs.key), 403, 'INSUFFICIENT_PERMISSION');
  });

  it('is a professional and enterprise feature: startup gets PLAN_UPGRADE_REQUIRED, also for keys made before a downgrade', async () => {
    const small = await createTenant(app, 'startup');
    const smallToken = await small.login();
    await expectError(
      await call(smallToken, 'POST', '/api/v1/api-keys', { name: 'k', permissions: ['read:scans'] }),
      403,
      'PLAN_UPGRADE_REQUIRED',
    );
    await expectError(await call(smallToken, 'GET', '/api/v1/api-keys'), 403, 'PLAN_UPGRADE_REQUIRED');
    await expectError(
      await call(smallToken, 'DELETE', '/api/v1/api-keys/key_any'),
      403,
      'PLAN_UPGRADE_REQUIRED',
    );

    const shrinking = await createTenant(app, 'professional');
    const created = await create(await shrinking.login(), { name: 'k', permissions: ['read:scans'] });
    await setPlan(app.services.db, shrinking.orgId, 'startup');
    await expectError(await useKey(created.key), 403, 'PLAN_UPGRADE_REQUIRED');
  });

  it('refuses keys to the key endpoints themselves: a key cannot mint keys', async () => {
    const created = await create(adminToken, {
      name: 'all',
      permissions: ['read:scans', 'write:scans', 'read:findings', 'write:findings', 'read:grc', 'write:grc'],
    });
    const asKey = (method: string, path: string, body?: unknown) =>
      app.request(path, {
        method,
        headers: { 'x-api-key': created.key, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    await expectError(
      await asKey('POST', '/api/v1/api-keys', { name: 'k', permissions: ['read:scans'] }),
      403,
      'INSUFFICIENT_PERMISSION',
    );
    await expectError(await asKey('GET', '/api/v1/api-keys'), 403, 'INSUFFICIENT_PERMISSION');
    await expectError(
      await asKey('DELETE', `/api/v1/api-keys/${created.id}`),
      403,
      'INSUFFICIENT_PERMISSION',
    );
  });
});
