import { beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../../server/routes/docs.ts';
import { testEngine } from '../../helpers/database.ts';
import { factory, type Tenant } from '../../helpers/factory.ts';
import { useTestApp } from '../../helpers/suite-app.ts';

/**
 * Issue 31 item 8: the log-in routes' answers (401/403 among them) carried no `X-RateLimit-*`
 * though decisions.md says responses carry them. Every answer of the token log-in and the
 * console sign-in now carries the per-address limit (50 failed log-ins in 15 minutes), and
 * the OpenAPI document declares it on each of their responses.
 */
describe(`X-RateLimit-* on the log-in routes (${testEngine})`, () => {
  // An app of its own: the client address's failures start from none.
  const suite = useTestApp();
  let tenant: Tenant;
  beforeAll(async () => {
    tenant = await factory.tenant(suite.app, { plan: 'professional' });
  });

  const rate = (res: Response) => ({
    limit: Number(res.headers.get('x-ratelimit-limit')),
    remaining: Number(res.headers.get('x-ratelimit-remaining')),
    reset: Number(res.headers.get('x-ratelimit-reset')),
  });
  const token = (password: string) =>
    suite.app.request('/api/v1/auth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: tenant.admin.email, password }),
    });
  const consoleSignIn = (body: Record<string, unknown>) =>
    suite.app.request('/api/v1/auth/console/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('carries the per-address limit on failures, successes and refusals of both log-in routes', async () => {
    const first = await token('wrong password');
    expect(first.status).toBe(401);
    const before = rate(first);
    expect(before.limit).toBe(50);
    expect(before.remaining).toBe(49);
    expect(before.reset).toBeGreaterThan(Date.now() / 1000);

    const second = await token('wrong again');
    expect(second.status).toBe(401);
    expect(rate(second).remaining).toBe(48);

    const ok = await token(tenant.admin.password);
    expect(ok.status).toBe(200);
    expect(rate(ok)).toMatchObject({ limit: 50, remaining: 48 }); // a success is not a failure

    const consoleWrong = await consoleSignIn({ email: tenant.admin.email, password: 'wrong' });
    expect(consoleWrong.status).toBe(401);
    expect(rate(consoleWrong)).toMatchObject({ limit: 50, remaining: 47 });

    const invalid = await consoleSignIn({ email: tenant.admin.email });
    expect(invalid.status).toBe(422);
    expect(rate(invalid)).toMatchObject({ limit: 50, remaining: 47 });
  });

  it('declares them on every response of both routes', () => {
    const doc = openApiDocument('test') as unknown as {
      paths: Record<
        string,
        Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>
      >;
    };
    for (const path of ['/api/v1/auth/token', '/api/v1/auth/console/session']) {
      const responses = doc.paths[path]!.post!.responses;
      expect(Object.keys(responses).length).toBeGreaterThan(3);
      for (const [status, response] of Object.entries(responses)) {
        expect(Object.keys(response.headers ?? {}), `${path} ${status}`).toEqual(
          expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']),
        );
      }
    }
  });
});
