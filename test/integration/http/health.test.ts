import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient, ISO_MS, type ApiClient } from '../../helpers/api-client.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { testEngine } from '../../helpers/database.ts';
import { getHealthRoute } from '../../../server/routes/health.ts';

describe(`GET /api/health (${testEngine})`, () => {
  let app: TestApp;
  let api: ApiClient;
  const suite = useTestApp();
  beforeAll(async () => {
    app = suite.app;
    api = apiClient(app);
  });

  it('answers healthy with the running version and a UTC timestamp, without credentials', async () => {
    const res = await api.call(getHealthRoute);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toMatchObject({ status: 'healthy', version: app.services.version });
    expect(res.body.timestamp).toMatch(ISO_MS);
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('answers 503 unhealthy, still as a health record, once the database is gone', async () => {
    // An app of its own: the test takes the database down.
    const downed = await startTestApp();
    try {
      await downed.database.close();
      const started = Date.now();
      const res = await apiClient(downed).call(getHealthRoute);
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body).toMatchObject({ status: 'unhealthy', version: downed.services.version });
      expect(Date.parse(res.body.timestamp)).toBeGreaterThanOrEqual(started - 1000);
    } finally {
      await downed.close();
    }
  });
});
