import { describe, expect, it } from 'vitest';
import { listFindingsRoute, updateFindingRoute } from '../../../server/routes/findings.ts';
import { getOverviewRoute } from '../../../server/routes/overview.ts';
import { okBody } from '../../helpers/api-client.ts';
import { detection, factory, insertScan, runScan } from '../../helpers/factory.ts';
import { useTestApp } from '../../helpers/suite-app.ts';

/** GET /api/v1/overview: every figure, and the findings list its `filter` names. PGlite and PostgreSQL. */
describe('overview', () => {
  const suite = useTestApp();
  const DAY = 86_400_000;

  it('counts open, overdue, KEV, age, weekly, target and CVE figures, each matching the list its filter names', async () => {
    const tenant = await factory.tenant(suite.app);
    const longAgo = new Date(Date.now() - 40 * DAY);
    await runScan(
      suite.db,
      tenant.orgId,
      [
        detection({ severity: 'critical', kev: true, cve_ids: ['CVE-2021-44228'], target: '127.0.0.2' }),
        detection({ severity: 'high', cve_ids: ['CVE-2023-1111'], target: '127.0.0.1' }),
      ],
      { now: longAgo },
    );
    await runScan(suite.db, tenant.orgId, [
      detection({ severity: 'medium', cve_ids: ['CVE-2023-1111'], target: '127.0.0.1' }),
      detection({ severity: 'low', target: '127.0.0.1' }),
      detection({ severity: 'info', target: '127.0.0.1' }),
    ]);
    const low = okBody(await tenant.api.call(listFindingsRoute, { query: { severity: 'low' } }));
    const resolvedId = low.items[0]!.id;
    okBody(
      await tenant.api.call(updateFindingRoute, {
        params: { finding_id: resolvedId },
        body: { status: 'resolved' },
      }),
    );
    const running = await insertScan(suite.db, tenant.orgId, { status: 'running' });

    const o = okBody(await tenant.api.call(getOverviewRoute));
    expect(o.open.by_severity).toEqual({ critical: 1, high: 1, medium: 1, low: 0, info: 1 });
    expect(o.open.total).toBe(4);
    expect(o.overdue.total).toBe(2); // the critical (7 days) and the high (30 days), 40 days old
    expect(o.kev.total).toBe(1);
    expect(o.open_by_age.map((b) => [b.label, b.count])).toEqual([
      ['0–7 days', 2],
      ['8–30 days', 0],
      ['31–90 days', 2],
      ['91–180 days', 0],
      ['Over 180 days', 0],
    ]);
    expect(o.trend).toHaveLength(12);
    const thisWeek = o.trend.at(-1)!;
    expect(thisWeek).toMatchObject({ new: 3, resolved: 1 });
    expect(o.trend.reduce((n, w) => n + w.new, 0)).toBe(5);
    expect(new Date(thisWeek.week_start).getUTCDay()).toBe(1);
    expect(o.top_targets[0]).toMatchObject({ target: '127.0.0.1', open: 3 });
    expect(o.top_targets[0]!.by_severity).toMatchObject({ high: 1, medium: 1, info: 1, low: 0 });
    expect(o.top_cves.map((c) => [c.cve, c.kev, c.open, c.severity])).toEqual([
      ['CVE-2021-44228', true, 1, 'critical'],
      ['CVE-2023-1111', false, 2, 'high'],
    ]);
    expect(o.running_scans?.items.map((s) => s.id)).toEqual([running.id]);
    expect(o.running_scans?.total).toBe(1);

    // Every figure's filter lists exactly the findings it counted.
    const listed = async (filter: Record<string, string>) =>
      okBody(await tenant.api.call(listFindingsRoute, { query: filter })).total;
    expect(await listed(o.open.filter)).toBe(o.open.total);
    expect(await listed(o.overdue.filter)).toBe(o.overdue.total);
    expect(await listed(o.kev.filter)).toBe(o.kev.total);
    for (const bucket of o.open_by_age) expect(await listed(bucket.filter)).toBe(bucket.count);
    for (const week of o.trend) expect(await listed(week.filter)).toBe(week.new);
    for (const t of o.top_targets) expect(await listed(t.filter)).toBe(t.open);
    for (const c of o.top_cves) expect(await listed(c.filter)).toBe(c.open);
  });

  it('shows another organization nothing, and an empty organization zeros', async () => {
    const tenant = await factory.tenant(suite.app);
    await runScan(suite.db, tenant.orgId, [detection({ severity: 'critical' })]);
    const other = await factory.tenant(suite.app);
    const o = okBody(await other.api.call(getOverviewRoute));
    expect(o.open.total).toBe(0);
    expect(o.overdue.total).toBe(0);
    expect(o.top_targets).toEqual([]);
    expect(o.top_cves).toEqual([]);
    expect(o.trend.every((w) => w.new === 0 && w.resolved === 0)).toBe(true);
    expect(o.running_scans).toEqual({ total: 0, items: [] });
  });
});
