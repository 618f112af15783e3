import { expect } from 'vitest';
import type { z } from 'zod';
import { createScanRoute } from '../../../server/routes/scans.ts';
import type { CreateScanRequest } from '../../../server/schemas/scans.ts';
import type { CreateScheduleRequest } from '../../../server/schemas/schedules.ts';
import type { BuiltTenant } from '../../helpers/factory.ts';

/** What `createScanRoute` takes. */
export type ScanRequest = z.input<typeof CreateScanRequest>;
/** The `web` options of a scan or schedule request. */
export type WebOptions = NonNullable<ScanRequest['web']>;
/** What `createScheduleRoute` takes. */
export type ScheduleRequest = z.input<typeof CreateScheduleRequest>;
/** A schedule request of one frequency. */
export type ScheduleOf<F extends ScheduleRequest['frequency']> = Extract<ScheduleRequest, { frequency: F }>;

/** A scan request that targets loopback, typed by the route (the factory's `loopbackScan`, typed). */
export const scanRequest = (extra: Partial<ScanRequest> = {}): ScanRequest => ({
  target: '127.0.0.1',
  authorized: true,
  ...extra,
});

/** Creates a scan of `tenant` on loopback through the API; answers what the API answered. */
export async function createScan(tenant: BuiltTenant, extra: Partial<ScanRequest> = {}) {
  const res = await tenant.api.call(createScanRoute, { body: scanRequest(extra) });
  expect(res.status).toBe(201);
  return res.body;
}
