import { describe, expect, it } from 'vitest';
import { listFindingsRoute, updateFindingRoute } from '../../../server/routes/findings.ts';
import { updateFinding } from '../../../server/findings/triage.ts';
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
    for (const week of o.trend) expect(await listed(week.resolved_filter)).toBe(week.resolved);
    for (const t of o.top_targets) expect(await listed(t.filter)).toBe(t.open);
    for (const c of o.top_cves) expect(await listed(c.filter)).toBe(c.open);
  });

  it('links each week’s resolved bar to the findings resolved that week, not every resolved finding', async () => {
    const tenant = await factory.tenant(suite.app);
    const { summary } = await runScan(suite.db, tenant.orgId, [
      detection({ severity: 'high' }),
      detection({ severity: 'medium' }),
      detection({ severity: 'low' }),
    ]);
    const [now, earlier, reopened] = summary.new_finding_ids;
    for (const id of [now!, reopened!]) {
      okBody(
        await tenant.api.call(updateFindingRoute, {
          params: { finding_id: id },
          body: { status: 'resolved' },
        }),
      );
    }
    // One was resolved two weeks ago (the lifecycle's own clock); one resolved and reopened (not counted).
    const admin = { orgId: tenant.orgId, userId: tenant.admin.id, email: tenant.admin.email };
    await updateFinding(suite.db, admin, earlier!, { status: 'resolved' }, new Date(Date.now() - 14 * DAY));
    okBody(
      await tenant.api.call(updateFindingRoute, {
        params: { finding_id: reopened! },
        body: { status: 'open' },
      }),
    );

    const o = okBody(await tenant.api.call(getOverviewRoute));
    const weeks = o.trend.filter((w) => w.resolved > 0);
    expect(weeks.map((w) => w.resolved)).toEqual([1, 1]);
    for (const week of weeks) {
      const list = okBody(await tenant.api.call(listFindingsRoute, { query: week.resolved_filter }));
      expect(list.total).toBe(1);
      const resolvedAt = new Date(list.items[0]!.id === earlier ? Date.now() - 14 * DAY : Date.now());
      expect(resolvedAt.getTime()).toBeGreaterThanOrEqual(new Date(week.week_start).getTime());
      expect(resolvedAt.getTime()).toBeLessThan(new Date(week.week_end).getTime());
    }
    expect(okBody(await tenant.api.call(listFindingsRoute, { query: { status: 'resolved' } })).total).toBe(2);
  });

  it('refuses a resolved range that ends before it starts, naming resolved_to', async () => {
    const tenant = await factory.tenant(suite.app);
    const res = await tenant.api.call(listFindingsRoute, {
      query: { resolved_from: '2026-02-01', resolved_to: '2026-01-01' },
    });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error_code: 'VALIDATION_ERROR', field: 'resolved_to' });
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
