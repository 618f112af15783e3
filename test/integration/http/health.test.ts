import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, ISO_MS, type ApiClient } from '../../helpers/api-client.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { testEngine } from '../../helpers/database.ts';
import type { z } from 'zod';
import type { HealthRecord } from '../../../server/schemas/health.ts';

describe(`GET /api/health (${testEngine})`, () => {
  let app: TestApp;
  let api: ApiClient;
  beforeAll(async () => {
    app = await startTestApp();
    api = apiClient(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers healthy with the running version and a UTC timestamp, without credentials', async () => {
    const res = await api.get<z.infer<typeof HealthRecord>>('/api/health');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toMatchObject({ status: 'healthy', version: app.services.version });
    expect(res.body.timestamp).toMatch(ISO_MS);
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
  });

  // Last: it takes the database down.
  it('answers 503 unhealthy, still as a health record, once the database is gone', async () => {
    await app.database.close();
    const started = Date.now();
    const res = await api.get<z.infer<typeof HealthRecord>>('/api/health');
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toMatchObject({ status: 'unhealthy', version: app.services.version });
    expect(Date.parse(res.body.timestamp)).toBeGreaterThanOrEqual(started - 1000);
  });
});
