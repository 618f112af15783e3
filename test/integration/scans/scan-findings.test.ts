import { beforeAll, describe, expect, it } from 'vitest';
import { listScanFindingsRoute } from '../../../server/routes/scans.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory, type BuiltTenant, seedObservedFinding } from '../../helpers/factory.ts';
import { testEngine } from '../../helpers/database.ts';
import { createScan } from './requests.ts';

describe(`scans API: the findings of one scan (${testEngine})`, () => {
  let app: TestApp;
  let t: BuiltTenant;

  const suite = useTestApp();
  beforeAll(async () => {
    app = suite.app;
    t = await factory.tenant(app, { plan: 'enterprise' });
  });

  describe('GET /api/v1/scans/{scan_id}/findings', () => {
    let scanId: string;
    let laterScanId: string;
    const f: Record<string, string> = {};

    beforeAll(async () => {
      scanId = (await createScan(t)).id;
      laterScanId = (await createScan(t)).id;
      f.crit = await seedObservedFinding(app, t.orgId, scanId, { severity: 'critical', title: 'Crit' });
      f.low = await seedObservedFinding(app, t.orgId, scanId, {
        severity: 'low',
        title: 'Low',
        status: 'resolved',
      });
      f.info = await seedObservedFinding(app, t.orgId, scanId, { severity: 'info', title: 'Info' });
      // A later scan sees the critical one again (as high now) and a new one.
      await seedObservedFinding(app, t.orgId, laterScanId, {
        severity: 'critical',
        observedSeverity: 'high',
        findingId: f.crit,
      });
      f.later = await seedObservedFinding(app, t.orgId, laterScanId, { severity: 'medium', title: 'Later' });
    });

    it('lists the findings the scan observed, most severe first, with the remediation summary as a string', async () => {
      const res = await t.api.call(listScanFindingsRoute, { params: { scan_id: scanId } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ total: 3, page: 1, per_page: 20, pages: 1 });
      expect(res.body.items.map((i) => i.id)).toEqual([f.crit, f.low, f.info]);
      const first = res.body.items[0]!;
      expect(Object.keys(first).sort()).toEqual(
        [
          'affected_component',
          'change',
          'cve_ids',
          'cvss_score',
          'description',
          'detected_at',
          'due_date',
          'first_seen_at',
          'id',
          'last_scan_id',
          'last_seen_at',
          'overdue',
          'remediation',
          'severity',
          'status',
          'times_seen',
          'title',
          'tool',
        ].sort(),
      );
      // decisions.md: every finding view carries the de-duplication fields.
      expect(first.first_seen_at).toBe(first.detected_at);
      expect(first.times_seen).toBeGreaterThanOrEqual(1);
      expect(first).toMatchObject({
        title: 'Crit',
        severity: 'critical',
        remediation: `Fix ${f.crit}`,
        cve_ids: ['CVE-2024-0001'],
      });
    });

    it('keeps an old scan’s list and severities when later scans observe more', async () => {
      const later = await t.api.call(listScanFindingsRoute, { params: { scan_id: laterScanId } });
      expect(later.body.items.map((i) => [i.id, i.severity])).toEqual([
        [f.crit, 'high'],
        [f.later, 'medium'],
      ]);
      const old = await t.api.call(listScanFindingsRoute, {
        params: { scan_id: scanId },
        query: { severity: 'critical' },
      });
      expect(old.body.items.map((i) => i.id)).toEqual([f.crit]);
    });

    it('filters by severity and status and pages', async () => {
      const total = async (query: { status?: string; severity?: string }) =>
        (await t.api.call(listScanFindingsRoute, { params: { scan_id: scanId }, query })).body;
      expect(await total({ status: 'resolved' })).toMatchObject({ total: 1 });
      expect(await total({ severity: 'info' })).toMatchObject({ total: 1 });
      expect(await total({ severity: 'high' })).toMatchObject({ total: 0, pages: 0 });
      const page2 = await t.api.call(listScanFindingsRoute, {
        params: { scan_id: scanId },
        query: { per_page: 2, page: 2 },
      });
      expect(page2.body).toMatchObject({ total: 3, pages: 2, page: 2, per_page: 2 });
      expect(page2.body.items.map((i) => i.id)).toEqual([f.info]);
    });

    it('says for each finding whether this scan found it first, and filters on that change', async () => {
      const later = await t.api.call(listScanFindingsRoute, { params: { scan_id: laterScanId } });
      expect(later.body.items.map((i) => [i.id, i.change])).toEqual([
        [f.crit, 'unchanged'],
        [f.later, 'new'],
      ]);
      const fresh = await t.api.call(listScanFindingsRoute, {
        params: { scan_id: laterScanId },
        query: { change: 'new' },
      });
      expect(fresh.body.items.map((i) => i.id)).toEqual([f.later]);
      expect(fresh.body.total).toBe(1);
      const reopened = await t.api.call(listScanFindingsRoute, {
        params: { scan_id: laterScanId },
        query: { change: 'reopened' },
      });
      expect(reopened.body).toMatchObject({ total: 0, items: [] });
    });

    it.each([
      [{ severity: 'severe' }, 'severity'],
      [{ change: 'fixed' }, 'change'],
      [{ status: 'closed' }, 'status'],
      [{ per_page: 500 }, 'per_page'],
    ])('refuses %j', async (query, field) => {
      const res = await t.api.call(listScanFindingsRoute, { params: { scan_id: scanId }, query });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ field });
    });

    it('answers 404 for an unknown scan', async () => {
      expect((await t.api.call(listScanFindingsRoute, { params: { scan_id: 'scan_unknown' } })).status).toBe(
        404,
      );
    });
  });
});
