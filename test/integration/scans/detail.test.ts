import { beforeAll, describe, expect, it } from 'vitest';
import { phasesOf } from '../../../server/scans/phases.ts';
import { getScanRoute } from '../../../server/routes/scans.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory, type BuiltTenant, seedObservedFinding, updateScan } from '../../helpers/factory.ts';
import { testEngine } from '../../helpers/database.ts';
import { createScan } from './requests.ts';

describe(`scans API: one scan: its phases, progress, tool and counts (${testEngine})`, () => {
  let app: TestApp;
  let t: BuiltTenant;

  const suite = useTestApp();
  beforeAll(async () => {
    app = suite.app;
    t = await factory.tenant(app, { plan: 'enterprise' });
  });

  describe('GET /api/v1/scans/{scan_id}', () => {
    it('shows a pending scan at the first phase of its type with progress 0 and no started/completed keys', async () => {
      const scan = await createScan(t, { scan_type: 'quick' });
      const res = await t.api.call(getScanRoute, { params: { scan_id: scan.id } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: scan.id,
        target: '127.0.0.1',
        scan_type: 'quick',
        status: 'pending',
        progress: 0,
        phase: 'discovery',
        created_at: scan.created_at,
        phases_completed: [],
        phases_remaining: phasesOf('quick'),
        estimated_duration: 450,
        vulnerabilities_found: 0,
        critical_count: 0,
        high_count: 0,
        medium_count: 0,
        low_count: 0,
      });
      for (const key of ['started_at', 'completed_at', 'current_tool', 'changes', 'error', 'message']) {
        expect(res.body).not.toHaveProperty(key);
      }
    });

    it('shows the current tool and start time of a running scan, and splits its phases', async () => {
      const scan = await createScan(t);
      const startedAt = new Date(Date.now() - 60_000);
      await updateScan(app, t.orgId, scan.id, {
        status: 'running',
        phase: 'vulnerability_scanning',
        progress: 35,
        current_tool: 'tcp-connect',
        phases_completed: ['discovery', 'enumeration'],
        started_at: startedAt,
      });
      const body = (await t.api.call(getScanRoute, { params: { scan_id: scan.id } })).body;
      expect(body).toMatchObject({
        status: 'running',
        phase: 'vulnerability_scanning',
        progress: 35,
        current_tool: 'tcp-connect',
        started_at: startedAt.toISOString(),
        phases_completed: ['discovery', 'enumeration'],
      });
      expect([...body.phases_completed, ...body.phases_remaining]).toEqual(phasesOf('full'));
      expect(body).not.toHaveProperty('completed_at');
    });

    it('shows a completed scan with its counts from observations, completion time and changes, without a tool', async () => {
      const scan = await createScan(t);
      for (const severity of ['critical', 'high', 'high', 'medium', 'low', 'info', 'info'] as const) {
        await seedObservedFinding(app, t.orgId, scan.id, { severity });
      }
      const completedAt = new Date();
      await updateScan(app, t.orgId, scan.id, {
        status: 'completed',
        phase: 'complete',
        progress: 100,
        current_tool: 'leftover',
        phases_completed: [...phasesOf('full')],
        started_at: new Date(Date.now() - 120_000),
        completed_at: completedAt,
        changes: { new: 7, reopened: 0, resolved: 1, unchanged: 0 },
      });
      const body = (await t.api.call(getScanRoute, { params: { scan_id: scan.id } })).body;
      expect(body).toMatchObject({
        status: 'completed',
        phase: 'complete',
        progress: 100,
        completed_at: completedAt.toISOString(),
        phases_completed: phasesOf('full'),
        phases_remaining: [],
        changes: { new: 7, reopened: 0, resolved: 1, unchanged: 0 },
        vulnerabilities_found: 5,
        critical_count: 1,
        high_count: 2,
        medium_count: 1,
        low_count: 1,
        info_count: 2,
      });
      expect(body).not.toHaveProperty('current_tool');
    });

    it('shows why a failed scan failed, keeping its last phase and progress', async () => {
      const scan = await createScan(t);
      await updateScan(app, t.orgId, scan.id, {
        status: 'failed',
        phase: 'enumeration',
        progress: 12,
        error: 'runner lost',
      });
      const body = (await t.api.call(getScanRoute, { params: { scan_id: scan.id } })).body;
      expect(body).toMatchObject({
        status: 'failed',
        phase: 'enumeration',
        progress: 12,
        error: 'runner lost',
      });
      expect(body).not.toHaveProperty('message');
    });

    it('answers 404 for an unknown id', async () => {
      const res = await t.api.call(getScanRoute, { params: { scan_id: 'scan_doesnotexist0000000000000' } });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error_code: 'NOT_FOUND' });
    });
  });
});
