import { DateTime } from 'luxon';
import { beforeAll, describe, expect, it } from 'vitest';
import { setPlan } from '../../../server/identity/organizations.ts';
import {
  createScheduleRoute,
  deleteScheduleRoute,
  listSchedulesRoute,
} from '../../../server/routes/schedules.ts';
import { apiClient, ISO_MS } from '../../helpers/api-client.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory, type BuiltTenant } from '../../helpers/factory.ts';
import { testEngine } from '../../helpers/database.ts';
import type { ScheduleOf } from './requests.ts';

const weekly = (extra: Partial<ScheduleOf<'weekly'>> = {}): ScheduleOf<'weekly'> => ({
  target: '127.0.0.1',
  frequency: 'weekly',
  day_of_week: 1,
  hour: 3,
  timezone: 'Europe/Berlin',
  authorized: true,
  ...extra,
});

describe(`scan schedules API (${testEngine})`, () => {
  let app: TestApp;
  let t: BuiltTenant;

  const suite = useTestApp();
  beforeAll(async () => {
    app = suite.app;
    t = await factory.tenant(app, { plan: 'professional' });
  });

  describe('POST /api/v1/scans/schedules', () => {
    it('answers 201 with the record, its first run in the schedule’s zone and no run yet', async () => {
      const before = Date.now();
      const res = await t.api.call(createScheduleRoute, {
        body: weekly({ scan_type: 'quick', ports: '22,80' }),
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        target: '127.0.0.1',
        scan_type: 'quick',
        frequency: 'weekly',
        day_of_week: 1,
        day_of_month: null,
        hour: 3,
        timezone: 'Europe/Berlin',
        frameworks: [],
        ports: '22,80',
        authorized: true,
        enabled: true,
        last_run_at: null,
        last_scan_id: null,
        last_error: null,
      });
      expect(res.body.id).toMatch(/^sched_[0-9a-z]{24}$/);
      expect(res.body.created_at).toMatch(ISO_MS);
      const next = DateTime.fromISO(res.body.next_run_at, { zone: 'Europe/Berlin' });
      expect(next.weekday).toBe(1); // Monday
      expect(next.hour).toBe(3);
      expect(next.minute).toBe(0);
      expect(next.toMillis()).toBeGreaterThan(before);
      expect(next.toMillis() - before).toBeLessThanOrEqual(7 * 86_400_000 + 3_600_000);
    });

    it('defaults to a full scan at 00:00 UTC', async () => {
      const res = await t.api.call(createScheduleRoute, {
        body: {
          target: 'localhost',
          frequency: 'daily',
          authorized: true,
        },
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ scan_type: 'full', hour: 0, timezone: 'UTC', day_of_week: null });
      expect(res.body.next_run_at).toMatch(/T00:00:00\.000Z$/);
    });

    it('runs monthly schedules on their day and spells zones canonically', async () => {
      const res = await t.api.call(createScheduleRoute, {
        body: {
          target: '127.0.0.0/28',
          frequency: 'monthly',
          day_of_month: 28,
          hour: 23,
          timezone: 'america/new_york',
          scan_type: 'compliance',
          authorized: true,
        },
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        timezone: 'America/New_York',
        frameworks: ['soc2', 'pci-dss', 'iso27001'],
      });
      const next = DateTime.fromISO(res.body.next_run_at, { zone: 'America/New_York' });
      expect([next.day, next.hour]).toEqual([28, 23]);
    });

    it.each([
      [{ frequency: 'hourly' }, 'frequency'],
      [{ frequency: undefined }, 'frequency'],
      [{ day_of_week: undefined }, 'day_of_week'],
      [{ day_of_week: 7 }, 'day_of_week'],
      [{ day_of_week: 1.5 }, 'day_of_week'],
      [{ day_of_month: 3 }, 'day_of_month'],
      [{ frequency: 'monthly', day_of_week: undefined }, 'day_of_month'],
      [{ frequency: 'monthly', day_of_week: undefined, day_of_month: 29 }, 'day_of_month'],
      [{ frequency: 'monthly', day_of_week: undefined, day_of_month: 0 }, 'day_of_month'],
      [{ frequency: 'daily' }, 'day_of_week'],
      [{ hour: 24 }, 'hour'],
      [{ hour: -1 }, 'hour'],
      [{ timezone: 'Mars/Olympus_Mons' }, 'timezone'],
      [{ timezone: '+02:00' }, 'timezone'],
      [{ authorized: false }, 'authorized'],
      [{ authorized: undefined }, 'authorized'],
      [{ target: 'not a host' }, 'target'],
      [{ target: '127.0.0.0/8' }, 'target'],
      [{ scan_type: 'slow' }, 'scan_type'],
      [{ ports: '99999' }, 'ports'],
      [{ frameworks: ['nist'] }, 'frameworks'],
    ])('refuses %j with VALIDATION_ERROR on %s', async (change, field) => {
      // Each change breaks the contract on purpose.
      const res = await t.api.call(createScheduleRoute, { body: weekly(change as never) });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ error_code: 'VALIDATION_ERROR', field });
    });

    it.each(['10.0.0.1', '169.254.169.254', '8.8.8.0/24'])(
      'refuses the out-of-scope target %s',
      async (target) => {
        const res = await t.api.call(createScheduleRoute, { body: weekly({ target }) });
        expect(res.status).toBe(422);
        expect(res.body).toMatchObject({ error_code: 'TARGET_NOT_ALLOWED', field: 'target' });
      },
    );
  });

  describe('GET and DELETE', () => {
    it('lists the organization’s schedules oldest first in the full envelope, and pages', async () => {
      const s = await factory.tenant(app, { plan: 'enterprise' });
      const ids: string[] = [];
      for (let hour = 0; hour < 3; hour++) {
        ids.push((await s.api.call(createScheduleRoute, { body: weekly({ hour }) })).body.id);
      }
      const all = await s.api.call(listSchedulesRoute);
      expect(all.status).toBe(200);
      expect(all.body).toMatchObject({ total: 3, page: 1, per_page: 20, pages: 1 });
      expect(all.body.items.map((i) => i.id)).toEqual(ids);
      const second = await s.api.call(listSchedulesRoute, { query: { per_page: 2, page: 2 } });
      expect(second.body).toMatchObject({ total: 3, pages: 2 });
      expect(second.body.items.map((i) => i.id)).toEqual([ids[2]]);
      expect((await s.api.call(listSchedulesRoute, { query: { per_page: 101 } })).body).toMatchObject({
        field: 'per_page',
      });
    });

    it('deletes a schedule, answering {id, deleted: true}, then 404', async () => {
      const created = await t.api.call(createScheduleRoute, { body: weekly() });
      const id = created.body.id;
      const res = await t.api.call(deleteScheduleRoute, { params: { schedule_id: id } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ id, deleted: true });
      expect((await t.api.call(deleteScheduleRoute, { params: { schedule_id: id } })).status).toBe(404);
      const list = await t.api.call(listSchedulesRoute, { query: { per_page: 100 } });
      expect(list.body.items.map((i) => i.id)).not.toContain(id);
    });
  });

  describe('plans and roles', () => {
    it('answers PLAN_UPGRADE_REQUIRED on the startup plan for every schedule endpoint', async () => {
      const s = await factory.tenant(app, { plan: 'startup' });
      for (const res of [
        await s.api.call(createScheduleRoute, { body: weekly() }),
        await s.api.call(listSchedulesRoute),
        await s.api.call(deleteScheduleRoute, { params: { schedule_id: 'sched_x' } }),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({ error_code: 'PLAN_UPGRADE_REQUIRED' });
      }
    });

    it('lets members list schedules but only admins create or delete them', async () => {
      const created = await t.api.call(createScheduleRoute, { body: weekly() });
      const member = apiClient(app, { token: await t.login(await t.addUser('member')) });
      expect((await member.call(listSchedulesRoute)).status).toBe(200);
      const post = await member.call(createScheduleRoute, { body: weekly() });
      expect(post.status).toBe(403);
      expect(post.body).toMatchObject({ error_code: 'INSUFFICIENT_PERMISSION' });
      expect(
        (await member.call(deleteScheduleRoute, { params: { schedule_id: created.body.id } })).status,
      ).toBe(403);
      expect(
        (await t.api.call(deleteScheduleRoute, { params: { schedule_id: created.body.id } })).status,
      ).toBe(200);
    });

    it('needs read:scans to list and write:scans to create through an API key', async () => {
      const reader = await t.keyClient(['read:scans']);
      const writer = await t.keyClient(['write:scans']);
      expect((await reader.call(listSchedulesRoute)).status).toBe(200);
      expect((await reader.call(createScheduleRoute, { body: weekly() })).status).toBe(403);
      expect((await writer.call(createScheduleRoute, { body: weekly() })).status).toBe(201);
      expect((await writer.call(listSchedulesRoute)).status).toBe(403);
    });

    it('refuses again once the organization moves to the startup plan', async () => {
      const s = await factory.tenant(app, { plan: 'professional' });
      const created = await s.api.call(createScheduleRoute, { body: weekly() });
      expect(created.status).toBe(201);
      await setPlan(app.services.db, s.orgId, 'startup');
      const fresh = { ...s, api: apiClient(app, { token: await s.login() }) };
      expect((await fresh.api.call(listSchedulesRoute)).body).toMatchObject({
        error_code: 'PLAN_UPGRADE_REQUIRED',
      });
    });
  });

  describe('another organization', () => {
    it('cannot see or delete a schedule that is not its own', async () => {
      const owner = await factory.tenant(app, { plan: 'professional' });
      const other = await factory.tenant(app, { plan: 'enterprise' });
      const id = (await owner.api.call(createScheduleRoute, { body: weekly() })).body.id;
      const res = await other.api.call(deleteScheduleRoute, { params: { schedule_id: id } });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'schedule not found', error_code: 'NOT_FOUND' });
      expect((await other.api.call(listSchedulesRoute)).body.total).toBe(0);
      const mine = await owner.api.call(listSchedulesRoute);
      expect(mine.body.items.map((i) => i.id)).toEqual([id]);
    });
  });
});
