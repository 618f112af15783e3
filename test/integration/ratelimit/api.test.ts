import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineRoute } from '../../../server/http/contract.ts';
import { setLimits } from '../../../server/identity/organizations.ts';
import { createLogger } from '../../../server/logger.ts';
import { incrementWindows, readWindows, sweepExpiredCounters } from '../../../server/ratelimit/counters.ts';
import { startCounterSweeper } from '../../../server/ratelimit/sweeper.ts';
import { testEngine } from '../../helpers/database.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory, mintApiKey, mintBearerToken, type Tenant } from '../../helpers/factory.ts';
import { eventually } from '../../helpers/poll.ts';

const guarded = defineRoute({
  method: 'get',
  path: '/api/v1/platform-test/counted',
  operationId: 'platformTestCounted',
  summary: 'An authenticated, counted route',
  tags: ['Test'],
  access: { permission: 'read:scans' },
  query: z.object({ n: z.coerce.number().int().max(10).optional() }),
  responses: { 200: { description: 'Ok', schema: z.object({ ok: z.boolean() }) } },
  handler: async () => ({ body: { ok: true } }),
});

interface RateHeaders {
  limit: number;
  remaining: number;
  reset: number;
}

function rateHeaders(res: Response): RateHeaders {
  const limit = res.headers.get('x-ratelimit-limit');
  const remaining = res.headers.get('x-ratelimit-remaining');
  const reset = res.headers.get('x-ratelimit-reset');
  expect(limit, 'X-RateLimit-Limit').not.toBeNull();
  expect(remaining, 'X-RateLimit-Remaining').not.toBeNull();
  expect(reset, 'X-RateLimit-Reset').not.toBeNull();
  return { limit: Number(limit), remaining: Number(remaining), reset: Number(reset) };
}

describe(`request rate limits per organization (${testEngine})`, () => {
  let app: TestApp;
  const suite = useTestApp({ extraRoutes: [guarded] });
  beforeAll(() => {
    app = suite.app;
  });

  async function tenantWithToken(
    plan: 'startup' | 'professional' | 'enterprise',
    limits: { hourly?: number; daily?: number } = {},
  ): Promise<{ tenant: Tenant; auth: Record<string, string> }> {
    const tenant = await factory.tenant(app, { plan, limits: false });
    if (limits.hourly !== undefined || limits.daily !== undefined) {
      await setLimits(app.services.db, tenant.orgId, limits);
    }
    const token = await mintBearerToken(app.services.db, app.services.keys.jwtSecret, {
      id: tenant.admin.id,
      orgId: tenant.orgId,
    });
    return { tenant, auth: { authorization: `Bearer ${token}` } };
  }

  const counted = (headers: Record<string, string>, query = '') =>
    app.request(`/api/v1/platform-test/counted${query}`, { headers });

  /** The organization's counter of the current window (0 when nothing was counted in it). */
  async function windowCount(orgId: string, window: 'hour' | 'day'): Promise<number> {
    const seconds = window === 'hour' ? 3600 : 86_400;
    const [counter] = await readWindows(app.services.db, [{ bucket: `org:${orgId}:${window}`, seconds }]);
    return counter!.count;
  }
  const hourlyCount = (orgId: string) => windowCount(orgId, 'hour');

  it('describes the plan hourly window on every authenticated response and counts down', async () => {
    const { auth } = await tenantWithToken('startup');
    const seen: RateHeaders[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await counted(auth);
      expect(res.status).toBe(200);
      seen.push(rateHeaders(res));
    }
    // startup: 100 per hour, 1000 per day; the hour runs out first.
    expect(seen.map((h) => h.limit)).toEqual([100, 100, 100]);
    expect(seen.map((h) => h.remaining)).toEqual([99, 98, 97]);
    const now = Date.now() / 1000;
    for (const h of seen) {
      expect(h.reset).toBeGreaterThan(now);
      expect(h.reset).toBeLessThanOrEqual(now + 3600);
      expect(h.reset % 3600).toBe(0);
    }
  });

  it('keeps the headers on errors answered after authentication', async () => {
    const { auth } = await tenantWithToken('professional');
    const res = await counted(auth, '?n=99');
    expect(res.status).toBe(422);
    expect(rateHeaders(res)).toMatchObject({ limit: 500, remaining: 499 });
  });

  it('counts and describes a call its access rule refuses (403), so refused calls are not free', async () => {
    const { tenant } = await tenantWithToken('professional', { hourly: 10 });
    const key = await mintApiKey(app.services.db, { id: tenant.admin.id, orgId: tenant.orgId }, [
      'read:findings',
    ]);
    const refused = await counted({ 'x-api-key': key });
    expect(refused.status).toBe(403);
    expect(rateHeaders(refused)).toMatchObject({ limit: 10, remaining: 9 });
    expect(await hourlyCount(tenant.orgId)).toBe(1);
  });

  it('still sends the headers, as -1, for an organization without request limits', async () => {
    const { auth } = await tenantWithToken('enterprise', { hourly: -1, daily: -1 });
    const res = await counted(auth);
    expect(res.status).toBe(200);
    const headers = rateHeaders(res);
    expect(headers).toMatchObject({ limit: -1, remaining: -1 });
    expect(headers.reset % 86_400).toBe(0);
    expect(headers.reset).toBeGreaterThan(Date.now() / 1000);
  });

  it('answers 429 RATE_LIMIT_EXCEEDED with Retry-After once the hourly limit is used up', async () => {
    const { auth } = await tenantWithToken('professional', { hourly: 3 });
    const remaining: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await counted(auth);
      expect(res.status).toBe(200);
      remaining.push(rateHeaders(res).remaining);
    }
    expect(remaining).toEqual([2, 1, 0]);

    const refused = await counted(auth);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await refused.json()) as Record<string, unknown>;
    expect(body.error_code).toBe('RATE_LIMIT_EXCEEDED');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    const h = rateHeaders(refused);
    expect(h).toMatchObject({ limit: 3, remaining: 0 });
    // Retry-After points at the reset the headers announce.
    expect(Math.abs(Math.ceil(Date.now() / 1000) + retryAfter - h.reset)).toBeLessThanOrEqual(2);
  });

  it('does not count refused requests, so hammering past the hourly limit leaves the day intact', async () => {
    const { tenant, auth } = await tenantWithToken('professional', { hourly: 2, daily: 10 });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await counted(auth)).status);
    expect(statuses).toEqual([200, 200, 429, 429, 429, 429]);
    expect(await windowCount(tenant.orgId, 'day')).toBe(2);
    expect(await hourlyCount(tenant.orgId)).toBe(2);
  });

  it('takes the organization override over the plan default', async () => {
    const { auth } = await tenantWithToken('startup', { hourly: 7 });
    expect(rateHeaders(await counted(auth))).toMatchObject({ limit: 7, remaining: 6 });
  });

  it('describes the daily window when it is the one closer to running out', async () => {
    const { auth } = await tenantWithToken('professional', { hourly: 50, daily: 4 });
    const h = rateHeaders(await counted(auth));
    expect(h).toMatchObject({ limit: 4, remaining: 3 });
    expect(h.reset % 86_400).toBe(0);
    expect(h.reset).toBeGreaterThan(Date.now() / 1000);
  });

  it('refuses on the daily limit even with hours to spare, retrying after the day ends', async () => {
    const { auth } = await tenantWithToken('professional', { hourly: 50, daily: 2 });
    expect((await counted(auth)).status).toBe(200);
    expect((await counted(auth)).status).toBe(200);
    const refused = await counted(auth);
    expect(refused.status).toBe(429);
    const h = rateHeaders(refused);
    expect(h).toMatchObject({ limit: 2, remaining: 0 });
    expect(h.reset % 86_400).toBe(0);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(Math.abs(Math.ceil(Date.now() / 1000) + retryAfter - h.reset)).toBeLessThanOrEqual(2);
  });

  it('counts API key requests against the same organization budget as bearer tokens', async () => {
    const { tenant, auth } = await tenantWithToken('professional', { hourly: 10 });
    const key = await mintApiKey(app.services.db, { id: tenant.admin.id, orgId: tenant.orgId }, [
      'read:scans',
    ]);
    expect(rateHeaders(await counted(auth)).remaining).toBe(9);
    expect(rateHeaders(await counted({ 'x-api-key': key })).remaining).toBe(8);
    expect(rateHeaders(await counted(auth)).remaining).toBe(7);
  });

  it('keeps organizations apart: one using up its limit does not touch another', async () => {
    const a = await tenantWithToken('professional', { hourly: 1 });
    const b = await tenantWithToken('professional', { hourly: 1 });
    expect((await counted(a.auth)).status).toBe(200);
    expect((await counted(a.auth)).status).toBe(429);
    expect((await counted(b.auth)).status).toBe(200);
  });

  it('does not count the health check, the documentation or the login', async () => {
    const { tenant, auth } = await tenantWithToken('professional', { hourly: 20 });
    for (const path of ['/api/health', '/openapi.json', '/docs', '/redoc']) {
      const res = await app.request(path, { headers: auth });
      expect(res.status, path).toBe(200);
    }
    // The documentation is authenticated, so it carries the headers without spending a request.
    const docs = await app.request('/openapi.json', { headers: auth });
    expect(rateHeaders(docs)).toMatchObject({ limit: 20, remaining: 20 });
    await tenant.login();
    expect(await hourlyCount(tenant.orgId)).toBe(0);

    expect(rateHeaders(await counted(auth)).remaining).toBe(19);
    expect(await hourlyCount(tenant.orgId)).toBe(1);
  });

  it('sweeps expired counters and keeps current ones', async () => {
    const db = app.services.db;
    const past = new Date(Date.now() - 2 * 3600_000);
    const tag = `sweep-test-${Date.now()}`;
    // Counted two hours ago (its window has ended, so it has expired), and now.
    const old = { bucket: `${tag}:old`, seconds: 3600 };
    const current = { bucket: `${tag}:current`, seconds: 3600 };
    await incrementWindows(db, [old], past, 5);
    await incrementWindows(db, [current], new Date(), 5);
    expect((await readWindows(db, [old], past))[0]!.count).toBe(5);
    const sweeper = startCounterSweeper(db, createLogger('silent'), 60_000);
    try {
      await eventually(async () => {
        const [left] = await readWindows(db, [old], past);
        return left!.count === 0 ? left : undefined;
      }, 'the sweeper to delete the expired counter');
    } finally {
      await sweeper.stop();
    }
    expect((await readWindows(db, [current]))[0]!.count).toBe(5);
    expect(await sweepExpiredCounters(db)).toBe(0);
  });
});
