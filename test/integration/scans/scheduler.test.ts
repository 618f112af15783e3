import { beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../helpers/poll.ts';
import { openDatabase } from '../../../server/db/index.ts';
import { setLimits, setPlan } from '../../../server/identity/organizations.ts';
import { runDueSchedules, startScheduler } from '../../../server/scans/scheduler.ts';
import { createScheduleRoute, listSchedulesRoute } from '../../../server/routes/schedules.ts';
import { updateScheduleRun } from '../../../server/scans/scan-schedules.repository.ts';
import { okBody } from '../../helpers/api-client.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory, type BuiltTenant } from '../../helpers/factory.ts';
import { scanRequest, type ScheduleOf } from './requests.ts';
import { testEngine } from '../../helpers/database.ts';
import {
  createScanRoute,
  getScanQuotaRoute,
  getScanRoute,
  listScansRoute,
} from '../../../server/routes/scans.ts';

const daily = (extra: Partial<ScheduleOf<'daily'>> = {}): ScheduleOf<'daily'> => ({
  target: '127.0.0.1',
  frequency: 'daily',
  hour: 4,
  timezone: 'UTC',
  scan_type: 'quick',
  authorized: true,
  ...extra,
});

describe(`scheduler (${testEngine})`, () => {
  let app: TestApp;

  const suite = useTestApp();
  beforeAll(() => {
    app = suite.app;
  });

  const db = () => app.services.db;

  /** Creates schedules through the API and makes them due `minutesAgo` minutes ago. */
  async function dueSchedules(
    tenant: BuiltTenant,
    count: number,
    minutesAgo = 5,
    extra = {},
  ): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const res = await tenant.api.call(createScheduleRoute, { body: daily(extra) });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    const due = new Date(Date.now() - minutesAgo * 60_000);
    for (const id of ids) await updateScheduleRun(db(), tenant.orgId, id, { next_run_at: due });
    return ids;
  }

  /** A schedule of the tenant as the API shows it. */
  const schedule = async (tenant: BuiltTenant, id: string) => {
    const { items } = okBody(await tenant.api.call(listSchedulesRoute, { query: { per_page: 100 } }));
    const found = items.find((s) => s.id === id);
    expect(found, `schedule ${id}`).toBeDefined();
    return found!;
  };
  const scansOf = async (scheduleId: string) =>
    // eslint-disable-next-line no-restricted-syntax -- which scans a schedule made: neither the API nor a repository answers that (a scan shows no schedule)
    (await db()('scans').where({ schedule_id: scheduleId })) as {
      id: string;
      status: string;
      scan_type: string;
    }[];

  it('turns a due schedule into one pending scan and moves its next run past now', async () => {
    const t = await factory.tenant(app, { plan: 'professional' });
    const [id] = await dueSchedules(t, 1);
    const now = new Date();
    const outcomes = await runDueSchedules(app.services, now);
    const mine = outcomes.filter((o) => o.scheduleId === id);
    expect(mine).toHaveLength(1);
    const scans = await scansOf(id!);
    expect(scans).toHaveLength(1);
    expect(scans[0]).toMatchObject({ id: mine[0]!.scanId, status: 'pending', scan_type: 'quick' });
    const after = await schedule(t, id!);
    expect(Date.parse(after.next_run_at)).toBeGreaterThan(now.getTime());
    expect(after.next_run_at).toMatch(/T04:00:00\.000Z$/);
    expect(after).toMatchObject({ last_scan_id: scans[0]!.id, last_error: null });
    expect(after.last_run_at).toBe(now.toISOString());

    // The scan is an ordinary scan of the organization.
    const detail = await t.api.call(getScanRoute, { params: { scan_id: scans[0]!.id } });
    expect(detail.body).toMatchObject({ status: 'pending', phase: 'discovery', target: '127.0.0.1' });

    // Running again at the same instant finds nothing due.
    expect((await runDueSchedules(app.services, now)).filter((o) => o.scheduleId === id)).toEqual([]);
    expect(await scansOf(id!)).toHaveLength(1);
  });

  it('fires a schedule that was due several times while no scheduler ran only once', async () => {
    const t = await factory.tenant(app, { plan: 'professional' });
    const [id] = await dueSchedules(t, 1, 3 * 24 * 60);
    await runDueSchedules(app.services);
    await runDueSchedules(app.services);
    expect(await scansOf(id!)).toHaveLength(1);
  });

  it('leaves schedules that are not due alone', async () => {
    const t = await factory.tenant(app, { plan: 'professional' });
    const res = await t.api.call(createScheduleRoute, { body: daily() });
    const id = res.body.id;
    await runDueSchedules(app.services);
    expect(await scansOf(id)).toHaveLength(0);
    expect((await schedule(t, id)).last_run_at).toBeNull();
  });

  it('creates scheduled scans even at the concurrency ceiling: they wait in pending', async () => {
    const t = await factory.tenant(app, { plan: 'professional', limits: { concurrent: 1 } });
    expect((await t.api.call(createScanRoute, { body: scanRequest() })).status).toBe(201);
    const ids = await dueSchedules(t, 2);
    await runDueSchedules(app.services);
    for (const id of ids) expect(await scansOf(id)).toHaveLength(1);
    expect((await t.api.call(listScansRoute, { query: { status: 'pending' } })).body.total).toBe(3);
  });

  it('records last_error and creates nothing when the monthly quota is used up, then moves on', async () => {
    const t = await factory.tenant(app, {
      plan: 'professional',
      limits: { scansPerMonth: 1, concurrent: -1 },
    });
    const ids = await dueSchedules(t, 2);
    const now = new Date();
    await runDueSchedules(app.services, now);
    const results = await Promise.all(
      ids.map(async (id) => ({ scans: await scansOf(id), row: await schedule(t, id) })),
    );
    const created = results.filter((r) => r.scans.length === 1);
    const refused = results.filter((r) => r.scans.length === 0);
    expect(created).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.row.last_error).toMatch(/quota/);
    expect(refused[0]!.row.last_scan_id).toBeNull();
    expect(Date.parse(refused[0]!.row.next_run_at)).toBeGreaterThan(now.getTime());
    expect((await t.api.call(getScanQuotaRoute)).body).toMatchObject({ used_this_month: 1, remaining: 0 });
  });

  it('creates nothing for an organization whose plan no longer has schedules', async () => {
    const t = await factory.tenant(app, { plan: 'professional' });
    const [id] = await dueSchedules(t, 1);
    await setPlan(db(), t.orgId, 'startup');
    await runDueSchedules(app.services);
    expect(await scansOf(id!)).toHaveLength(0);
    // The API shows schedules only on a plan that has them: back on one, the schedule says why it did not run.
    await setPlan(db(), t.orgId, 'professional');
    expect((await schedule(t, id!)).last_error).toMatch(/plan/);
  });

  it('clears last_error once a run succeeds again', async () => {
    const t = await factory.tenant(app, { plan: 'professional', limits: { scansPerMonth: 0 } });
    const [id] = await dueSchedules(t, 1);
    await runDueSchedules(app.services);
    expect((await schedule(t, id!)).last_error).toMatch(/quota/);
    await setLimits(db(), t.orgId, { scansPerMonth: -1 });
    await updateScheduleRun(db(), t.orgId, id!, { next_run_at: new Date(Date.now() - 1000) });
    await runDueSchedules(app.services);
    expect(await schedule(t, id!)).toMatchObject({ last_error: null });
    expect(await scansOf(id!)).toHaveLength(1);
  });

  it('creates each due scan once when passes overlap in one process', async () => {
    const t = await factory.tenant(app, { plan: 'enterprise' });
    const ids = await dueSchedules(t, 6);
    await Promise.all([
      runDueSchedules(app.services),
      runDueSchedules(app.services),
      runDueSchedules(app.services),
    ]);
    for (const id of ids) expect(await scansOf(id)).toHaveLength(1);
  });

  it('runs on its own once started, and stops', async () => {
    const t = await factory.tenant(app, { plan: 'professional' });
    const [id] = await dueSchedules(t, 1);
    const stop = startScheduler(app.services, 50);
    try {
      await waitFor(
        () => scansOf(id!),
        (scans) => scans.length > 0,
        { timeoutMs: 10_000, intervalMs: 20 },
      );
    } finally {
      await stop();
    }
    expect(await scansOf(id!)).toHaveLength(1);
  });

  it.runIf(testEngine === 'postgres')(
    'creates each due scan exactly once when two processes with their own pools run the scheduler together',
    async () => {
      const second = await openDatabase({ databaseUrl: app.config.databaseUrl, poolMax: 4 });
      try {
        const tenants = await Promise.all([
          factory.tenant(app, { plan: 'enterprise' }),
          factory.tenant(app, { plan: 'professional' }),
        ]);
        await setLimits(db(), tenants[1].orgId, { scansPerMonth: 10, concurrent: 1 });
        const ids = [...(await dueSchedules(tenants[0], 15)), ...(await dueSchedules(tenants[1], 15))];
        const now = new Date();
        const [a, b] = await Promise.all([
          runDueSchedules(app.services, now),
          runDueSchedules({ db: second.db, logger: app.services.logger }, now),
        ]);
        const handled = [...a, ...b].map((o) => o.scheduleId).filter((s) => ids.includes(s));
        expect(handled.sort()).toEqual([...ids].sort());
        for (const id of ids.slice(0, 15)) expect(await scansOf(id)).toHaveLength(1);
        // The professional organization's quota of 10 holds across both processes.
        const professional = await Promise.all(ids.slice(15).map(scansOf));
        expect(professional.flat()).toHaveLength(10);
      } finally {
        await second.close();
      }
    },
  );
});
