import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../../server/routes/docs.ts';
import { testEngine } from '../../helpers/database.ts';
import { factory, mintApiKey } from '../../helpers/factory.ts';
import { useTestApp } from '../../helpers/suite-app.ts';

/**
 * The OpenAPI document declares `X-RateLimit-*` on exactly the answers that carry them (issue
 * 19, item 10): every answer after the request was counted (a 403 for a missing permission
 * among them, which the 41 declared 403s used to omit), never a 401 of failed
 * authentication. Each case sends a real request and reads the declaration of the very
 * operation and status it got; the typed client checks the same on every answer of the suite
 * (test/helpers/api-client.ts).
 */

interface ResponseObject {
  headers?: Record<string, unknown>;
}
const doc = openApiDocument('test') as unknown as {
  paths: Record<string, Record<string, { responses: Record<string, ResponseObject> }>>;
};

const RATE = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

function declaresRate(method: string, path: string, status: number): boolean {
  const response = doc.paths[path]?.[method]?.responses[String(status)];
  if (!response) throw new Error(`${method} ${path} declares no ${status}`);
  const names = Object.keys(response.headers ?? {});
  const declared = RATE.filter((h) => names.includes(h));
  expect([0, 3], `${method} ${path} ${status} declares all three or none`).toContain(declared.length);
  return declared.length === 3;
}

function carriesRate(res: Response): boolean {
  const present = RATE.filter((h) => res.headers.has(h));
  expect([0, 3], 'all three or none').toContain(present.length);
  return present.length === 3;
}

describe(`X-RateLimit-* are declared where they are sent (${testEngine})`, () => {
  const suite = useTestApp();

  /** Sends a request and checks its answer's headers against the declaration of `path`'s operation. */
  async function answer(method: string, url: string, path: string, init: RequestInit = {}) {
    const res = await suite.app.request(url, { ...init, method: method.toUpperCase() });
    await res.arrayBuffer();
    return {
      status: res.status,
      carries: carriesRate(res),
      declared: declaresRate(method, path, res.status),
    };
  }

  it('declares none on a 401 of failed authentication, which carries none', async () => {
    const callers: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer not-a-token' },
      { 'x-api-key': `sw_${'x'.repeat(43)}` },
    ];
    for (const headers of callers) {
      const got = await answer('get', '/api/v1/scans', '/api/v1/scans', { headers });
      expect(got).toEqual({ status: 401, carries: false, declared: false });
    }
  });

  it('declares them on the 403 of a missing permission, which carries them', async () => {
    const tenant = await factory.tenant(suite.app, { apiKey: ['read:findings'] });
    const got = await answer('get', '/api/v1/scans', '/api/v1/scans', {
      headers: { 'x-api-key': tenant.key! },
    });
    expect(got).toEqual({ status: 403, carries: true, declared: true });
    const member = await tenant.addUser('member');
    const asMember = { authorization: `Bearer ${await tenant.bearer(member)}` };
    const admin = await answer('post', '/api/v1/webhooks', '/api/v1/webhooks', {
      headers: { ...asMember, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://93.184.215.14/hook', events: ['scan.started'] }),
    });
    expect(admin).toEqual({ status: 403, carries: true, declared: true });
  });

  it('lets a 403 refused at authentication (a key whose plan lost API keys) come without them: declared optional', async () => {
    const tenant = await factory.tenant(suite.app, { plan: 'startup' });
    const key = await mintApiKey(suite.app.services.db, { id: tenant.admin.id, orgId: tenant.orgId }, [
      'read:scans',
    ]);
    const got = await answer('get', '/api/v1/scans', '/api/v1/scans', { headers: { 'x-api-key': key } });
    expect(got).toEqual({ status: 403, carries: false, declared: true });
  });

  it('declares them on successes and on errors after the count (404, 422)', async () => {
    const tenant = await factory.tenant(suite.app);
    const headers = { authorization: `Bearer ${await tenant.bearer()}` };
    expect(await answer('get', '/api/v1/scans', '/api/v1/scans', { headers })).toEqual({
      status: 200,
      carries: true,
      declared: true,
    });
    const unknown = await answer(
      'get',
      '/api/v1/scans/scan_unknown0000000000000000',
      '/api/v1/scans/{scan_id}',
      {
        headers,
      },
    );
    expect(unknown).toEqual({ status: 404, carries: true, declared: true });
    const invalid = await answer('get', '/api/v1/scans?per_page=1000', '/api/v1/scans', { headers });
    expect(invalid).toEqual({ status: 422, carries: true, declared: true });
  });

  it('declares them on the 401 of a wrong MFA code, which the handler answers after the count', async () => {
    const tenant = await factory.tenant(suite.app);
    const headers = { authorization: `Bearer ${await tenant.bearer()}`, 'content-type': 'application/json' };
    const setup = await suite.app.request('/api/v1/auth/mfa/setup', { method: 'POST', headers });
    const { secret } = (await setup.json()) as { secret: string };
    const totp = new TOTP({ secret: Secret.fromBase32(secret) });
    const valid = new Set([-1, 0, 1].map((w) => totp.generate({ timestamp: Date.now() + w * 30_000 })));
    const wrong = ['000000', '111111', '222222', '333333'].find((c) => !valid.has(c))!;
    const got = await answer('post', '/api/v1/auth/mfa/verify', '/api/v1/auth/mfa/verify', {
      headers,
      body: JSON.stringify({ code: wrong }),
    });
    expect(got).toEqual({ status: 401, carries: true, declared: true });
  });

  it('declares them on a documentation page, which describes the rate to a caller with credentials', async () => {
    const tenant = await factory.tenant(suite.app);
    const page = await answer('get', '/openapi.json', '/openapi.json', {
      headers: { authorization: `Bearer ${await tenant.bearer()}` },
    });
    expect(page).toEqual({ status: 200, carries: true, declared: true });
    expect(await answer('get', '/openapi.json', '/openapi.json')).toEqual({
      status: 401,
      carries: false,
      declared: false,
    });
  });
});
