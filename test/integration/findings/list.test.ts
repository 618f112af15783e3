import { beforeAll, describe, expect, it } from 'vitest';
import { listFindingsRoute, updateFindingRoute } from '../../../server/routes/findings.ts';
import { okBody, type ApiClient, type RouteInput } from '../../helpers/api-client.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory, detection, runScan } from '../../helpers/factory.ts';
import { testEngine } from '../../helpers/database.ts';

interface Row {
  id: string;
  severity_rank: number;
  detected_at: Date;
  cvss_score: number;
}

type ListQuery = NonNullable<RouteInput<typeof listFindingsRoute>['query']>;

const DAY = 86_400_000;
const RANK = { critical: 4, high: 3, medium: 2, low: 1, info: 0 } as const;
const VECTORS = {
  high: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N', // 7.5
  medium: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:L/A:N', // 6.5
  low: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N', // 3.1
};

describe(`findings list: filters, sorting and pagination (${testEngine})`, () => {
  const suite = useTestApp();

  const listPage = async (api: ApiClient, query: ListQuery = {}) =>
    okBody(await api.call(listFindingsRoute, { query }), 200);

  /**
   * A tenant with sixteen findings from three scans on different days; many share severity,
   * detection time and score (ties). `rows` are the findings as the list answers them.
   */
  const seeded = async () => {
    const tenant = await factory.tenant(suite.app, { plan: 'enterprise' });
    const { orgId } = tenant;
    const api = await tenant.client();
    const db = suite.db;
    const now = Date.now();
    const first = await runScan(
      db,
      orgId,
      [
        ...Array.from({ length: 5 }, () => detection({ severity: 'high', cvss_vector: VECTORS.high })),
        detection({ severity: 'critical', cve_ids: ['CVE-2021-44228', 'CVE-2021-45046'], tool: 'nuclei' }),
        detection({ severity: 'low', cvss_vector: VECTORS.low, target: 'App.Example.test' }),
      ],
      { now: new Date(now - 3 * DAY) },
    );
    await runScan(
      db,
      orgId,
      [
        ...Array.from({ length: 4 }, () => detection({ severity: 'medium', cvss_vector: VECTORS.medium })),
        detection({ severity: 'high', cvss_vector: VECTORS.high, target: 'app.example.test.evil' }),
        detection({ severity: 'info', cvss_vector: null, tool: 'nuclei', cve_ids: ['CVE-2021-44228'] }),
      ],
      { now: new Date(now - 2 * DAY) },
    );
    const [critical] = (await listPage(api, { severity: 'critical' })).items;
    const last = await runScan(
      db,
      orgId,
      [
        ...Array.from({ length: 3 }, () => detection({ severity: 'high', cvss_vector: VECTORS.high })),
        detection({
          severity: 'critical',
          check_id: critical!.template_id,
          cve_ids: ['CVE-2021-44228', 'CVE-2021-45046'],
          tool: 'nuclei',
        }),
      ],
      { now: new Date(now - DAY) },
    );
    const rows: Row[] = (await listPage(api, { per_page: 100 })).items.map((f) => ({
      id: f.id,
      severity_rank: RANK[f.severity],
      detected_at: new Date(f.detected_at),
      cvss_score: f.cvss_score,
    }));
    expect(rows).toHaveLength(16);
    return { api, rows, firstScan: first.scan.id, lastScan: last.scan.id };
  };

  // The tests that only read share one seeded tenant; a test that changes a finding seeds its own.
  let shared: Awaited<ReturnType<typeof seeded>>;
  beforeAll(async () => {
    shared = await seeded();
  });
  const list = (query: ListQuery = {}) => listPage(shared.api, query);

  /** Walks every page and returns the ids in the order served. */
  const walk = async (query: ListQuery, perPage: number) => {
    const ids: string[] = [];
    const first = await list({ ...query, per_page: perPage, page: 1 });
    ids.push(...first.items.map((i) => i.id));
    for (let page = 2; page <= first.pages; page++) {
      ids.push(...(await list({ ...query, per_page: perPage, page })).items.map((i) => i.id));
    }
    return { ids, total: first.total, pages: first.pages };
  };

  const byKeys =
    (keys: ((r: Row) => number | string)[], direction: 1 | -1) =>
    (a: Row, b: Row): number => {
      for (const key of keys) {
        const x = key(a);
        const y = key(b);
        if (x < y) return -direction;
        if (x > y) return direction;
      }
      return 0;
    };
  const expected = (sort: 'severity' | 'created_at' | 'cvss_score', order: 'asc' | 'desc') => {
    const keys: Record<typeof sort, ((r: Row) => number | string)[]> = {
      severity: [(r) => r.severity_rank, (r) => r.detected_at.getTime(), (r) => r.id],
      created_at: [(r) => r.detected_at.getTime(), (r) => r.id],
      cvss_score: [(r) => r.cvss_score, (r) => r.id],
    };
    return [...shared.rows].sort(byKeys(keys[sort], order === 'asc' ? 1 : -1)).map((r) => r.id);
  };

  it('orders by severity, then most recent detection, by default', async () => {
    const { ids } = await walk({}, 100);
    expect(ids).toEqual(expected('severity', 'desc'));
    const { items } = await list({ per_page: 100 });
    expect(items.map((i) => i.severity).slice(0, 2)).toEqual(['critical', 'high']);
  });

  for (const sort of ['severity', 'created_at', 'cvss_score'] as const) {
    for (const order of ['asc', 'desc'] as const) {
      it(`serves every finding exactly once across pages sorted by ${sort} ${order}, ties broken by id`, async () => {
        const { ids, total, pages } = await walk({ sort, order }, 3);
        expect(total).toBe(16);
        expect(pages).toBe(6);
        expect(new Set(ids).size).toBe(16);
        expect(ids).toEqual(expected(sort, order));
      });
    }
  }

  it('defaults the order to desc for an explicit sort', async () => {
    expect((await walk({ sort: 'cvss_score' }, 100)).ids).toEqual(expected('cvss_score', 'desc'));
  });

  it('returns empty items past the last page, with the total', async () => {
    const res = await list({ per_page: 10, page: 3 });
    expect(res).toEqual({ items: [], total: 16, page: 3, per_page: 10, pages: 2 });
  });

  it('filters by severity, tool and CVE (ignoring the CVE id case)', async () => {
    expect((await list({ severity: 'high' })).total).toBe(9);
    expect((await list({ severity: 'high' })).items.every((i) => i.severity === 'high')).toBe(true);
    expect((await list({ tool: 'nuclei' })).total).toBe(2);
    const cve = await list({ cve: 'cve-2021-44228' });
    expect(cve.total).toBe(2);
    expect(cve.items.every((i) => i.cve_ids.includes('CVE-2021-44228'))).toBe(true);
    expect((await list({ cve: 'CVE-2021-45046' })).total).toBe(1);
    expect((await list({ cve: 'CVE-1999-0001' })).total).toBe(0);
  });

  it('filters by status', async () => {
    const { api, rows } = await seeded();
    const [one] = rows;
    const body = { status: 'accepted' as const, justification: 'a known risk' };
    okBody(await api.call(updateFindingRoute, { params: { finding_id: one!.id }, body }), 200);
    expect((await listPage(api, { status: 'accepted' })).items.map((i) => i.id)).toEqual([one!.id]);
    expect((await listPage(api, { status: 'open' })).total).toBe(15);
  });

  it('matches the target and the targets it begins up to a dot, ignoring case (docs/findings-search.md)', async () => {
    const res = await list({ target: 'APP.EXAMPLE.TEST' });
    expect(res.items.map((i) => i.target).sort()).toEqual(['App.Example.test', 'app.example.test.evil']);
    const exact = await list({ target: 'app.example.test.evil' });
    expect(exact.items.map((i) => i.target)).toEqual(['app.example.test.evil']);
  });

  it('filters by scan through its observations: a scan lists what it saw, including findings another scan owns', async () => {
    const last = await list({ scan_id: shared.lastScan, per_page: 100 });
    expect(last.total).toBe(4);
    expect(last.items.map((i) => i.severity).sort()).toEqual(['critical', 'high', 'high', 'high']);
    expect((await list({ scan_id: shared.firstScan })).total).toBe(7);
    expect((await list({ scan_id: 'scan_unknown' })).total).toBe(0);
  });

  it('combines filters with sorting and pagination', async () => {
    const { ids, total } = await walk(
      { scan_id: shared.firstScan, severity: 'high', sort: 'created_at', order: 'asc' },
      2,
    );
    expect(total).toBe(5);
    const { rows } = shared;
    const highFirst = rows.filter(
      (r) =>
        r.severity_rank === 3 &&
        r.detected_at.getTime() === Math.min(...rows.map((x) => x.detected_at.getTime())),
    );
    expect(ids).toEqual(highFirst.map((r) => r.id).sort());
  });
});
