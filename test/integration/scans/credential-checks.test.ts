import { beforeAll, describe, expect, it } from 'vitest';
import { runDueSchedules } from '../../../server/scans/scheduler.ts';
import { updateScheduleRun } from '../../../server/scans/scan-schedules.repository.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory, type BuiltTenant } from '../../helpers/factory.ts';
import { scanRequest } from './requests.ts';
import { testEngine } from '../../helpers/database.ts';
import { createScanRoute, getScanRoute } from '../../../server/routes/scans.ts';
import { createScheduleRoute } from '../../../server/routes/schedules.ts';

describe(`the credential_checks scan option (${testEngine})`, () => {
  let app: TestApp;
  let t: BuiltTenant;

  const suite = useTestApp();
  beforeAll(async () => {
    app = suite.app;
    t = await factory.tenant(app, { plan: 'enterprise' });
  });

  const created = async (body: Record<string, unknown>) => {
    const res = await t.api.call(createScanRoute, { body: scanRequest(body) });
    expect(res.status).toBe(201);
    return (await t.api.call(getScanRoute, { params: { scan_id: res.body.id } })).body;
  };

  it('defaults to defaults for full and compliance scans and to none for quick scans', async () => {
    expect((await created({ scan_type: 'full' })).credential_checks).toBe('defaults');
    expect((await created({ scan_type: 'compliance' })).credential_checks).toBe('defaults');
    expect((await created({ scan_type: 'quick' })).credential_checks).toBe('none');
  });

  it('keeps the choice the request makes', async () => {
    expect((await created({ scan_type: 'full', credential_checks: 'none' })).credential_checks).toBe('none');
    expect((await created({ scan_type: 'quick', credential_checks: 'defaults' })).credential_checks).toBe(
      'defaults',
    );
  });

  it('refuses a value it does not know with a validation error naming the field', async () => {
    // A value the contract refuses, on purpose.
    const res = await t.api.call(createScanRoute, {
      body: scanRequest({ credential_checks: 'all' as never }),
    });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error_code: 'VALIDATION_ERROR', field: 'credential_checks' });
  });

  it('stores the option on a schedule and gives it to the scans the schedule creates', async () => {
    const schedule = await t.api.call(createScheduleRoute, {
      body: {
        target: '127.0.0.1',
        frequency: 'daily',
        scan_type: 'full',
        credential_checks: 'none',
        authorized: true,
      },
    });
    expect(schedule.status).toBe(201);
    expect(schedule.body.credential_checks).toBe('none');
    const quick = await t.api.call(createScheduleRoute, {
      body: {
        target: '127.0.0.1',
        frequency: 'daily',
        scan_type: 'quick',
        authorized: true,
      },
    });
    expect(quick.body.credential_checks).toBe('none');

    await updateScheduleRun(app.services.db, t.orgId, schedule.body.id, {
      next_run_at: new Date(Date.now() - 1000),
    });
    const outcomes = await runDueSchedules(app.services, new Date());
    const scanId = outcomes.find((o) => o.scheduleId === schedule.body.id)?.scanId;
    expect(scanId).toBeDefined();
    expect((await t.api.call(getScanRoute, { params: { scan_id: scanId! } })).body.credential_checks).toBe(
      'none',
    );
  });
});
