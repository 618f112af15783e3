import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_FAILURES_PER_ADDRESS, MAX_FAILURES_PER_EMAIL } from '../../../server/auth/login-throttle.ts';
import { findUser } from '../../../server/identity/users.repository.ts';
import { apiClient } from '../../helpers/api-client.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { testEngine } from '../../helpers/database.ts';
import {
  enrollMfa,
  factory,
  stepWithRoom,
  totpCodeAt,
  wrongTotpCode,
  type BuiltTenant,
} from '../../helpers/factory.ts';

/**
 * The failed-login limit (10 per e-mail, 50 per client address in 15 minutes) holds
 * exactly under concurrency: each password or MFA-code check reserves its attempt
 * before it runs, so a burst of simultaneous requests gets exactly the limit's worth
 * of checks (401) and 429 for the rest, and a right password after them is refused too.
 */

const BURST = 60;

interface Tally {
  /** How many answers had each status. */
  statuses: Record<number, number>;
  /** How many answers had each `error_code`. */
  codes: Record<string, number>;
}

async function tally(responses: Response[]): Promise<Tally> {
  const statuses: Record<number, number> = {};
  const codes: Record<string, number> = {};
  for (const res of responses) {
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    const body = (await res.json()) as { error_code?: string };
    if (body.error_code) codes[body.error_code] = (codes[body.error_code] ?? 0) + 1;
    if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  }
  return { statuses, codes };
}

const burst = (count: number, send: (i: number) => Promise<Response>) =>
  Promise.all(Array.from({ length: count }, (_, i) => send(i)));

let clients = 0;
/** A client address of its own for each scenario (documentation range, only ever a header). */
const newClient = () => ({ 'x-forwarded-for': `198.51.100.${++clients}` });

describe(`failed-login limits under concurrency (${testEngine})`, () => {
  let app: TestApp;
  let tenant: BuiltTenant;

  const tokenRequest = (username: string, password: string, headers: Record<string, string>, mfa?: string) =>
    app.request('/api/v1/auth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams({ username, password, ...(mfa === undefined ? {} : { mfa_code: mfa }) }),
    });

  // Behind a trusted proxy each scenario can be a client address of its own.
  const suite = useTestApp({ env: { SCANWARD_TRUST_PROXY: 'true' } });
  beforeAll(async () => {
    app = suite.app;
    tenant = await factory.tenant(app, { plan: 'professional' });
  });

  it(`checks exactly ${MAX_FAILURES_PER_EMAIL} of ${BURST} simultaneous wrong passwords for one e-mail, then refuses the right one`, async () => {
    const user = await tenant.addUser('member');
    const client = newClient();
    const wrong = await tally(await burst(BURST, (i) => tokenRequest(user.email, `wrong-${i}`, client)));
    expect(wrong.statuses).toEqual({ 401: MAX_FAILURES_PER_EMAIL, 429: BURST - MAX_FAILURES_PER_EMAIL });
    expect(wrong.codes).toEqual({
      INVALID_CREDENTIALS: MAX_FAILURES_PER_EMAIL,
      RATE_LIMIT_EXCEEDED: BURST - MAX_FAILURES_PER_EMAIL,
    });

    // The right password, many times at once and from another address: refused every time.
    const right = await tally(await burst(20, () => tokenRequest(user.email, user.password, newClient())));
    expect(right.statuses).toEqual({ 429: 20 });
  }, 120_000);

  it(`checks exactly ${MAX_FAILURES_PER_ADDRESS} simultaneous wrong passwords from one address across many e-mails`, async () => {
    const client = newClient();
    // Two attempts per e-mail: never the per-e-mail limit, only the per-address one.
    const sprayed = await tally(
      await burst(BURST, (i) =>
        tokenRequest(`spray-${Math.floor(i / 2)}@victims.example.test`, 'Winter2026!', client),
      ),
    );
    expect(sprayed.statuses).toEqual({
      401: MAX_FAILURES_PER_ADDRESS,
      429: BURST - MAX_FAILURES_PER_ADDRESS,
    });
    const member = await tenant.addUser('member');
    expect((await tally([await tokenRequest(member.email, member.password, client)])).statuses).toEqual({
      429: 1,
    });
  }, 240_000);

  it(`checks exactly ${MAX_FAILURES_PER_EMAIL} of ${BURST} simultaneous wrong MFA codes at log-in, then refuses the right code`, async () => {
    const user = await tenant.addUser('member');
    const { totp } = await enrollMfa(apiClient(app, { token: await tenant.bearer(user) }));
    const client = newClient();
    const wrong = await tally(
      await burst(BURST, () => tokenRequest(user.email, user.password, client, wrongTotpCode(totp))),
    );
    expect(wrong.statuses).toEqual({ 401: MAX_FAILURES_PER_EMAIL, 429: BURST - MAX_FAILURES_PER_EMAIL });
    expect(wrong.codes.INVALID_MFA_CODE).toBe(MAX_FAILURES_PER_EMAIL);

    const step = await stepWithRoom(totp, 5_000);
    const right = await tally(
      await burst(20, () => tokenRequest(user.email, user.password, newClient(), totpCodeAt(totp, step))),
    );
    expect(right.statuses).toEqual({ 429: 20 });
  }, 120_000);

  it(`checks exactly ${MAX_FAILURES_PER_EMAIL} of ${BURST} simultaneous wrong codes on the MFA endpoints of a signed-in user`, async () => {
    const user = await tenant.addUser('member');
    const token = await tenant.bearer(user);
    const { totp } = await enrollMfa(apiClient(app, { token }));
    const client = newClient();
    const turnOff = (code: string, headers: Record<string, string>) =>
      app.request('/api/v1/auth/mfa', {
        method: 'DELETE',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ code }),
      });
    const wrong = await tally(await burst(BURST, () => turnOff(wrongTotpCode(totp), client)));
    expect(wrong.statuses).toEqual({ 401: MAX_FAILURES_PER_EMAIL, 429: BURST - MAX_FAILURES_PER_EMAIL });
    expect(wrong.codes.INVALID_MFA_CODE).toBe(MAX_FAILURES_PER_EMAIL);

    const step = await stepWithRoom(totp, 5_000);
    const right = await tally(await burst(10, () => turnOff(totpCodeAt(totp, step), newClient())));
    expect(right.statuses).toEqual({ 429: 10 });
    // MFA stayed on.
    expect((await findUser(app.services.db, tenant.orgId, user.id))?.mfa_enabled).toBe(true);
  }, 120_000);

  it(`checks exactly ${MAX_FAILURES_PER_EMAIL} of ${BURST} simultaneous wrong HTTP Basic passwords on the documentation pages`, async () => {
    const user = await tenant.addUser('member');
    const basic = (password: string, headers: Record<string, string>) =>
      app.request('/openapi.json', {
        headers: {
          authorization: `Basic ${Buffer.from(`${user.email}:${password}`).toString('base64')}`,
          ...headers,
        },
      });
    const client = newClient();
    const wrong = await tally(await burst(BURST, (i) => basic(`wrong-${i}`, client)));
    expect(wrong.statuses).toEqual({ 401: MAX_FAILURES_PER_EMAIL, 429: BURST - MAX_FAILURES_PER_EMAIL });
    expect(wrong.codes.INVALID_CREDENTIALS).toBe(MAX_FAILURES_PER_EMAIL);

    const right = await Promise.all(Array.from({ length: 10 }, () => basic(user.password, newClient())));
    expect(right.map((r) => r.status)).toEqual(Array(10).fill(429));
  }, 120_000);

  it('gives the attempt back on success: bursts of right passwords as large as the limit all pass, again and again', async () => {
    const user = await tenant.addUser('member');
    const client = newClient();
    // A check in flight holds its attempt, so at most the limit's worth can run at once.
    for (let round = 0; round < 2; round++) {
      const right = await burst(MAX_FAILURES_PER_EMAIL, () =>
        tokenRequest(user.email, user.password, client),
      );
      expect(right.map((r) => r.status)).toEqual(Array(MAX_FAILURES_PER_EMAIL).fill(200));
    }
    // Nine failures after them still leave one attempt: nothing of the successes was kept.
    for (let i = 0; i < MAX_FAILURES_PER_EMAIL - 1; i++) {
      expect((await tokenRequest(user.email, `wrong-${i}`, client)).status).toBe(401);
    }
    expect((await tokenRequest(user.email, user.password, client)).status).toBe(200);
  }, 240_000);
});
