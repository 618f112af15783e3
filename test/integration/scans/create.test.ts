import { beforeAll, describe, expect, it } from 'vitest';
import {
  cancelScanRoute,
  createScanRoute,
  getScanQuotaRoute,
  getScanRoute,
} from '../../../server/routes/scans.ts';
import { expectError, ISO_MS } from '../../helpers/api-client.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory, type BuiltTenant, updateScan } from '../../helpers/factory.ts';
import { testEngine } from '../../helpers/database.ts';
import { createScan } from './requests.ts';

describe(`scans API: creating scans: the request, the scan scope, the month quota (${testEngine})`, () => {
  let app: TestApp;
  let t: BuiltTenant;

  const suite = useTestApp({ env: { SCANWARD_SCAN_DENY: 'denied.localhost,127.0.0.99' } });
  beforeAll(async () => {
    app = suite.app;
    t = await factory.tenant(app, { plan: 'enterprise' });
  });

  describe('POST /api/v1/scans', () => {
    it('queues a pending full scan with its estimated duration in seconds', async () => {
      const before = Date.now();
      const res = await t.api.call(createScanRoute, { body: { target: '127.0.0.1', authorized: true } });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body).sort()).toEqual(
        ['created_at', 'estimated_duration', 'id', 'scan_type', 'status', 'target'].sort(),
      );
      expect(res.body).toMatchObject({
        target: '127.0.0.1',
        scan_type: 'full',
        status: 'pending',
        estimated_duration: 2700,
      });
      expect(res.body.id).toMatch(/^scan_[0-9a-z]{24}$/);
      expect(res.body.created_at).toMatch(ISO_MS);
      expect(Date.parse(res.body.created_at)).toBeGreaterThanOrEqual(before - 1000);
    });

    it('estimates each scan type differently and stores frameworks and ports', async () => {
      const quick = await createScan(t, { scan_type: 'quick', ports: '22,80,8000-8100' });
      const compliance = await createScan(t, { scan_type: 'compliance', frameworks: ['pci-dss', 'soc2'] });
      expect(quick.estimated_duration).toBe(450);
      expect(compliance.estimated_duration).toBe(1350);
      const detail = (await t.api.call(getScanRoute, { params: { scan_id: compliance.id } })).body;
      expect(detail.frameworks).toEqual(['pci-dss', 'soc2']);
      expect(detail.ports).toBeNull();
      expect((await t.api.call(getScanRoute, { params: { scan_id: quick.id } })).body.ports).toBe(
        '22,80,8000-8100',
      );
    });

    it('maps a compliance scan that names no framework to all three', async () => {
      const scan = await createScan(t, { scan_type: 'compliance' });
      expect((await t.api.call(getScanRoute, { params: { scan_id: scan.id } })).body.frameworks).toEqual([
        'soc2',
        'pci-dss',
        'iso27001',
      ]);
    });

    it('accepts names, IPv6 and ranges inside the scope and answers them normalized', async () => {
      expect((await createScan(t, { target: 'LocalHost.' })).target).toBe('localhost');
      expect((await createScan(t, { target: '0:0:0:0:0:0:0:1' })).target).toBe('::1');
      expect((await createScan(t, { target: '127.0.1.7/24' })).target).toBe('127.0.1.0/24');
    });

    it.each([
      [{ target: '127.0.0.1' }, 'authorized'],
      [{ target: '127.0.0.1', authorized: false }, 'authorized'],
      [{ target: '127.0.0.1', authorized: 'true' }, 'authorized'],
      [{ authorized: true }, 'target'],
      [{ target: '', authorized: true }, 'target'],
      [{ target: 'http://localhost/', authorized: true }, 'target'],
      [{ target: '127.0.0.0/8', authorized: true }, 'target'],
      [{ target: '127.0.0.1', authorized: true, scan_type: 'deep' }, 'scan_type'],
      [{ target: '127.0.0.1', authorized: true, frameworks: ['hipaa'] }, 'frameworks'],
      [{ target: '127.0.0.1', authorized: true, frameworks: 'soc2' }, 'frameworks'],
      [{ target: '127.0.0.1', authorized: true, ports: '1024-1' }, 'ports'],
      [{ target: '127.0.0.1', authorized: true, ports: '0' }, 'ports'],
      [{ target: '127.0.0.1', authorized: true, ports: '80,http' }, 'ports'],
      [{ target: '127.0.0.1', authorized: true, ports: 80 }, 'ports'],
    ])('refuses %j with VALIDATION_ERROR on %s', async (body, field) => {
      // Each body breaks the contract on purpose.
      const res = await t.api.call(createScanRoute, { body: body as never });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ error_code: 'VALIDATION_ERROR', field });
    });

    it.each([
      '10.0.0.1',
      '8.8.8.8',
      '10.0.0.0/24',
      '169.254.169.254',
      '::ffff:10.0.0.1',
      '127.0.0.99',
      'x.denied.localhost',
    ])('refuses %s, outside the scan scope, with TARGET_NOT_ALLOWED', async (target) => {
      const res = await t.api.call(createScanRoute, { body: { target, authorized: true } });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ error_code: 'TARGET_NOT_ALLOWED', field: 'target' });
    });

    it('says which policy refused a public target and how to allow public targets', async () => {
      const res = await t.api.call(createScanRoute, { body: { target: '8.8.8.8', authorized: true } });
      const { detail } = await expectError(res, 422, 'TARGET_NOT_ALLOWED', 'target');
      expect(detail).toContain('SCANWARD_SCAN_ALLOW');
      expect(detail).toMatch(/adds `public` to SCANWARD_SCAN_ALLOW/);
    });

    it('refuses a range that reaches a denied address', async () => {
      const res = await t.api.call(createScanRoute, { body: { target: '127.0.0.96/29', authorized: true } });
      expect(res.body).toMatchObject({ error_code: 'TARGET_NOT_ALLOWED' });
    });

    it('answers 400 for a body that is not JSON', async () => {
      const res = await app.request('/api/v1/scans', {
        method: 'POST',
        headers: { authorization: (await bearer(t)).authorization, 'content-type': 'application/json' },
        body: '{"target": ',
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error_code: 'BAD_REQUEST' });
    });
  });

  describe('GET /api/v1/scans/quota', () => {
    it('reports unlimited as -1 and counts this UTC month’s scans', async () => {
      const e = await factory.tenant(app, { plan: 'enterprise' });
      await createScan(e);
      const old = await createScan(e);
      await updateScan(app, e.orgId, old.id, { created_at: new Date(Date.UTC(2020, 0, 1)) });
      const now = new Date();
      const res = await e.api.call(getScanQuotaRoute);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        plan: 'enterprise',
        monthly_limit: -1,
        used_this_month: 1,
        remaining: -1,
        resets_at: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
      });
    });

    it('reports the plan’s limit and what remains of it', async () => {
      const s = await factory.tenant(app, { plan: 'startup' });
      await createScan(s);
      expect((await s.api.call(getScanQuotaRoute)).body).toMatchObject({
        plan: 'startup',
        monthly_limit: 25,
        used_this_month: 1,
        remaining: 24,
      });
    });
  });

  describe('literal segments under /scans', () => {
    it('answers 405 for methods /scans/quota and /scans/schedules do not have, not a scan lookup', async () => {
      const quota = await t.api.call(cancelScanRoute, { params: { scan_id: 'quota' } });
      expect(quota.status).toBe(405);
      expect(quota.headers.get('allow')).toBe('GET');
      const schedules = await t.api.call(cancelScanRoute, { params: { scan_id: 'schedules' } });
      expect(schedules.status).toBe(405);
      expect(schedules.body).toMatchObject({ error_code: 'METHOD_NOT_ALLOWED' });
      // eslint-disable-next-line no-restricted-syntax -- no route declares POST /scans/quota: the 405 is the point
      expect((await t.api.post('/api/v1/scans/quota', {})).status).toBe(405);
    });
  });
});

async function bearer(tenant: BuiltTenant) {
  return { authorization: `Bearer ${await tenant.login()}` };
}
