import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HealthRecord } from '../../../server/schemas/health.ts';
import { testEngine } from '../../helpers/database.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';

describe(`GET /api/health (${testEngine})`, () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers 200 healthy while the database answers', async () => {
    const res = await app.request('/api/health');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = HealthRecord.parse(await res.json());
    expect(body.status).toBe('healthy');
    expect(body.version).toBe(app.services.version);
  });

  it('answers 503 unhealthy, still as a health record, once the database is gone', async () => {
    await app.database.close();
    const started = Date.now();
    const res = await app.request('/api/health');
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = HealthRecord.parse(await res.json());
    expect(body).toMatchObject({ status: 'unhealthy', version: app.services.version });
    expect(Date.parse(body.timestamp)).toBeGreaterThanOrEqual(started - 1000);
  });
});
