import { beforeAll, describe, expect, it } from 'vitest';
import {
  cancelScanRoute,
  createScanRoute,
  getScanQuotaRoute,
  getScanRoute,
  listScanFindingsRoute,
  listScansRoute,
} from '../../../server/routes/scans.ts';
import { apiClient } from '../../helpers/api-client.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory, type BuiltTenant, seedObservedFinding } from '../../helpers/factory.ts';
import { testEngine } from '../../helpers/database.ts';
import { createScan, scanRequest } from './requests.ts';

describe(`scans API: who may read, create and cancel scans (${testEngine})`, () => {
  let app: TestApp;
  let t: BuiltTenant;

  const suite = useTestApp();
  beforeAll(async () => {
    app = suite.app;
    t = await factory.tenant(app, { plan: 'enterprise' });
  });

  describe('permissions', () => {
    it('needs credentials', async () => {
      const anonymous = apiClient(app);
      expect((await anonymous.call(listScansRoute)).body).toMatchObject({
        error_code: 'AUTHENTICATION_REQUIRED',
      });
      expect((await anonymous.call(createScanRoute, { body: scanRequest() })).status).toBe(401);
    });

    it('lets a read:scans key read but not create or cancel', async () => {
      const p = await factory.tenant(app, { plan: 'professional' });
      const scan = await createScan(p);
      const reader = await p.keyClient(['read:scans']);
      expect((await reader.call(listScansRoute)).status).toBe(200);
      expect((await reader.call(getScanRoute, { params: { scan_id: scan.id } })).status).toBe(200);
      expect((await reader.call(listScanFindingsRoute, { params: { scan_id: scan.id } })).status).toBe(200);
      expect((await reader.call(getScanQuotaRoute)).status).toBe(200);
      const post = await reader.call(createScanRoute, { body: scanRequest() });
      expect(post.status).toBe(403);
      expect(post.body).toMatchObject({ error_code: 'INSUFFICIENT_PERMISSION' });
      expect((await reader.call(cancelScanRoute, { params: { scan_id: scan.id } })).status).toBe(403);
      expect((await p.api.call(getScanRoute, { params: { scan_id: scan.id } })).body.status).toBe('pending');
    });

    it('lets a write:scans key create and cancel but not read', async () => {
      const p = await factory.tenant(app, { plan: 'professional' });
      const writer = await p.keyClient(['write:scans']);
      const created = await writer.call(createScanRoute, { body: scanRequest() });
      expect(created.status).toBe(201);
      expect((await writer.call(cancelScanRoute, { params: { scan_id: created.body.id } })).status).toBe(200);
      expect((await writer.call(listScansRoute)).status).toBe(403);
      const findingsKey = await p.keyClient(['read:findings', 'write:findings', 'read:grc']);
      expect((await findingsKey.call(getScanQuotaRoute)).status).toBe(403);
    });

    it('lets a member create and cancel scans', async () => {
      const member = await t.addUser('member');
      const api = apiClient(app, { token: await t.login(member) });
      const created = await api.call(createScanRoute, { body: scanRequest() });
      expect(created.status).toBe(201);
      expect((await api.call(cancelScanRoute, { params: { scan_id: created.body.id } })).status).toBe(200);
    });
  });

  describe('another organization', () => {
    it('never sees, cancels or learns of a scan that is not its own', async () => {
      const owner = await factory.tenant(app, { plan: 'professional' });
      const other = await factory.tenant(app, { plan: 'enterprise' });
      const scan = await createScan(owner);
      await seedObservedFinding(app, owner.orgId, scan.id, { severity: 'high' });
      const missing = 'scan_000000000000000000000000';
      for (const id of [scan.id, missing]) {
        for (const res of [
          await other.api.call(getScanRoute, { params: { scan_id: id } }),
          await other.api.call(cancelScanRoute, { params: { scan_id: id } }),
          await other.api.call(listScanFindingsRoute, { params: { scan_id: id } }),
        ]) {
          expect(res.status).toBe(404);
          expect(res.body).toEqual({ detail: 'scan not found', error_code: 'NOT_FOUND' });
        }
      }
      expect((await other.api.call(listScansRoute, { query: { target: '127.0.0.1' } })).body.total).toBe(0);
      expect((await other.api.call(getScanQuotaRoute)).body.used_this_month).toBe(0);
      const mine = (await owner.api.call(getScanRoute, { params: { scan_id: scan.id } })).body;
      expect(mine).toMatchObject({ status: 'pending', high_count: 1 });
    });
  });
});
