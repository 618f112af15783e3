import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { DOMAIN_EVENTS, organizationEventsAfter, sequenceEvents } from '../../../server/events/outbox.ts';
import { createScanRoute, getScanRoute, listScansRoute } from '../../../server/routes/scans.ts';
import {
  createScheduleRoute,
  listSchedulesRoute,
  updateScheduleRoute,
} from '../../../server/routes/schedules.ts';
import { claimScan, type Claim } from '../../../server/scanner/runner.ts';
import { runDueSchedules } from '../../../server/scans/scheduler.ts';
import { updateScheduleRun } from '../../../server/scans/scan-schedules.repository.ts';
import { expectError, okBody } from '../../helpers/api-client.ts';
import type { TestApp } from '../../helpers/app.ts';
import { testEngine } from '../../helpers/database.ts';
import { factory, type BuiltTenant } from '../../helpers/factory.ts';
import { scanRequest, type WebOptions } from './requests.ts';
import { useTestApp } from '../../helpers/suite-app.ts';

/**
 * `web` on scans and schedules (issue 33, docs/web-testing.md "Secrets"): stored with its
 * secrets sealed, answered without them, handed in clear to the engine only.
 */

const PASSWORD = 'pw-Sup3r-s3cret-9f1c';
const TOKEN = 'Bearer tok-7c2e-never-shown';
const COOKIE = 'session=cookie-4b1d-never-shown';

type FormLogin = Extract<NonNullable<WebOptions['authentication']>, { type: 'form' }>;

const formLogin = (extra: Partial<FormLogin> = {}) => ({
  active: true,
  authentication: {
    type: 'form' as const,
    login_url: 'http://127.0.0.1:8080/login',
    username: 'admin',
    password: PASSWORD,
    ...extra,
  },
  exclude_paths: ['/logout', '/admin/*/delete'],
});

const headerLogin: WebOptions = {
  authentication: { type: 'headers', headers: { Authorization: TOKEN, Cookie: COOKIE } },
};

const secretsIn = (text: string) => [PASSWORD, TOKEN, COOKIE].filter((s) => text.includes(s));

describe(`web options of scans and schedules (${testEngine})`, () => {
  let app: TestApp;
  let t: BuiltTenant;

  const suite = useTestApp();
  beforeAll(async () => {
    app = suite.app;
    t = await factory.tenant(app, { plan: 'enterprise' });
  });

  /** Claims pending scans as a runner would, with the service's key, until it holds `scanId`. */
  async function claimAsRunner(scanId: string): Promise<Claim> {
    for (let i = 0; i < 50; i++) {
      const claimed = await claimScan(
        app.services.db,
        'web-test-runner',
        60,
        new Date(),
        app.services.keys.encryptionKey,
      );
      if (!claimed) break;
      if ('failed' in claimed) continue;
      if (claimed.scan.id === scanId) return claimed;
    }
    throw new Error(`scan ${scanId} was not claimed`);
  }

  it('answers a form log-in without its password, and hands the password to the engine', async () => {
    const created = okBody(
      await t.api.call(createScanRoute, { body: scanRequest({ web: formLogin() }) }),
      201,
    );
    const detail = await t.api.call(getScanRoute, { params: { scan_id: created.id } });
    expect(okBody(detail).web).toEqual({
      active: true,
      authentication: {
        type: 'form',
        login_url: 'http://127.0.0.1:8080/login',
        username: 'admin',
        has_password: true,
      },
      exclude_paths: ['/logout', '/admin/*/delete'],
    });
    expect(secretsIn(detail.text)).toEqual([]);
    const list = await t.api.call(listScansRoute, { query: { per_page: 100 } });
    expect(okBody(list).items.some((s) => s.id === created.id)).toBe(true);
    expect(secretsIn(list.text)).toEqual([]);

    const claim = await claimAsRunner(created.id);
    expect(claim.scan.web).toEqual({ ...formLogin(), authentication: { ...formLogin().authentication } });
  });

  it('answers header authentication with the header names only', async () => {
    const created = okBody(
      await t.api.call(createScanRoute, { body: scanRequest({ web: headerLogin }) }),
      201,
    );
    const detail = await t.api.call(getScanRoute, { params: { scan_id: created.id } });
    expect(okBody(detail).web).toEqual({
      active: false,
      authentication: { type: 'headers', header_names: ['Authorization', 'Cookie'] },
      exclude_paths: [],
    });
    expect(secretsIn(detail.text)).toEqual([]);
    const claim = await claimAsRunner(created.id);
    expect(claim.scan.web?.authentication).toEqual({
      type: 'headers',
      headers: { Authorization: TOKEN, Cookie: COOKIE },
    });
  });

  it('fails a scan whose secrets were sealed under another key instead of scanning without its log-in', async () => {
    const created = okBody(
      await t.api.call(createScanRoute, { body: scanRequest({ web: formLogin() }) }),
      201,
    );
    const otherKey = randomBytes(32);
    let outcome: Awaited<ReturnType<typeof claimScan>>;
    do outcome = await claimScan(app.services.db, 'web-test-runner', 60, new Date(), otherKey);
    while (outcome && !('failed' in outcome && outcome.failed === created.id));
    const detail = okBody(await t.api.call(getScanRoute, { params: { scan_id: created.id } }));
    expect(detail.status).toBe('failed');
    expect(detail.error).toContain('encryption key');
  });

  it('keeps the secrets out of the domain events that feed webhooks and the event stream', async () => {
    okBody(await t.api.call(createScanRoute, { body: scanRequest({ web: formLogin() }) }), 201);
    okBody(await t.api.call(createScanRoute, { body: scanRequest({ web: headerLogin }) }), 201);
    await sequenceEvents(app.services.db);
    const events = await organizationEventsAfter(app.services.db, t.orgId, 0, DOMAIN_EVENTS, 1000);
    expect(events.some((e) => e.type === 'scan.queued')).toBe(true);
    expect(secretsIn(JSON.stringify(events))).toEqual([]);
  });

  it('leaves web out of a scan created without it, and attack checks off when web omits active', async () => {
    const plain = okBody(await t.api.call(createScanRoute, { body: scanRequest() }), 201);
    expect(okBody(await t.api.call(getScanRoute, { params: { scan_id: plain.id } })).web).toBeUndefined();
    const passive = okBody(
      await t.api.call(createScanRoute, { body: scanRequest({ web: { exclude_paths: ['/x'] } }) }),
      201,
    );
    const detail = okBody(await t.api.call(getScanRoute, { params: { scan_id: passive.id } }));
    expect(detail.web).toEqual({ active: false, authentication: null, exclude_paths: ['/x'] });
  });

  it('answers a repeat with the same Idempotency-Key and secrets with the first scan', async () => {
    const body = scanRequest({ web: formLogin() });
    const headers = { 'Idempotency-Key': 'web-repeat-1' };
    const first = okBody(await t.api.call(createScanRoute, { body }, { headers }), 201);
    const again = okBody(await t.api.call(createScanRoute, { body }, { headers }), 201);
    expect(again.id).toBe(first.id);
    const otherPassword = scanRequest({ web: formLogin({ password: 'another-one' }) });
    await expectError(
      await t.api.call(createScanRoute, { body: otherPassword }, { headers }),
      422,
      'VALIDATION_ERROR',
      'Idempotency-Key',
    );
  });

  it('refuses a log-in page on another host than the target, naming the field', async () => {
    for (const login_url of ['http://127.0.0.2/login', 'http://localhost/login']) {
      const res = await t.api.call(createScanRoute, {
        body: scanRequest({ web: formLogin({ login_url }) }),
      });
      await expectError(res, 422, 'VALIDATION_ERROR', 'web.authentication.login_url');
    }
    const ipv6 = await t.api.call(createScanRoute, {
      body: {
        target: '::1',
        authorized: true,
        web: formLogin({ login_url: 'http://[::1]:3000/login' }),
      },
    });
    expect(ipv6.status).toBe(201);
  });

  it('refuses attack checks on a quick scan or schedule, which run no web analysis phase, naming web.active', async () => {
    const scan = await t.api.call(createScanRoute, {
      body: scanRequest({ scan_type: 'quick', web: formLogin() }),
    });
    await expectError(scan, 422, 'VALIDATION_ERROR', 'web.active');
    const schedule = await t.api.call(createScheduleRoute, {
      body: {
        target: '127.0.0.1',
        scan_type: 'quick',
        frequency: 'daily',
        authorized: true,
        web: formLogin(),
      },
    });
    await expectError(schedule, 422, 'VALIDATION_ERROR', 'web.active');
    // Signing in without attack checks is fine on a quick scan.
    const passive = await t.api.call(createScanRoute, {
      body: scanRequest({ scan_type: 'quick', web: { ...formLogin(), active: false } }),
    });
    expect(passive.status).toBe(201);
  });

  it('refuses malformed web options with a validation error naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ active: 'yes' }, 'web.active'],
      [{ authentication: { type: 'basic' } }, 'web.authentication.type'],
      [formLogin({ password: '' }), 'web.authentication.password'],
      [formLogin({ login_url: 'ftp://127.0.0.1/login' }), 'web.authentication.login_url'],
      [
        { authentication: { type: 'headers', headers: { 'Bad Name': 'x' } } },
        'web.authentication.headers.Bad Name',
      ],
      [{ exclude_paths: [''] }, 'web.exclude_paths'],
      [{ surprise: true }, 'web.surprise'],
    ];
    for (const [web, field] of cases) {
      // Each case breaks the contract on purpose.
      const res = await t.api.call(createScanRoute, { body: scanRequest({ web: web as never }) });
      const error = await expectError(res, 422, 'VALIDATION_ERROR');
      expect(error.field, JSON.stringify(web)).toBe(field);
    }
  });

  it('stores web on a schedule, answers it without secrets, and gives it to the scans it starts', async () => {
    const created = await t.api.call(createScheduleRoute, {
      body: { target: '127.0.0.1', frequency: 'daily', authorized: true, web: formLogin() } as never,
    });
    const schedule = okBody(created, 201);
    expect(schedule.web).toMatchObject({
      active: true,
      authentication: { type: 'form', has_password: true },
    });
    expect(secretsIn(created.text)).toEqual([]);
    const listed = await t.api.call(listSchedulesRoute, { query: { per_page: 100 } });
    expect(secretsIn(listed.text)).toEqual([]);

    await updateScheduleRun(app.services.db, t.orgId, schedule.id, {
      next_run_at: new Date(Date.now() - 1000),
    });
    const outcomes = await runDueSchedules(app.services, new Date());
    const scanId = outcomes.find((o) => o.scheduleId === schedule.id)?.scanId;
    expect(scanId).toBeDefined();
    const detail = await t.api.call(getScanRoute, { params: { scan_id: scanId! } });
    expect(okBody(detail).web).toEqual(schedule.web);
    expect(secretsIn(detail.text)).toEqual([]);
    expect((await claimAsRunner(scanId!)).scan.web?.authentication).toMatchObject({ password: PASSWORD });
  });

  it("replaces a schedule's web with PATCH, for the scans it starts next, and drops it with null", async () => {
    const schedule = okBody(
      await t.api.call(createScheduleRoute, {
        body: { target: '127.0.0.1', frequency: 'daily', authorized: true, web: formLogin() } as never,
      }),
      201,
    );
    const rotated = 'rotated-pw-0b7e';
    const patched = await t.api.call(updateScheduleRoute, {
      params: { schedule_id: schedule.id },
      body: { web: formLogin({ password: rotated }) },
    });
    expect(okBody(patched).web).toEqual(schedule.web);
    expect(patched.text).not.toContain(rotated);

    await updateScheduleRun(app.services.db, t.orgId, schedule.id, {
      next_run_at: new Date(Date.now() - 1000),
    });
    const scanId = (await runDueSchedules(app.services, new Date())).find(
      (o) => o.scheduleId === schedule.id,
    )?.scanId;
    expect((await claimAsRunner(scanId!)).scan.web?.authentication).toMatchObject({ password: rotated });

    const dropped = await t.api.call(updateScheduleRoute, {
      params: { schedule_id: schedule.id },
      body: { web: null },
    });
    expect(okBody(dropped).web).toBeUndefined();
  });

  it("refuses a PATCH with a log-in page off the target, an unknown field, or another organization's schedule", async () => {
    const schedule = okBody(
      await t.api.call(createScheduleRoute, {
        body: { target: '127.0.0.1', frequency: 'daily', authorized: true },
      }),
      201,
    );
    const params = { schedule_id: schedule.id };
    await expectError(
      await t.api.call(updateScheduleRoute, {
        params,
        body: { web: formLogin({ login_url: 'http://localhost/login' }) },
      }),
      422,
      'VALIDATION_ERROR',
      'web.authentication.login_url',
    );
    await expectError(
      // `target` is not a field of the update: it breaks the contract on purpose.
      await t.api.call(updateScheduleRoute, { params, body: { web: null, target: '127.0.0.2' } as never }),
      422,
      'VALIDATION_ERROR',
    );
    const other = await factory.tenant(app, { plan: 'enterprise' });
    await expectError(
      await other.api.call(updateScheduleRoute, { params, body: { web: null } }),
      404,
      'NOT_FOUND',
    );
  });

  it('refuses a schedule whose log-in page is not on its target', async () => {
    const res = await t.api.call(createScheduleRoute, {
      body: {
        target: '127.0.0.1',
        frequency: 'daily',
        authorized: true,
        web: formLogin({ login_url: 'http://127.0.0.9/login' }),
      },
    });
    await expectError(res, 422, 'VALIDATION_ERROR', 'web.authentication.login_url');
  });
});
