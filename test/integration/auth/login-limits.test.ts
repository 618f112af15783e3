import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { reserveLoginAttempt } from '../../../server/auth/login-throttle.ts';
import { expectError } from '../../helpers/api-client.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory, type Tenant } from '../../helpers/factory.ts';
import { testEngine } from '../../helpers/database.ts';

/** Failed logins are limited over a sliding 15-minute window, kept in 15-minute blocks (decisions.md, "Rate limits"). */
const WINDOW_SECONDS = 15 * 60;
const windowIndex = () => Math.floor(Date.now() / 1000 / WINDOW_SECONDS);

/**
 * Runs a counting scenario inside one block. The sliding estimate counts a burst
 * across a block boundary in full (test/unit/auth/login-throttle.test.ts), so this is
 * only a second line of defence: when a block turns over while the scenario runs,
 * it runs once more with fresh identities.
 */
async function withinOneWindow(scenario: (tag: string) => Promise<void>): Promise<void> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const started = windowIndex();
    try {
      await scenario(randomBytes(4).toString('hex'));
      if (windowIndex() === started) return;
    } catch (err) {
      if (windowIndex() === started) throw err;
    }
  }
  throw new Error('the scenario crossed a window boundary twice');
}

function tokenRequest(
  app: TestApp,
  username: string,
  password: string,
  headers: Record<string, string> = {},
) {
  return app.request('/api/v1/auth/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({ username, password }),
  });
}

function expectRetryAfter(res: Response): void {
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
}

describe(`failed-login limit per e-mail (${testEngine})`, () => {
  let app: TestApp;
  let tenant: Tenant;
  const suite = useTestApp();
  beforeAll(async () => {
    app = suite.app;
    tenant = await factory.tenant(app, { plan: 'professional' });
  });

  it('answers 429 with Retry-After after 10 failures, even to the right password, for that e-mail only', async () => {
    const bystander = await tenant.addUser('member');
    await withinOneWindow(async () => {
      const victim = await tenant.addUser('member');
      for (let i = 0; i < 10; i++) {
        await expectError(await tokenRequest(app, victim.email, `wrong-${i}`), 401, 'INVALID_CREDENTIALS');
      }
      for (const email of [victim.email, victim.email.toUpperCase(), ` ${victim.email} `]) {
        const blocked = await tokenRequest(app, email, victim.password);
        await expectError(blocked, 429, 'RATE_LIMIT_EXCEEDED');
        expectRetryAfter(blocked);
      }
    });
    // Another account from the same address is unaffected.
    expect((await tokenRequest(app, bystander.email, bystander.password)).status).toBe(200);
  });

  it('limits an unknown e-mail exactly like a known one, so the limit reveals nothing', async () => {
    await withinOneWindow(async (tag) => {
      const ghost = `ghost-${tag}@unknown.example.test`;
      for (let i = 0; i < 10; i++) {
        await expectError(await tokenRequest(app, ghost, `wrong-${i}`), 401, 'INVALID_CREDENTIALS');
      }
      const blocked = await tokenRequest(app, ghost, 'anything');
      await expectError(blocked, 429, 'RATE_LIMIT_EXCEEDED');
      expectRetryAfter(blocked);
    });
  });

  it('counts failures of the previous block that are still inside the window', async () => {
    const email = `burst-${randomBytes(4).toString('hex')}@example.test`;
    const boundary = (Math.floor(Date.now() / 1000 / WINDOW_SECONDS) + 1) * WINDOW_SECONDS * 1000;
    const reserve = (at: number) =>
      reserveLoginAttempt(app.services.db, { email, ip: '127.0.0.21' }, new Date(at));
    // Reserved attempts that are never given back count as failures.
    for (let i = 0; i < 5; i++) await reserve(boundary - 1000);
    for (let i = 0; i < 5; i++) await reserve(boundary + 1000);
    // Ten failures within two seconds across a block boundary: refused, as ten in one block would be.
    await expect(reserve(boundary + 2000)).rejects.toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' });
    // Once the previous block has left the window, its five no longer count.
    await expect(reserve(boundary + WINDOW_SECONDS * 1000 - 1000)).resolves.toMatchObject({
      buckets: expect.any(Array),
    });
  });

  it('does not count successful logins', async () => {
    const user = await tenant.addUser('member');
    for (let i = 0; i < 12; i++)
      expect((await tokenRequest(app, user.email, user.password)).status).toBe(200);
  });

  it('does not count the login against the organization request rate', async () => {
    const res = await tokenRequest(app, tenant.admin.email, tenant.admin.password);
    expect(res.status).toBe(200);
    // Its X-RateLimit-* describe the per-address failed log-in limit (issue 31 item 8), not the
    // organization's request rate.
    expect(res.headers.get('x-ratelimit-limit')).toBe('50');
  });
});

describe(`failed-login limit per client address (${testEngine})`, () => {
  let app: TestApp;
  let tenant: Tenant;
  // Behind a trusted proxy the client address comes from X-Forwarded-For, so
  // each run of the scenario can be a client of its own.
  const suite = useTestApp({ env: { SCANWARD_TRUST_PROXY: 'true' } });
  beforeAll(async () => {
    app = suite.app;
    tenant = await factory.tenant(app, { plan: 'professional' });
  });

  // Fifty password checks: the timeout allows for a slow machine.
  it('answers 429 to every e-mail from an address after 50 failures across many e-mails', async () => {
    const user = await tenant.addUser('member');
    let attempt = 0;
    await withinOneWindow(async (tag) => {
      // Documentation-range address: a string in a header, never connected to.
      const client = { 'x-forwarded-for': `192.0.2.${++attempt}` };
      for (let i = 0; i < 50; i++) {
        // Five failures per e-mail: never the per-e-mail limit, only the per-address one.
        const email = `spray-${tag}-${Math.floor(i / 5)}@victims.example.test`;
        await expectError(await tokenRequest(app, email, 'Winter2026!', client), 401, 'INVALID_CREDENTIALS');
      }
      const blocked = await tokenRequest(app, user.email, user.password, client);
      await expectError(blocked, 429, 'RATE_LIMIT_EXCEEDED');
      expectRetryAfter(blocked);
    });
    // The same account from another address still logs in.
    expect(
      (await tokenRequest(app, user.email, user.password, { 'x-forwarded-for': '192.0.2.200' })).status,
    ).toBe(200);
  }, 240_000);
});
