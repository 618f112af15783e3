import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { setPlan } from '../../../server/identity/organizations.ts';
import { deleteApiKey, getApiKeys, postApiKey } from '../../../server/routes/api-keys.ts';
import { apiClient, expectError, ISO_MS, type ApiClient, type RouteInput } from '../../helpers/api-client.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory, type Tenant } from '../../helpers/factory.ts';
import { testEngine } from '../../helpers/database.ts';
import { listMySessions, refreshToken } from '../../../server/routes/auth.ts';

const RECORD_KEYS = ['created_at', 'expires_at', 'id', 'last_used_at', 'name', 'permissions', 'prefix'];

describe(`API keys (${testEngine})`, () => {
  let app: TestApp;
  let tenant: Tenant;
  let admin: ApiClient;

  const create = async (api: ApiClient, body: RouteInput<typeof postApiKey>['body']) => {
    const res = await api.call(postApiKey, { body });
    expect(res.status).toBe(201);
    return res.body;
  };
  const list = async (api: ApiClient, query: RouteInput<typeof getApiKeys>['query'] = {}) => {
    const res = await api.call(getApiKeys, { query });
    expect(res.status).toBe(200);
    return res.body;
  };
  /**
   * A request with the key on a bearer-only route: 403 means the key was recognised
   * (then refused for the route), 401 that it was not.
   */
  const useKey = (key: string) => apiClient(app, { apiKey: key }).call(listMySessions);

  const suite = useTestApp();
  beforeAll(async () => {
    app = suite.app;
    tenant = await factory.tenant(app, { plan: 'professional' });
    admin = await tenant.client();
  });

  it('creates a key shown once: sw_ + 43 base64url characters, stored only as its SHA-256', async () => {
    const expiresAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const created = await create(admin, {
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

    // eslint-disable-next-line no-restricted-syntax -- storage itself: the key is kept only as its hash, which no answer shows
    const row = (await app.services.db('api_keys').where({ id: created.id }).first())!;
    expect(row.key_hash).toBe(createHash('sha256').update(created.key).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(created.key);

    const listed = await list(admin);
    const record = listed.items.find((k) => k.id === created.id)!;
    expect(Object.keys(record).sort()).toEqual(RECORD_KEYS.sort());
    const { key: _secret, ...withoutSecret } = created;
    expect(record).toEqual(withoutSecret);
    expect(JSON.stringify(listed)).not.toContain(created.key.slice(10));
  });

  it('authenticates with X-API-Key as its creator, records last use, and keeps it out of bearer-only routes', async () => {
    const created = await create(admin, { name: 'usage', permissions: ['read:findings'] });
    // A bearer-only route answers 403 (not 401): the key was recognised, then refused for the route.
    await expectError(await useKey(created.key), 403, 'INSUFFICIENT_PERMISSION');
    const listed = await list(admin);
    expect(listed.items.find((k) => k.id === created.id)!.last_used_at).toMatch(ISO_MS);
    const basic = `Basic ${Buffer.from(`anyone:${created.key}`).toString('base64')}`;
    expect((await apiClient(app, { headers: { authorization: basic } }).get('/docs')).status).toBe(200);
    const asKey = apiClient(app, { apiKey: created.key });
    expect((await asKey.get('/docs')).status).toBe(200);
    await expectError(await asKey.call(refreshToken), 403, 'INSUFFICIENT_PERMISSION');
  });

  it('revokes a key: it stops working at once, leaves the list, and cannot be revoked twice', async () => {
    const created = await create(admin, { name: 'short-lived', permissions: ['read:grc'] });
    const revoke = await admin.call(deleteApiKey, { params: { key_id: created.id } });
    expect(revoke.status).toBe(200);
    expect(revoke.body).toEqual({ id: created.id, revoked: true });
    await expectError(await useKey(created.key), 401, 'INVALID_API_KEY');
    expect((await list(admin)).items.map((k) => k.id)).not.toContain(created.id);
    await expectError(await admin.call(deleteApiKey, { params: { key_id: created.id } }), 404, 'NOT_FOUND');
  });

  it('refuses an expired key, and unknown or malformed keys', async () => {
    const created = await create(admin, {
      name: 'expiring',
      permissions: ['read:scans'],
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    await expectError(await useKey(created.key), 403, 'INSUFFICIENT_PERMISSION');
    // eslint-disable-next-line no-restricted-syntax -- no route moves a key's expiry into the past: the row is aged in place
    await app.services
      .db('api_keys')
      .where({ id: created.id })
      .update({ expires_at: new Date(Date.now() - 1000) });
    await expectError(await useKey(created.key), 401, 'INVALID_API_KEY');
    // Still listed, so an admin sees it expired.
    expect((await list(admin)).items.find((k) => k.id === created.id)).toBeDefined();
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
      await expectError(
        await admin.call(postApiKey, { body: body as never }),
        422,
        'VALIDATION_ERROR',
        field,
      );
    }
    const noExpiry = await create(admin, {
      name: 'forever',
      permissions: ['read:scans'],
      expires_at: null,
    });
    expect(noExpiry.expires_at).toBeNull();
  });

  it('pages the list newest first with the full envelope', async () => {
    const own = await factory.tenant(app, { plan: 'enterprise' });
    const ownApi = await own.client();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await create(ownApi, { name: `k${i}`, permissions: ['read:scans'] })).id);
    const first = await list(ownApi, { per_page: 2 });
    expect(first).toMatchObject({ total: 3, page: 1, per_page: 2, pages: 2 });
    const second = await list(ownApi, { per_page: 2, page: 2 });
    expect([...first.items, ...second.items].map((k) => k.id)).toEqual([...ids].reverse());
    expect((await list(ownApi, { page: 3, per_page: 2 })).items).toEqual([]);
  });

  it('lets admins manage every key, members only their own, viewers none', async () => {
    const member = await tenant.addUser('member');
    const memberApi = await tenant.client(member);
    const viewerApi = await tenant.client(await tenant.addUser('viewer'));
    const existing = await create(admin, { name: 'admin-made', permissions: ['read:scans'] });
    const mine = await create(memberApi, { name: 'mine', permissions: ['read:scans', 'write:scans'] });
    // A member sees and revokes only their own; another's key answers like a missing one.
    expect((await list(memberApi)).items.map((k) => k.id)).toEqual([mine.id]);
    await expectError(
      await memberApi.call(deleteApiKey, { params: { key_id: existing.id } }),
      404,
      'NOT_FOUND',
    );
    expect((await list(admin)).items.map((k) => k.id)).toContain(mine.id);
    expect((await memberApi.call(deleteApiKey, { params: { key_id: mine.id } })).status).toBe(200);
    // A viewer manages no keys.
    await expectError(
      await viewerApi.call(postApiKey, { body: { name: 'v', permissions: ['read:scans'] } }),
      403,
      'INSUFFICIENT_PERMISSION',
    );
    await expectError(await viewerApi.call(getApiKeys), 403, 'INSUFFICIENT_PERMISSION');
    // Another admin of the organization manages the same keys.
    const otherAdmin = await tenant.addUser('admin');
    const otherAdminApi = await tenant.client(otherAdmin);
    expect((await list(otherAdminApi)).items.map((k) => k.id)).toContain(existing.id);
    expect((await otherAdminApi.call(deleteApiKey, { params: { key_id: existing.id } })).status).toBe(200);
  });

  it("never shows or revokes another organization's keys: 404 like a missing one", async () => {
    const stranger = await factory.tenant(app, { plan: 'professional' });
    const strangerApi = await stranger.client();
    const theirs = await create(strangerApi, { name: 'theirs', permissions: ['read:scans'] });
    expect((await list(admin)).items.map((k) => k.id)).not.toContain(theirs.id);
    await expectError(await admin.call(deleteApiKey, { params: { key_id: theirs.id } }), 404, 'NOT_FOUND');
    await expectError(
      await admin.call(deleteApiKey, { params: { key_id: 'key_missing' } }),
      404,
      'NOT_FOUND',
    );
    // Still alive for its owner.
    await expectError(await useKey(theirs.key), 403, 'INSUFFICIENT_PERMISSION');
  });

  it('is a professional and enterprise feature: startup gets PLAN_UPGRADE_REQUIRED, also for keys made before a downgrade', async () => {
    const small = await factory.tenant(app, { plan: 'startup' });
    const smallApi = await small.client();
    await expectError(
      await smallApi.call(postApiKey, { body: { name: 'k', permissions: ['read:scans'] } }),
      403,
      'PLAN_UPGRADE_REQUIRED',
    );
    await expectError(await smallApi.call(getApiKeys), 403, 'PLAN_UPGRADE_REQUIRED');
    await expectError(
      await smallApi.call(deleteApiKey, { params: { key_id: 'key_any' } }),
      403,
      'PLAN_UPGRADE_REQUIRED',
    );

    const shrinking = await factory.tenant(app, { plan: 'professional' });
    const created = await create(await shrinking.client(), { name: 'k', permissions: ['read:scans'] });
    await setPlan(app.services.db, shrinking.orgId, 'startup');
    await expectError(await useKey(created.key), 403, 'PLAN_UPGRADE_REQUIRED');
  });

  it('refuses keys to the key endpoints themselves: a key cannot mint keys', async () => {
    const created = await create(admin, {
      name: 'all',
      permissions: ['read:scans', 'write:scans', 'read:findings', 'write:findings', 'read:grc', 'write:grc'],
    });
    const asKey = apiClient(app, { apiKey: created.key });
    await expectError(
      await asKey.call(postApiKey, { body: { name: 'k', permissions: ['read:scans'] } }),
      403,
      'INSUFFICIENT_PERMISSION',
    );
    await expectError(await asKey.call(getApiKeys), 403, 'INSUFFICIENT_PERMISSION');
    await expectError(
      await asKey.call(deleteApiKey, { params: { key_id: created.id } }),
      403,
      'INSUFFICIENT_PERMISSION',
    );
  });
});
