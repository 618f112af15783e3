import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { testEngine } from '../../helpers/database.ts';
import { expectError } from '../../helpers/api-client.ts';
import { factory } from '../../helpers/factory.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { listScansRoute } from '../../../server/routes/scans.ts';

/**
 * GET /metrics holds instance-wide figures (scans by status of every organization, the
 * traffic of every route), so it answers only to the operator (issue 19, item 6): the bearer
 * SCANWARD_METRICS_TOKEN, or everyone with SCANWARD_METRICS_PUBLIC=true. An organization's
 * token, API key or password is refused in the error shape.
 */

const METRICS_TOKEN = randomBytes(32).toString('hex');
const operator = { authorization: `Bearer ${METRICS_TOKEN}` };
const basic = (user: string, password: string) => ({
  authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
});

describe(`/metrics answers only to the operator (${testEngine})`, () => {
  const suite = useTestApp({ env: { SCANWARD_METRICS_TOKEN: METRICS_TOKEN }, captureLogs: true });
  const metrics = (headers: Record<string, string> = {}) => suite.app.request('/metrics', { headers });

  it('serves the Prometheus text to the operator token', async () => {
    const res = await metrics(operator);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(await res.text()).toMatch(/^scanward_scans\{status="pending"\} \d+$/m);
  });

  it('answers no credentials with 401 AUTHENTICATION_REQUIRED, saying what to send', async () => {
    const res = await metrics();
    const body = await expectError(res, 401, 'AUTHENTICATION_REQUIRED');
    expect(body.detail).toContain('SCANWARD_METRICS_TOKEN');
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="Scanward metrics"');
  });

  it("refuses an organization's valid bearer token and API key with 403", async () => {
    const tenant = await factory.tenant(suite.app, { apiKey: ['read:scans', 'read:findings'] });
    const token = await tenant.bearer();
    await expectError(await metrics({ authorization: `Bearer ${token}` }), 403, 'INSUFFICIENT_PERMISSION');
    await expectError(await metrics({ 'x-api-key': tenant.key! }), 403, 'INSUFFICIENT_PERMISSION');
    // The same credentials work where they belong: the refusal is about /metrics.
    expect((await tenant.keyApi!.call(listScansRoute)).status).toBe(200);
  });

  it('refuses HTTP Basic, with a password or an API key, with 401 and checks no password', async () => {
    const tenant = await factory.tenant(suite.app, { apiKey: ['read:scans'] });
    await expectError(await metrics(basic(tenant.admin.email, tenant.admin.password)), 401, 'INVALID_TOKEN');
    await expectError(await metrics(basic('metrics', tenant.key!)), 401, 'INVALID_TOKEN');
  });

  it('refuses a wrong token (one character off, or longer) and an unknown API key with 401', async () => {
    const offByOne = METRICS_TOKEN.slice(0, -1) + (METRICS_TOKEN.endsWith('0') ? '1' : '0');
    for (const wrong of [offByOne, `${METRICS_TOKEN}0`, METRICS_TOKEN.slice(0, 40)]) {
      await expectError(await metrics({ authorization: `Bearer ${wrong}` }), 401, 'INVALID_TOKEN');
    }
    await expectError(await metrics({ 'x-api-key': `sw_${'a'.repeat(43)}` }), 401, 'INVALID_API_KEY');
  });

  it('never writes the operator token to the log', async () => {
    await metrics(operator);
    await metrics({ authorization: `Bearer ${METRICS_TOKEN}x` });
    expect(suite.app.rawLogs()).toContain('"route":"/metrics"');
    expect(suite.app.rawLogs()).not.toContain(METRICS_TOKEN);
  });
});

describe(`/metrics without an operator token configured (${testEngine})`, () => {
  const suite = useTestApp();

  it('answers no one, and says how the operator enables it', async () => {
    const tenant = await factory.tenant(suite.app);
    const none = await expectError(await suite.app.request('/metrics'), 401, 'AUTHENTICATION_REQUIRED');
    expect(none.detail).toContain('SCANWARD_METRICS_TOKEN');
    const bearer = { authorization: `Bearer ${await tenant.bearer()}` };
    await expectError(
      await suite.app.request('/metrics', { headers: bearer }),
      403,
      'INSUFFICIENT_PERMISSION',
    );
    await expectError(
      await suite.app.request('/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }),
      401,
      'INVALID_TOKEN',
    );
  });
});

describe(`/metrics with SCANWARD_METRICS_PUBLIC=true (${testEngine})`, () => {
  const suite = useTestApp({ env: { SCANWARD_METRICS_PUBLIC: 'true' } });

  it('serves everyone, with or without credentials; the documentation stays closed', async () => {
    const tenant = await factory.tenant(suite.app);
    const callers: Array<Record<string, string>> = [{}, { authorization: `Bearer ${await tenant.bearer()}` }];
    for (const headers of callers) {
      const res = await suite.app.request('/metrics', { headers });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('scanward_scans{status="pending"}');
    }
    expect((await suite.app.request('/openapi.json')).status).toBe(401);
  });
});
