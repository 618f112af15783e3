import { decodeJwt } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_COOKIE } from '../../../server/auth/console-session.ts';
import { getConsoleSession, signInConsole } from '../../../server/routes/console-session.ts';
import { apiClient } from '../../helpers/api-client.ts';
import { testEngine } from '../../helpers/database.ts';
import { openStream } from '../../helpers/event-stream.ts';
import { factory, type Tenant } from '../../helpers/factory.ts';
import { useTestApp } from '../../helpers/suite-app.ts';

/**
 * Issue 31 item 9, confirmed: an event stream opened with the console's session cookie asks
 * for its caller again every heartbeat, and once the cookie was older than the renewal
 * window, that check tried to set a fresh cookie on an answer whose headers were long sent;
 * it threw, and the stream ended. The renewal now leaves a sent answer alone: the stream goes
 * on past the renewal point (a window of 1 s and a heartbeat of 1 s here).
 */
describe(`a console event stream past the cookie's renewal point (${testEngine})`, () => {
  const suite = useTestApp({
    env: { SCANWARD_EVENTS_HEARTBEAT_SECONDS: '1', SCANWARD_CONSOLE_RENEW_AFTER_SECONDS: '1' },
  });
  let tenant: Tenant;
  beforeAll(async () => {
    tenant = await factory.tenant(suite.app, { plan: 'professional' });
  });

  it('keeps streaming heartbeats after the cookie is due for renewal', async () => {
    const signIn = await apiClient(suite.app).call(signInConsole, {
      body: { email: tenant.admin.email, password: tenant.admin.password },
    });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(';')[0]!)
      .find((c) => c.startsWith(`${CONSOLE_COOKIE}=`))!;
    const issuedAt = decodeJwt(cookie.slice(CONSOLE_COOKIE.length + 1)).iat!;

    const stream = await openStream(suite.app, { cookie });
    expect(stream.status).toBe(200);
    try {
      // Each heartbeat follows a check of the caller; by the fourth, the cookie is past the window.
      for (let i = 0; i < 4; i++) expect(await stream.comment()).toBe('heartbeat');
      expect(Date.now() / 1000 - issuedAt).toBeGreaterThan(1);
      expect(await stream.comment()).toBe('heartbeat');
    } finally {
      stream.close();
    }
    // A request of its own after the window still renews the cookie.
    const later = await apiClient(suite.app, { headers: { cookie } }).call(getConsoleSession);
    expect(later.status).toBe(200);
    expect(later.headers.getSetCookie().some((c) => c.startsWith(`${CONSOLE_COOKIE}=`))).toBe(true);
  });
});
