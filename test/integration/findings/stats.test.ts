import { beforeAll, describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory, detection, runScan } from '../../helpers/factory.ts';
import { testEngine } from '../../helpers/database.ts';
import type { FindingStats } from '../../../server/schemas/findings.ts';

interface ErrorBody {
  error_code: string;
  field?: string;
}

const DAY = 86_400_000;

describe(`findings statistics (${testEngine})`, () => {
  let app: TestApp;
  let db: Knex;
  let token: string;
  let orgId: string;

  const suite = useTestApp();
  beforeAll(async () => {
    app = suite.app;
    db = app.services.db;
    const tenant = await factory.tenant(app);
    orgId = tenant.orgId;
    token = await tenant.login();
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
    const accepted = (await db('findings').where({ org_id: orgId, severity: 'low' }).first('id')) as {
      id: string;
    };
    await db('findings').where({ id: accepted.id }).update({ status: 'accepted' });
  });

  const stats = async <T = FindingStats>(query = '') => {
    const res = await app.request(`/api/v1/findings/stats${query}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    return { status: res.status, body: (await res.json()) as T };
  };

  it('counts every severity and status (zeros included), tools, and the last 7 days', async () => {
    const { status, body } = await stats();
    expect(status).toBe(200);
    expect(body).toEqual({
      total: 5,
      by_severity: { critical: 1, high: 1, medium: 1, low: 1, info: 1 },
      by_status: { open: 2, in_progress: 0, resolved: 2, false_positive: 0, accepted: 1 },
      by_tool: { nuclei: 2, 'scanward-http': 2, 'scanward-tcp': 1 },
      trends: { new_this_week: 3, resolved_this_week: 1, average_resolution_days: 8 },
    });
  });

  it('limits to a target (ignoring case) and to detections in [from_date, to_date)', async () => {
    const target = (await stats('?target=DB.example.test')).body;
    expect(target.total).toBe(2);
    expect(target.by_severity).toEqual({ critical: 1, high: 0, medium: 0, low: 0, info: 1 });
    expect(target.trends).toEqual({ new_this_week: 2, resolved_this_week: 0, average_resolution_days: 0 });

    const day = (days: number) => new Date(Date.now() - days * DAY).toISOString().slice(0, 10);
    const window = (await stats(`?from_date=${day(15)}&to_date=${day(3)}`)).body;
    expect(window.total).toBe(1);
    expect(window.by_severity.medium).toBe(1);
    expect(window.trends.average_resolution_days).toBe(6);

    const sinceNow = (await stats(`?from_date=${new Date().toISOString()}`)).body;
    expect(sinceNow.total).toBe(0);
    expect(sinceNow.by_tool).toEqual({});
  });

  it('reflects status changes at once, in the statistics and in list totals', async () => {
    const before = (await stats()).body;
    const open = (await db('findings').where({ org_id: orgId, status: 'open' }).select('id')) as {
      id: string;
    }[];
    const listTotal = async () => {
      // per_page=1 makes the list count rather than read the total off a short page.
      const res = await app.request('/api/v1/findings?status=open&per_page=1', {
        headers: { authorization: `Bearer ${token}` },
      });
      return ((await res.json()) as { total: number }).total;
    };
    expect(await listTotal()).toBe(2);

    const patched = await app.request(`/api/v1/findings/${open[0]!.id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'resolved' }),
    });
    expect(patched.status).toBe(200);
    const after = (await stats()).body;
    expect(after.by_status.open).toBe(before.by_status.open - 1);
    expect(after.by_status.resolved).toBe(before.by_status.resolved + 1);
    expect(after.trends.resolved_this_week).toBe(before.trends.resolved_this_week + 1);
    expect(await listTotal()).toBe(1);

    const bulk = await app.request('/api/v1/findings/bulk', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ finding_ids: open.map((f) => f.id), update: { status: 'open' } }),
    });
    expect(bulk.status).toBe(200);
    expect((await stats()).body.by_status).toEqual(before.by_status);
    expect(await listTotal()).toBe(2);
  });

  it('answers 422 for an unreadable date or an empty range', async () => {
    const bad = await stats<ErrorBody>('?from_date=last-week');
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ error_code: 'VALIDATION_ERROR', field: 'from_date' });
    const empty = await stats<ErrorBody>('?from_date=2026-02-01&to_date=2026-01-01');
    expect(empty.status).toBe(422);
    expect(empty.body).toMatchObject({ error_code: 'VALIDATION_ERROR', field: 'to_date' });
  });
});
