import { beforeAll, describe, expect, it } from 'vitest';
import { listScansRoute } from '../../../server/routes/scans.ts';
import type { RouteInput } from '../../helpers/api-client.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory, type BuiltTenant, updateScan } from '../../helpers/factory.ts';
import { testEngine } from '../../helpers/database.ts';
import { createScan, type ScanRequest } from './requests.ts';

describe(`scans API: the list of scans: filters and pages (${testEngine})`, () => {
  let app: TestApp;

  const suite = useTestApp();
  beforeAll(() => {
    app = suite.app;
  });

  describe('GET /api/v1/scans', () => {
    let u: BuiltTenant;
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      u = await factory.tenant(app, { plan: 'enterprise' });
      const at = (iso: string) => new Date(iso);
      const plan: [string, Partial<ScanRequest>, Date, Parameters<typeof updateScan>[3]][] = [
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
        const scan = await createScan(u, body);
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
      const res = await u.api.call(listScansRoute, { query: { status } });
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
      [{ from_date: 'yesterday' }, 'from_date'],
      [{ to_date: '2026-02-30' }, 'to_date'],
      [{ page: 0 }, 'page'],
      [{ per_page: 0 }, 'per_page'],
      [{ per_page: 101 }, 'per_page'],
      [{ page: 'x' }, 'page'],
    ])('refuses %j naming %s', async (query, field) => {
      const res = await u.api.call(listScansRoute, { query });
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
        const scan = await createScan(v);
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
      expect((await empty.api.call(listScansRoute)).body).toEqual({
        items: [],
        total: 0,
        page: 1,
        per_page: 20,
        pages: 0,
      });
    });
  });
});
