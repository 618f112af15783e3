import { describe, expect, it } from 'vitest';
import {
  bulkUpdateFindingsRoute,
  findingStatsRoute,
  listFindingsRoute,
  updateFindingRoute,
} from '../../../server/routes/findings.ts';
import { expectError, okBody, type ApiClient, type RouteInput } from '../../helpers/api-client.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory, detection, runScan } from '../../helpers/factory.ts';
import { testEngine } from '../../helpers/database.ts';

const DAY = 86_400_000;

describe(`findings statistics (${testEngine})`, () => {
  const suite = useTestApp();

  /**
   * A tenant with five findings: two resolved by scans (one this week), three detected this
   * week of which one is accepted.
   */
  const seeded = async (): Promise<ApiClient> => {
    const db = suite.db;
    const tenant = await factory.tenant(suite.app);
    const { orgId } = tenant;
    const { api } = tenant;
    const now = Date.now();
    const at = (days: number) => new Date(now - days * DAY);
    const cover = (d: ReturnType<typeof detection>) => ({
      target: d.target,
      check_id: d.check_id,
      port: d.port ?? null,
    });

    // Detected 20 days ago, resolved by a scan 10 days ago: 10 days to resolve, not this week.
    const old = detection({ severity: 'high', tool: 'nuclei' });
    await runScan(db, orgId, [old], { now: at(20) });
    await runScan(db, orgId, [], { now: at(10), extraCoverage: [cover(old)] });
    // Detected 10 days ago, resolved by a scan 4 days ago: 6 days to resolve, this week.
    const recent = detection({ severity: 'medium', tool: 'nuclei' });
    await runScan(db, orgId, [recent], { now: at(10) });
    await runScan(db, orgId, [], { now: at(4), extraCoverage: [cover(recent)] });
    // Detected this week and still open, on another target.
    await runScan(
      db,
      orgId,
      [
        detection({
          severity: 'critical',
          target: 'db.example.test',
          affected_component: 'postgresql://db.example.test:5432',
        }),
        detection({ severity: 'info', target: 'db.example.test', tool: 'scanward-tcp' }),
        detection({ severity: 'low' }),
      ],
      { now: at(2) },
    );
    const [low] = okBody(await api.call(listFindingsRoute, { query: { severity: 'low' } }), 200).items;
    const body = { status: 'accepted' as const, justification: 'a known risk' };
    okBody(await api.call(updateFindingRoute, { params: { finding_id: low!.id }, body }), 200);
    return api;
  };

  const stats = async (api: ApiClient, query: RouteInput<typeof findingStatsRoute>['query'] = {}) =>
    api.call(findingStatsRoute, { query });

  it('counts every severity and status (zeros included), tools, and the last 7 days', async () => {
    const body = okBody(await stats(await seeded()), 200);
    expect(body).toEqual({
      total: 5,
      by_severity: { critical: 1, high: 1, medium: 1, low: 1, info: 1 },
      by_status: { open: 2, in_progress: 0, resolved: 2, false_positive: 0, accepted: 1 },
      by_tool: { nuclei: 2, 'scanward-http': 2, 'scanward-tcp': 1 },
      trends: { new_this_week: 3, resolved_this_week: 1, average_resolution_days: 8 },
    });
  });

  it('limits to a target (ignoring case) and to detections in [from_date, to_date)', async () => {
    const api = await seeded();
    const target = okBody(await stats(api, { target: 'DB.example.test' }), 200);
    expect(target.total).toBe(2);
    expect(target.by_severity).toEqual({ critical: 1, high: 0, medium: 0, low: 0, info: 1 });
    expect(target.trends).toEqual({ new_this_week: 2, resolved_this_week: 0, average_resolution_days: 0 });

    const day = (days: number) => new Date(Date.now() - days * DAY).toISOString().slice(0, 10);
    const window = okBody(await stats(api, { from_date: day(15), to_date: day(3) }), 200);
    expect(window.total).toBe(1);
    expect(window.by_severity.medium).toBe(1);
    expect(window.trends.average_resolution_days).toBe(6);

    const sinceNow = okBody(await stats(api, { from_date: new Date().toISOString() }), 200);
    expect(sinceNow.total).toBe(0);
    expect(sinceNow.by_tool).toEqual({});
  });

  it('reflects status changes at once, in the statistics and in list totals', async () => {
    const api = await seeded();
    const before = okBody(await stats(api), 200);
    const open = okBody(await api.call(listFindingsRoute, { query: { status: 'open' } }), 200).items;
    const listTotal = async () =>
      // per_page=1 makes the list count rather than read the total off a short page.
      okBody(await api.call(listFindingsRoute, { query: { status: 'open', per_page: 1 } }), 200).total;
    expect(await listTotal()).toBe(2);

    const patch = { params: { finding_id: open[0]!.id }, body: { status: 'resolved' as const } };
    okBody(await api.call(updateFindingRoute, patch), 200);
    const after = okBody(await stats(api), 200);
    expect(after.by_status.open).toBe(before.by_status.open - 1);
    expect(after.by_status.resolved).toBe(before.by_status.resolved + 1);
    expect(after.trends.resolved_this_week).toBe(before.trends.resolved_this_week + 1);
    expect(await listTotal()).toBe(1);

    const bulk = { finding_ids: open.map((f) => f.id), update: { status: 'open' as const } };
    okBody(await api.call(bulkUpdateFindingsRoute, { body: bulk }), 200);
    expect(okBody(await stats(api), 200).by_status).toEqual(before.by_status);
    expect(await listTotal()).toBe(2);
  });

  it('answers 422 for an unreadable date or an empty range', async () => {
    const { api } = await factory.tenant(suite.app);
    await expectError(await stats(api, { from_date: 'last-week' }), 422, 'VALIDATION_ERROR', 'from_date');
    await expectError(
      await stats(api, { from_date: '2026-02-01', to_date: '2026-01-01' }),
      422,
      'VALIDATION_ERROR',
      'to_date',
    );
  });
});
