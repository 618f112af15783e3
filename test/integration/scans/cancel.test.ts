import { beforeAll, describe, expect, it } from 'vitest';
import { cancelScanRoute, getScanRoute, listScanFindingsRoute } from '../../../server/routes/scans.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory, type BuiltTenant, seedObservedFinding, updateScan } from '../../helpers/factory.ts';
import { testEngine } from '../../helpers/database.ts';
import { createScan } from './requests.ts';

describe(`scans API: cancelling a scan (${testEngine})`, () => {
  let app: TestApp;
  let t: BuiltTenant;

  const suite = useTestApp();
  beforeAll(async () => {
    app = suite.app;
    t = await factory.tenant(app, { plan: 'enterprise' });
  });

  describe('DELETE /api/v1/scans/{scan_id}', () => {
    it('cancels a pending scan with a message and keeps it', async () => {
      const scan = await createScan(t);
      const res = await t.api.call(cancelScanRoute, { params: { scan_id: scan.id } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: scan.id,
        status: 'cancelled',
        message: expect.stringContaining('cancelled'),
      });
      const detail = (await t.api.call(getScanRoute, { params: { scan_id: scan.id } })).body;
      expect(detail).toMatchObject({
        status: 'cancelled',
        message: res.body.message,
        phase: 'discovery',
        progress: 0,
      });
      const again = await t.api.call(cancelScanRoute, { params: { scan_id: scan.id } });
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ error_code: 'SCAN_NOT_CANCELLABLE' });
    });

    it('cancels a running scan, keeping its phase, progress and findings', async () => {
      const scan = await createScan(t);
      await seedObservedFinding(app, t.orgId, scan.id, { severity: 'high' });
      await updateScan(app, t.orgId, scan.id, {
        status: 'running',
        phase: 'web_analysis',
        progress: 50,
        current_tool: 'http',
      });
      expect((await t.api.call(cancelScanRoute, { params: { scan_id: scan.id } })).status).toBe(200);
      const detail = (await t.api.call(getScanRoute, { params: { scan_id: scan.id } })).body;
      expect(detail).toMatchObject({
        status: 'cancelled',
        phase: 'web_analysis',
        progress: 50,
        high_count: 1,
      });
      expect(detail).not.toHaveProperty('current_tool');
      expect((await t.api.call(listScanFindingsRoute, { params: { scan_id: scan.id } })).body.total).toBe(1);
    });

    it.each(['completed', 'failed'] as const)(
      'refuses to cancel a %s scan and changes nothing',
      async (status) => {
        const scan = await createScan(t);
        await updateScan(app, t.orgId, scan.id, {
          status,
          phase: status === 'completed' ? 'complete' : 'discovery',
        });
        const res = await t.api.call(cancelScanRoute, { params: { scan_id: scan.id } });
        expect(res.status).toBe(409);
        expect(res.body).toMatchObject({ error_code: 'SCAN_NOT_CANCELLABLE' });
        expect((await t.api.call(getScanRoute, { params: { scan_id: scan.id } })).body.status).toBe(status);
      },
    );

    it('answers 404 for an unknown id', async () => {
      expect((await t.api.call(cancelScanRoute, { params: { scan_id: 'scan_nope' } })).status).toBe(404);
    });
  });
});
