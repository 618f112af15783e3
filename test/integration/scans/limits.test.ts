import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory, updateScan } from '../../helpers/factory.ts';
import { scanRequest } from './requests.ts';
import { testEngine } from '../../helpers/database.ts';
import {
  cancelScanRoute,
  createScanRoute,
  getScanQuotaRoute,
  listScansRoute,
} from '../../../server/routes/scans.ts';

describe(`scan quota and concurrency (${testEngine})`, () => {
  let app: TestApp;

  const suite = useTestApp();
  beforeAll(() => {
    app = suite.app;
  });

  it('refuses a second scan while the startup plan’s one concurrent scan is pending, with Retry-After', async () => {
    const t = await factory.tenant(app, { plan: 'startup' });
    const first = await t.api.call(createScanRoute, { body: scanRequest() });
    expect(first.status).toBe(201);
    const second = await t.api.call(createScanRoute, { body: scanRequest() });
    expect(second.status).toBe(429);
    expect(second.body).toMatchObject({ error_code: 'CONCURRENT_SCAN_LIMIT' });
    const retryAfter = Number(second.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(10);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect((await t.api.call(getScanQuotaRoute)).body.used_this_month).toBe(1);
  });

  it('counts running scans too, and frees the slot when the scan finishes or is cancelled', async () => {
    const t = await factory.tenant(app, { plan: 'startup' });
    const first = await t.api.call(createScanRoute, { body: scanRequest() });
    await updateScan(app, t.orgId, first.body.id, { status: 'running', started_at: new Date() });
    expect((await t.api.call(createScanRoute, { body: scanRequest() })).status).toBe(429);
    await updateScan(app, t.orgId, first.body.id, {
      status: 'completed',
      phase: 'complete',
      progress: 100,
    });
    const second = await t.api.call(createScanRoute, { body: scanRequest() });
    expect(second.status).toBe(201);
    expect((await t.api.call(cancelScanRoute, { params: { scan_id: second.body.id } })).status).toBe(200);
    expect((await t.api.call(createScanRoute, { body: scanRequest() })).status).toBe(201);
  });

  it('applies per-organization overrides of the concurrency ceiling', async () => {
    const t = await factory.tenant(app, { plan: 'professional', limits: { concurrent: 2 } });
    expect((await t.api.call(createScanRoute, { body: scanRequest() })).status).toBe(201);
    expect((await t.api.call(createScanRoute, { body: scanRequest() })).status).toBe(201);
    expect((await t.api.call(createScanRoute, { body: scanRequest() })).status).toBe(429);
  });

  it('refuses scans once the month’s quota is used, cancelled scans included, and reports nothing remaining', async () => {
    const t = await factory.tenant(app, { plan: 'startup', limits: { scansPerMonth: 2, concurrent: -1 } });
    const first = await t.api.call(createScanRoute, { body: scanRequest() });
    await t.api.call(cancelScanRoute, { params: { scan_id: first.body.id } });
    expect((await t.api.call(createScanRoute, { body: scanRequest() })).status).toBe(201);
    const third = await t.api.call(createScanRoute, { body: scanRequest() });
    expect(third.status).toBe(403);
    expect(third.body).toMatchObject({ error_code: 'SCAN_QUOTA_EXCEEDED' });
    expect((await t.api.call(getScanQuotaRoute)).body).toMatchObject({
      monthly_limit: 2,
      used_this_month: 2,
      remaining: 0,
    });
  });

  it('does not count last month’s scans', async () => {
    const t = await factory.tenant(app, { plan: 'startup', limits: { scansPerMonth: 1, concurrent: -1 } });
    const old = await t.api.call(createScanRoute, { body: scanRequest() });
    const now = new Date();
    const lastInstantOfLastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) - 1);
    await updateScan(app, t.orgId, old.body.id, { created_at: lastInstantOfLastMonth });
    expect((await t.api.call(createScanRoute, { body: scanRequest() })).status).toBe(201);
  });

  it('answers the quota refusal before the concurrency one', async () => {
    const t = await factory.tenant(app, { plan: 'startup', limits: { scansPerMonth: 1 } });
    expect((await t.api.call(createScanRoute, { body: scanRequest() })).status).toBe(201);
    expect((await t.api.call(createScanRoute, { body: scanRequest() })).body).toMatchObject({
      error_code: 'SCAN_QUOTA_EXCEEDED',
    });
  });

  it('does not spend quota on an idempotent replay', async () => {
    const t = await factory.tenant(app, { plan: 'startup', limits: { scansPerMonth: 1, concurrent: -1 } });
    const headers = { headers: { 'Idempotency-Key': 'only-once' } };
    const first = await t.api.call(createScanRoute, { body: scanRequest() }, headers);
    const replay = await t.api.call(createScanRoute, { body: scanRequest() }, headers);
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(first.body);
    expect((await t.api.call(createScanRoute, { body: scanRequest() })).status).toBe(403);
  });

  it('lets exactly the ceiling through when many creations arrive at once', async () => {
    const t = await factory.tenant(app, { plan: 'startup', limits: { scansPerMonth: -1 } });
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => t.api.call(createScanRoute, { body: scanRequest() })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(5);
    expect((await t.api.call(listScansRoute)).body.total).toBe(1);
  });

  it('never creates more scans than the monthly quota when many creations arrive at once', async () => {
    const t = await factory.tenant(app, {
      plan: 'professional',
      limits: { scansPerMonth: 3, concurrent: -1 },
    });
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => t.api.call(createScanRoute, { body: scanRequest() })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(3);
    expect(answers.filter((a) => a.status === 403)).toHaveLength(5);
    expect((await t.api.call(getScanQuotaRoute)).body.used_this_month).toBe(3);
  });

  it('places no limit on enterprise', async () => {
    const t = await factory.tenant(app, { plan: 'enterprise' });
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => t.api.call(createScanRoute, { body: scanRequest() })),
    );
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201]);
  });
});
