import { beforeAll, describe, expect, it } from 'vitest';
import { phasesOf } from '../../../server/scans/phases.ts';
import { listScanFindingsRoute, listScansRoute } from '../../../server/routes/scans.ts';
import { apiClient, ISO_MS, type RouteInput } from '../../helpers/api-client.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import {
  factory,
  type BuiltTenant,
  loopbackScan,
  seedObservedFinding,
  updateScan,
} from '../../helpers/factory.ts';
import { testEngine } from '../../helpers/database.ts';

type Body = Record<string, unknown>;

describe(`scans API (${testEngine})`, () => {
  let app: TestApp;
  let t: BuiltTenant;

  const suite = useTestApp({ env: { SCANWARD_SCAN_DENY: 'denied.localhost,127.0.0.99' } });
  beforeAll(async () => {
    app = suite.app;
    t = await factory.tenant(app, { plan: 'enterprise' });
  });

  const create = async (tenant: BuiltTenant, extra: Body = {}) => {
    const res = await tenant.api.post('/api/v1/scans', loopbackScan(extra));
    expect(res.status).toBe(201);
    return res.body as Body & { id: string };
  };

  describe('POST /api/v1/scans', () => {
    it('queues a pending full scan with its estimated duration in seconds', async () => {
      const before = Date.now();
      const res = await t.api.post('/api/v1/scans', { target: '127.0.0.1', authorized: true });
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
      expect(Date.parse(res.body.created_at as string)).toBeGreaterThanOrEqual(before - 1000);
    });

    it('estimates each scan type differently and stores frameworks and ports', async () => {
      const quick = await create(t, { scan_type: 'quick', ports: '22,80,8000-8100' });
      const compliance = await create(t, { scan_type: 'compliance', frameworks: ['pci-dss', 'soc2'] });
      expect(quick.estimated_duration).toBe(450);
      expect(compliance.estimated_duration).toBe(1350);
      const detail = (await t.api.get(`/api/v1/scans/${compliance.id}`)).body;
      expect(detail.frameworks).toEqual(['pci-dss', 'soc2']);
      expect(detail.ports).toBeNull();
      expect((await t.api.get(`/api/v1/scans/${quick.id}`)).body.ports).toBe('22,80,8000-8100');
    });

    it('maps a compliance scan that names no framework to all three', async () => {
      const scan = await create(t, { scan_type: 'compliance' });
      expect((await t.api.get(`/api/v1/scans/${scan.id}`)).body.frameworks).toEqual([
        'soc2',
        'pci-dss',
        'iso27001',
      ]);
    });

    it('accepts names, IPv6 and ranges inside the scope and answers them normalized', async () => {
      expect((await create(t, { target: 'LocalHost.' })).target).toBe('localhost');
      expect((await create(t, { target: '0:0:0:0:0:0:0:1' })).target).toBe('::1');
      expect((await create(t, { target: '127.0.1.7/24' })).target).toBe('127.0.1.0/24');
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
      const res = await t.api.post('/api/v1/scans', body);
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
      const res = await t.api.post('/api/v1/scans', { target, authorized: true });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ error_code: 'TARGET_NOT_ALLOWED', field: 'target' });
    });

    it('says which policy refused a public target and how to allow public targets', async () => {
      const res = await t.api.post('/api/v1/scans', { target: '8.8.8.8', authorized: true });
      expect(res.status).toBe(422);
      const detail = (res.body as { detail: string }).detail;
      expect(detail).toContain('SCANWARD_SCAN_ALLOW');
      expect(detail).toMatch(/adds `public` to SCANWARD_SCAN_ALLOW/);
    });

    it('refuses a range that reaches a denied address', async () => {
      const res = await t.api.post('/api/v1/scans', { target: '127.0.0.96/29', authorized: true });
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

  describe('GET /api/v1/scans/{scan_id}', () => {
    it('shows a pending scan at the first phase of its type with progress 0 and no started/completed keys', async () => {
      const scan = await create(t, { scan_type: 'quick' });
      const res = await t.api.get(`/api/v1/scans/${scan.id}`);
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
      const scan = await create(t);
      const startedAt = new Date(Date.now() - 60_000);
      await updateScan(app, t.orgId, scan.id, {
        status: 'running',
        phase: 'vulnerability_scanning',
        progress: 35,
        current_tool: 'tcp-connect',
        phases_completed: ['discovery', 'enumeration'],
        started_at: startedAt,
      });
      const body = (await t.api.get(`/api/v1/scans/${scan.id}`)).body;
      expect(body).toMatchObject({
        status: 'running',
        phase: 'vulnerability_scanning',
        progress: 35,
        current_tool: 'tcp-connect',
        started_at: startedAt.toISOString(),
        phases_completed: ['discovery', 'enumeration'],
      });
      expect([...(body.phases_completed as string[]), ...(body.phases_remaining as string[])]).toEqual(
        phasesOf('full'),
      );
      expect(body).not.toHaveProperty('completed_at');
    });

    it('shows a completed scan with its counts from observations, completion time and changes, without a tool', async () => {
      const scan = await create(t);
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
      const body = (await t.api.get(`/api/v1/scans/${scan.id}`)).body;
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
      const scan = await create(t);
      await updateScan(app, t.orgId, scan.id, {
        status: 'failed',
        phase: 'enumeration',
        progress: 12,
        error: 'runner lost',
      });
      const body = (await t.api.get(`/api/v1/scans/${scan.id}`)).body;
      expect(body).toMatchObject({
        status: 'failed',
        phase: 'enumeration',
        progress: 12,
        error: 'runner lost',
      });
      expect(body).not.toHaveProperty('message');
    });

    it('answers 404 for an unknown id', async () => {
      const res = await t.api.get('/api/v1/scans/scan_doesnotexist0000000000000');
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error_code: 'NOT_FOUND' });
    });
  });

  describe('DELETE /api/v1/scans/{scan_id}', () => {
    it('cancels a pending scan with a message and keeps it', async () => {
      const scan = await create(t);
      const res = await t.api.del(`/api/v1/scans/${scan.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: scan.id,
        status: 'cancelled',
        message: expect.stringContaining('cancelled'),
      });
      const detail = (await t.api.get(`/api/v1/scans/${scan.id}`)).body;
      expect(detail).toMatchObject({
        status: 'cancelled',
        message: res.body.message,
        phase: 'discovery',
        progress: 0,
      });
      const again = await t.api.del(`/api/v1/scans/${scan.id}`);
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ error_code: 'SCAN_NOT_CANCELLABLE' });
    });

    it('cancels a running scan, keeping its phase, progress and findings', async () => {
      const scan = await create(t);
      await seedObservedFinding(app, t.orgId, scan.id, { severity: 'high' });
      await updateScan(app, t.orgId, scan.id, {
        status: 'running',
        phase: 'web_analysis',
        progress: 50,
        current_tool: 'http',
      });
      expect((await t.api.del(`/api/v1/scans/${scan.id}`)).status).toBe(200);
      const detail = (await t.api.get(`/api/v1/scans/${scan.id}`)).body;
      expect(detail).toMatchObject({
        status: 'cancelled',
        phase: 'web_analysis',
        progress: 50,
        high_count: 1,
      });
      expect(detail).not.toHaveProperty('current_tool');
      expect((await t.api.get(`/api/v1/scans/${scan.id}/findings`)).body.total).toBe(1);
    });

    it.each(['completed', 'failed'] as const)(
      'refuses to cancel a %s scan and changes nothing',
      async (status) => {
        const scan = await create(t);
        await updateScan(app, t.orgId, scan.id, {
          status,
          phase: status === 'completed' ? 'complete' : 'discovery',
        });
        const res = await t.api.del(`/api/v1/scans/${scan.id}`);
        expect(res.status).toBe(409);
        expect(res.body).toMatchObject({ error_code: 'SCAN_NOT_CANCELLABLE' });
        expect((await t.api.get(`/api/v1/scans/${scan.id}`)).body.status).toBe(status);
      },
    );

    it('answers 404 for an unknown id', async () => {
      expect((await t.api.del('/api/v1/scans/scan_nope')).status).toBe(404);
    });
  });

  describe('GET /api/v1/scans', () => {
    let u: BuiltTenant;
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      u = await factory.tenant(app, { plan: 'enterprise' });
      const at = (iso: string) => new Date(iso);
      const plan: [string, Body, Date, Body][] = [
        ['a', { target: 'LOCALHOST' }, at('2026-01-10T12:00:00Z'), {}],
        [
          'b',
          { target: '127.0.0.1' },
          at('2026-01-20T00:00:00Z'),
          { status: 'running', phase: 'enumeration', progress: 20 },
        ],
        [
          'c',
          { target: '127.0.0.2' },
          at('2026-01-31T23:59:59.999Z'),
          { status: 'completed', phase: 'complete', progress: 100, completed_at: at('2026-02-01T01:00:00Z') },
        ],
        ['d', { target: '127.0.0.1' }, at('2026-02-01T00:00:00Z'), { status: 'failed', error: 'boom' }],
        [
          'e',
          { target: '127.0.0.1' },
          at('2026-02-02T00:00:00Z'),
          { status: 'cancelled', message: 'Scan cancelled by x' },
        ],
      ];
      for (const [name, body, createdAt, state] of plan) {
        const scan = await create(u, body);
        ids[name] = scan.id;
        await updateScan(app, u.orgId, scan.id, { created_at: createdAt, ...state });
      }
    });

    const list = async (query: RouteInput<typeof listScansRoute>['query'] = {}) => {
      const res = await u.api.call(listScansRoute, { query });
      expect(res.status).toBe(200);
      return res.body;
    };

    it('lists the organization’s scans newest first in the full envelope, with the list view fields', async () => {
      const page = await list();
      expect(page).toMatchObject({ total: 5, page: 1, per_page: 20, pages: 1 });
      expect(page.items.map((s) => s.id)).toEqual(['e', 'd', 'c', 'b', 'a'].map((n) => ids[n]));
      const [cancelled, failed, completed] = page.items;
      expect(cancelled).toMatchObject({ status: 'cancelled', message: 'Scan cancelled by x' });
      expect(failed).toMatchObject({ status: 'failed', error: 'boom' });
      expect(completed).toMatchObject({
        completed_at: '2026-02-01T01:00:00.000Z',
        progress: 100,
        phase: 'complete',
      });
      for (const item of page.items) {
        for (const key of ['phases_completed', 'current_tool', 'started_at', 'frameworks']) {
          expect(item).not.toHaveProperty(key);
        }
      }
    });

    it('filters by status', async () => {
      expect((await list({ status: 'running' })).items.map((s) => s.id)).toEqual([ids.b]);
      expect((await list({ status: 'pending' })).items.map((s) => s.id)).toEqual([ids.a]);
      expect((await list({ status: 'failed' })).total).toBe(1);
      expect((await list({ status: 'completed' })).total).toBe(1);
      // Every status a scan can have is a filter, `cancelled` included (issue 9).
      expect((await list({ status: 'cancelled' })).items.map((s) => s.id)).toEqual([ids.e]);
    });

    it.each(['done', 'PENDING'])('refuses status=%s', async (status) => {
      const res = await u.api.get(`/api/v1/scans?status=${status}`);
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ error_code: 'VALIDATION_ERROR', field: 'status' });
    });

    it('filters by exact target, ignoring case', async () => {
      expect((await list({ target: '127.0.0.1' })).items.map((s) => s.id)).toEqual([ids.e, ids.d, ids.b]);
      expect((await list({ target: 'LocalHost' })).items.map((s) => s.id)).toEqual([ids.a]);
      expect((await list({ target: '127.0.0' })).total).toBe(0);
    });

    it('filters by from_date inclusive and to_date exclusive, a date alone meaning 00:00Z', async () => {
      expect((await list({ from_date: '2026-02-01' })).items.map((s) => s.id)).toEqual([ids.e, ids.d]);
      expect((await list({ to_date: '2026-02-01' })).items.map((s) => s.id)).toEqual([ids.c, ids.b, ids.a]);
      expect(
        (await list({ from_date: '2026-01-20', to_date: '2026-02-01T00:00:00.001Z' })).items.map((s) => s.id),
      ).toEqual([ids.d, ids.c, ids.b]);
      expect(
        (await list({ from_date: '2026-01-20T01:00:00+01:00', to_date: '2026-01-20T00:00:00.001Z' })).items,
      ).toHaveLength(1);
    });

    it.each([
      ['from_date=yesterday', 'from_date'],
      ['to_date=2026-02-30', 'to_date'],
      ['page=0', 'page'],
      ['per_page=0', 'per_page'],
      ['per_page=101', 'per_page'],
      ['page=x', 'page'],
    ])('refuses %s naming %s', async (query, field) => {
      const res = await u.api.get(`/api/v1/scans?${query}`);
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ error_code: 'VALIDATION_ERROR', field });
    });

    it('combines filters and pages, with an empty page past the end', async () => {
      const first = await list({ target: '127.0.0.1', per_page: 2 });
      expect(first).toMatchObject({ total: 3, pages: 2, per_page: 2 });
      expect(first.items.map((s) => s.id)).toEqual([ids.e, ids.d]);
      expect((await list({ target: '127.0.0.1', per_page: 2, page: 2 })).items.map((s) => s.id)).toEqual([
        ids.b,
      ]);
      expect(await list({ target: '127.0.0.1', per_page: 2, page: 3 })).toMatchObject({
        items: [],
        total: 3,
        pages: 2,
      });
    });

    it('pages through scans created at the same instant without repeating or missing one', async () => {
      const v = await factory.tenant(app, { plan: 'enterprise' });
      const tie = new Date('2026-03-01T00:00:00Z');
      const created: string[] = [];
      for (let i = 0; i < 7; i++) {
        const scan = await create(v);
        created.push(scan.id);
        await updateScan(app, v.orgId, scan.id, { created_at: tie });
      }
      const seen: string[] = [];
      for (let page = 1; page <= 3; page++) {
        const res = await v.api.call(listScansRoute, { query: { per_page: 3, page } });
        expect(res.body.pages).toBe(3);
        seen.push(...res.body.items.map((s) => s.id));
      }
      expect(seen).toHaveLength(7);
      expect(new Set(seen)).toEqual(new Set(created));
      expect(seen).toEqual([...created].sort().reverse());
    });

    it('answers an empty envelope with pages 0 for an organization without scans', async () => {
      const empty = await factory.tenant(app, { plan: 'professional' });
      expect((await empty.api.get('/api/v1/scans')).body).toEqual({
        items: [],
        total: 0,
        page: 1,
        per_page: 20,
        pages: 0,
      });
    });
  });

  describe('GET /api/v1/scans/{scan_id}/findings', () => {
    let scanId: string;
    let laterScanId: string;
    const f: Record<string, string> = {};

    beforeAll(async () => {
      scanId = (await create(t)).id;
      laterScanId = (await create(t)).id;
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
      expect((await t.api.get(`/api/v1/scans/${scanId}/findings?status=resolved`)).body).toMatchObject({
        total: 1,
      });
      expect((await t.api.get(`/api/v1/scans/${scanId}/findings?severity=info`)).body).toMatchObject({
        total: 1,
      });
      expect((await t.api.get(`/api/v1/scans/${scanId}/findings?severity=high`)).body).toMatchObject({
        total: 0,
        pages: 0,
      });
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
      const reopened = await t.api.get(`/api/v1/scans/${laterScanId}/findings?change=reopened`);
      expect(reopened.body).toMatchObject({ total: 0, items: [] });
    });

    it.each([
      ['severity=severe', 'severity'],
      ['change=fixed', 'change'],
      ['status=closed', 'status'],
      ['per_page=500', 'per_page'],
    ])('refuses %s', async (query, field) => {
      const res = await t.api.get(`/api/v1/scans/${scanId}/findings?${query}`);
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ field });
    });

    it('answers 404 for an unknown scan', async () => {
      expect((await t.api.get('/api/v1/scans/scan_unknown/findings')).status).toBe(404);
    });
  });

  describe('GET /api/v1/scans/quota', () => {
    it('reports unlimited as -1 and counts this UTC month’s scans', async () => {
      const e = await factory.tenant(app, { plan: 'enterprise' });
      await create(e);
      const old = await create(e);
      await updateScan(app, e.orgId, old.id, { created_at: new Date(Date.UTC(2020, 0, 1)) });
      const now = new Date();
      const res = await e.api.get('/api/v1/scans/quota');
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
      await create(s);
      expect((await s.api.get('/api/v1/scans/quota')).body).toMatchObject({
        plan: 'startup',
        monthly_limit: 25,
        used_this_month: 1,
        remaining: 24,
      });
    });
  });

  describe('literal segments under /scans', () => {
    it('answers 405 for methods /scans/quota and /scans/schedules do not have, not a scan lookup', async () => {
      const quota = await t.api.del('/api/v1/scans/quota');
      expect(quota.status).toBe(405);
      expect(quota.headers.get('allow')).toBe('GET');
      const schedules = await t.api.del('/api/v1/scans/schedules');
      expect(schedules.status).toBe(405);
      expect(schedules.body).toMatchObject({ error_code: 'METHOD_NOT_ALLOWED' });
      expect((await t.api.post('/api/v1/scans/quota', {})).status).toBe(405);
    });
  });

  describe('permissions', () => {
    it('needs credentials', async () => {
      const anonymous = apiClient(app);
      expect((await anonymous.get('/api/v1/scans')).body).toMatchObject({
        error_code: 'AUTHENTICATION_REQUIRED',
      });
      expect((await anonymous.post('/api/v1/scans', loopbackScan())).status).toBe(401);
    });

    it('lets a read:scans key read but not create or cancel', async () => {
      const p = await factory.tenant(app, { plan: 'professional' });
      const scan = await create(p);
      const reader = await p.keyClient(['read:scans']);
      expect((await reader.get('/api/v1/scans')).status).toBe(200);
      expect((await reader.get(`/api/v1/scans/${scan.id}`)).status).toBe(200);
      expect((await reader.get(`/api/v1/scans/${scan.id}/findings`)).status).toBe(200);
      expect((await reader.get('/api/v1/scans/quota')).status).toBe(200);
      const post = await reader.post('/api/v1/scans', loopbackScan());
      expect(post.status).toBe(403);
      expect(post.body).toMatchObject({ error_code: 'INSUFFICIENT_PERMISSION' });
      expect((await reader.del(`/api/v1/scans/${scan.id}`)).status).toBe(403);
      expect((await p.api.get(`/api/v1/scans/${scan.id}`)).body.status).toBe('pending');
    });

    it('lets a write:scans key create and cancel but not read', async () => {
      const p = await factory.tenant(app, { plan: 'professional' });
      const writer = await p.keyClient(['write:scans']);
      const created = await writer.post('/api/v1/scans', loopbackScan());
      expect(created.status).toBe(201);
      expect((await writer.del(`/api/v1/scans/${created.body.id as string}`)).status).toBe(200);
      expect((await writer.get('/api/v1/scans')).status).toBe(403);
      const findingsKey = await p.keyClient(['read:findings', 'write:findings', 'read:grc']);
      expect((await findingsKey.get('/api/v1/scans/quota')).status).toBe(403);
    });

    it('lets a member create and cancel scans', async () => {
      const member = await t.addUser('member');
      const api = apiClient(app, { token: await t.login(member) });
      const created = await api.post('/api/v1/scans', loopbackScan());
      expect(created.status).toBe(201);
      expect((await api.del(`/api/v1/scans/${created.body.id as string}`)).status).toBe(200);
    });
  });

  describe('another organization', () => {
    it('never sees, cancels or learns of a scan that is not its own', async () => {
      const owner = await factory.tenant(app, { plan: 'professional' });
      const other = await factory.tenant(app, { plan: 'enterprise' });
      const scan = await create(owner);
      await seedObservedFinding(app, owner.orgId, scan.id, { severity: 'high' });
      const missing = 'scan_000000000000000000000000';
      for (const id of [scan.id, missing]) {
        for (const res of [
          await other.api.get(`/api/v1/scans/${id}`),
          await other.api.del(`/api/v1/scans/${id}`),
          await other.api.get(`/api/v1/scans/${id}/findings`),
        ]) {
          expect(res.status).toBe(404);
          expect(res.body).toEqual({ detail: 'scan not found', error_code: 'NOT_FOUND' });
        }
      }
      expect((await other.api.get(`/api/v1/scans?target=127.0.0.1`)).body.total).toBe(0);
      expect((await other.api.get('/api/v1/scans/quota')).body.used_this_month).toBe(0);
      const mine = (await owner.api.get(`/api/v1/scans/${scan.id}`)).body;
      expect(mine).toMatchObject({ status: 'pending', high_count: 1 });
    });
  });

  describe('Idempotency-Key', () => {
    it('answers a repeat with the same key and body exactly like the first, creating nothing', async () => {
      const k = await factory.tenant(app, { plan: 'professional' });
      const headers = { headers: { 'Idempotency-Key': 'create-1' } };
      const first = await k.api.post('/api/v1/scans', loopbackScan({ scan_type: 'quick' }), headers);
      expect(first.status).toBe(201);
      // Same body in another key order and with the default spelled out.
      const again = await k.api.post(
        '/api/v1/scans',
        { authorized: true, scan_type: 'quick', target: '127.0.0.1' },
        headers,
      );
      expect(again.status).toBe(201);
      expect(JSON.stringify(again.body)).toBe(JSON.stringify(first.body));
      expect((await k.api.get('/api/v1/scans')).body.total).toBe(1);
      expect((await k.api.get('/api/v1/scans/quota')).body.used_this_month).toBe(1);
    });

    it('refuses the same key with a different body, naming the header', async () => {
      const k = await factory.tenant(app, { plan: 'professional' });
      const headers = { headers: { 'Idempotency-Key': 'create-2' } };
      expect((await k.api.post('/api/v1/scans', loopbackScan(), headers)).status).toBe(201);
      const res = await k.api.post('/api/v1/scans', loopbackScan({ target: '127.0.0.2' }), headers);
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ error_code: 'VALIDATION_ERROR', field: 'Idempotency-Key' });
      expect((await k.api.get('/api/v1/scans')).body.total).toBe(1);
    });

    it('scopes keys to the organization', async () => {
      const a = await factory.tenant(app, { plan: 'professional' });
      const b = await factory.tenant(app, { plan: 'professional' });
      const headers = { headers: { 'Idempotency-Key': 'shared-key' } };
      const fromA = await a.api.post('/api/v1/scans', loopbackScan(), headers);
      const fromB = await b.api.post('/api/v1/scans', loopbackScan(), headers);
      expect(fromB.status).toBe(201);
      expect(fromB.body.id).not.toBe(fromA.body.id);
    });

    it('forgets a key after 24 hours', async () => {
      const k = await factory.tenant(app, { plan: 'professional' });
      const headers = { headers: { 'Idempotency-Key': 'old-key' } };
      const first = await k.api.post('/api/v1/scans', loopbackScan(), headers);
      // eslint-disable-next-line no-restricted-syntax -- no route ages a key: its row is moved 24 hours back in place
      await app.services
        .db('idempotency_keys')
        .where({ org_id: k.orgId, key: 'old-key' })
        .update({ created_at: new Date(Date.now() - 24 * 3600 * 1000 - 1000) });
      const later = await k.api.post('/api/v1/scans', loopbackScan({ target: '127.0.0.3' }), headers);
      expect(later.status).toBe(201);
      expect(later.body.id).not.toBe(first.body.id);
      const replay = await k.api.post('/api/v1/scans', loopbackScan({ target: '127.0.0.3' }), headers);
      expect(replay.body.id).toBe(later.body.id);
    });

    it('creates one scan for simultaneous requests with one key', async () => {
      const k = await factory.tenant(app, { plan: 'professional', limits: { concurrent: -1 } });
      const headers = { headers: { 'Idempotency-Key': 'burst' } };
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => k.api.post('/api/v1/scans', loopbackScan(), headers)),
      );
      expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201]);
      expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
      expect((await k.api.get('/api/v1/scans')).body.total).toBe(1);
    });

    it.each(['', 'has space', 'x'.repeat(256), 'tab\there'])('refuses the malformed key %j', async (key) => {
      const res = await t.api.post('/api/v1/scans', loopbackScan(), { headers: { 'Idempotency-Key': key } });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ error_code: 'VALIDATION_ERROR', field: 'Idempotency-Key' });
    });
  });
});

async function bearer(tenant: BuiltTenant) {
  return { authorization: `Bearer ${await tenant.login()}` };
}
