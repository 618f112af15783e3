import { beforeAll, describe, expect, it } from 'vitest';
import { openSecret } from '../../../server/auth/keys.ts';
import { createScanRoute } from '../../../server/routes/scans.ts';
import { createScheduleRoute } from '../../../server/routes/schedules.ts';
import { okBody } from '../../helpers/api-client.ts';
import type { TestApp } from '../../helpers/app.ts';
import { testEngine } from '../../helpers/database.ts';
import { factory, loopbackScan, type BuiltTenant } from '../../helpers/factory.ts';
import { useTestApp } from '../../helpers/suite-app.ts';

/**
 * The secrets of a scan's `web` options at rest (docs/web-testing.md, "Secrets"): sealed like
 * webhook secrets, so the rows of every table a scan request writes hold no secret in clear.
 */

const PASSWORD = 'pw-at-rest-3e9a7c';
const TOKEN = 'Bearer at-rest-token-51d0';

describe(`web option secrets at rest (${testEngine})`, () => {
  let app: TestApp;
  let t: BuiltTenant;

  const suite = useTestApp();
  beforeAll(async () => {
    app = suite.app;
    t = await factory.tenant(app, { plan: 'enterprise' });
  });

  const form = {
    active: true,
    authentication: {
      type: 'form',
      login_url: 'http://127.0.0.1/login',
      username: 'admin',
      password: PASSWORD,
    },
  };
  const headers = { authentication: { type: 'headers', headers: { Authorization: TOKEN } } };

  it('stores the password and header values sealed, in no table in clear', async () => {
    const scan = okBody(
      await t.api.call(
        createScanRoute,
        { body: loopbackScan({ web: form }) as never },
        { headers: { 'Idempotency-Key': 'at-rest' } },
      ),
      201,
    );
    const other = okBody(
      await t.api.call(createScanRoute, { body: loopbackScan({ web: headers }) as never }),
      201,
    );
    okBody(
      await t.api.call(createScheduleRoute, {
        body: { target: '127.0.0.1', frequency: 'daily', authorized: true, web: form } as never,
      }),
      201,
    );

    // A raw read (allowed in test/integration/db/): the test is about what the row holds at rest: no API answers the sealed value
    const rows = (await app.services.db('scans').whereIn('id', [scan.id, other.id]).select('id', 'web')) as {
      id: string;
      web: { authentication: { sealed_password?: string; sealed_headers?: Record<string, string> } };
    }[];
    const byId = new Map(rows.map((r) => [r.id, r.web]));
    const sealedPassword = byId.get(scan.id)!.authentication.sealed_password!;
    expect(sealedPassword).toMatch(/^v1\./);
    expect(openSecret(app.services.keys.encryptionKey, sealedPassword)).toBe(PASSWORD);
    const sealedToken = byId.get(other.id)!.authentication.sealed_headers!.Authorization!;
    expect(openSecret(app.services.keys.encryptionKey, sealedToken)).toBe(TOKEN);

    for (const table of ['scans', 'scan_schedules', 'idempotency_keys', 'domain_events']) {
      // A raw read (allowed in test/integration/db/): a raw read of every row: the secret must be in none, whatever the column
      const all = JSON.stringify(await app.services.db(table).select('*'));
      expect(all.includes(PASSWORD), table).toBe(false);
      expect(all.includes(TOKEN), table).toBe(false);
    }
  });
});
