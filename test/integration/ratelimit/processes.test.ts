import { randomBytes } from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FAILURES_PER_EMAIL } from '../../../server/auth/login-throttle.ts';
import type { AnyRoute } from '../../../server/http/contract.ts';
import { createOrganization, setLimits } from '../../../server/identity/organizations.ts';
import { createUser } from '../../../server/identity/users.ts';
import { listUsersWithOrganization, type UserListRow } from '../../../server/identity/users.repository.ts';
import { readWindows } from '../../../server/ratelimit/counters.ts';
import { allRoutes } from '../../../server/routes/index.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';
import { mintBearerToken } from '../../helpers/factory.ts';
import { type ServerProcess, spawnServer } from '../../helpers/server-process.ts';

/**
 * Two real server processes behind one "load balancer" (the test) share one
 * PostgreSQL database and must enforce one limit. PGlite belongs to a single
 * process, so this runs only with DATABASE_URL.
 */

/** A counted production route any signed-in admin can call without parameters. */
const countedRoute: AnyRoute | undefined = allRoutes.find(
  (r) =>
    r.method === 'get' &&
    !r.access.public &&
    r.rateLimited !== false &&
    !r.path.includes('{') &&
    r.path.startsWith('/api/v1/'),
);

const HOURLY_LIMIT = 30;
const REQUESTS = 50;

if (!process.env.DATABASE_URL) {
  console.warn(
    'platform-ratelimit-processes: skipped; set DATABASE_URL to run it (PGlite is single-process)',
  );
}
if (!countedRoute)
  console.warn('platform-ratelimit-processes: skipped; no counted GET route is registered yet');

// The two processes start once (starting them is slow) on an empty database; the users their start
// made are read right then, so the tests, which each add an organization of their own, run in any order.
describe.skipIf(!process.env.DATABASE_URL || !countedRoute)(
  'two server processes sharing one PostgreSQL enforce one request limit (postgres)',
  () => {
    let database: TestDatabase;
    let db: Knex;
    let usersAtStart: UserListRow[];
    const servers: ServerProcess[] = [];
    const jwtSecret = randomBytes(48).toString('base64url');

    beforeAll(async () => {
      database = await createTestDatabase();
      const env = {
        DATABASE_URL: database.url!,
        SCANWARD_ROLE: 'api',
        SCANWARD_JWT_SECRET: jwtSecret,
        SCANWARD_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      };
      // Both start together on an empty database: migrations and bootstrap must not trip over each other.
      servers.push(await spawnServer(env), await spawnServer(env));
      await Promise.all(servers.map((s) => s.ready(90_000)));
      db = knexFactory({ client: 'pg', connection: database.url!, pool: { min: 0, max: 2 } });
      usersAtStart = await listUsersWithOrganization(db, undefined);
    }, 120_000);

    afterAll(async () => {
      for (const s of servers) s.kill();
      await Promise.all(servers.map((s) => s.exited));
      await db?.destroy();
      await database?.drop();
    });

    it('created exactly one bootstrap organization although both processes started on an empty database', async () => {
      expect(usersAtStart.map((u) => [u.role, u.org_name])).toEqual([['admin', 'Default organization']]);
    });

    it(`lets exactly ${HOURLY_LIMIT} of ${REQUESTS} concurrent requests through, split across both processes`, async () => {
      const org = await createOrganization(db, { name: 'Two processes', plan: 'professional' });
      await setLimits(db, org.id, { hourly: HOURLY_LIMIT });
      const user = await createUser(db, {
        orgId: org.id,
        email: `rate-${randomBytes(4).toString('hex')}@example.test`,
        password: `pw-${randomBytes(12).toString('hex')}`,
        role: 'admin',
      });
      const token = await mintBearerToken(db, new TextEncoder().encode(jwtSecret), {
        id: user.id,
        orgId: org.id,
      });

      const responses = await Promise.all(
        Array.from({ length: REQUESTS }, (_, i) =>
          fetch(`${servers[i % 2]!.url}${countedRoute!.path}`, {
            headers: { authorization: `Bearer ${token}` },
          }),
        ),
      );
      const statuses = responses.map((r) => r.status);
      const passed = responses.filter((r) => r.status !== 429);
      const refused = responses.filter((r) => r.status === 429);
      expect(passed).toHaveLength(HOURLY_LIMIT);
      expect(refused).toHaveLength(REQUESTS - HOURLY_LIMIT);
      expect(new Set(passed.map((r) => r.status)), `statuses: ${statuses.join(',')}`).toEqual(new Set([200]));
      // Both processes answered some of each, so the limit was not enforced by one alone.
      for (const parity of [0, 1]) {
        expect(responses.filter((r, i) => i % 2 === parity && r.status === 200).length).toBeGreaterThan(0);
      }
      for (const r of refused) {
        expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
        expect(((await r.json()) as { error_code: string }).error_code).toBe('RATE_LIMIT_EXCEEDED');
      }
      const remaining = passed
        .map((r) => Number(r.headers.get('x-ratelimit-remaining')))
        .sort((a, b) => a - b);
      expect(remaining).toEqual(Array.from({ length: HOURLY_LIMIT }, (_, i) => i));
      // Refused requests were taken back: the shared counter holds exactly what was served.
      const [hour] = await readWindows(db, [{ bucket: `org:${org.id}:hour`, seconds: 3600 }]);
      expect(hour!.count).toBe(HOURLY_LIMIT);
    });

    it(`checks exactly ${MAX_FAILURES_PER_EMAIL} of ${REQUESTS} concurrent wrong passwords for one e-mail, split across both processes`, async () => {
      const org = await createOrganization(db, { name: 'Two processes, one log-in limit', plan: 'startup' });
      const password = `pw-${randomBytes(12).toString('hex')}`;
      const user = await createUser(db, {
        orgId: org.id,
        email: `target-${randomBytes(4).toString('hex')}@example.test`,
        password,
        role: 'member',
      });
      const tokenRequest = (server: ServerProcess, pw: string) =>
        fetch(`${server.url}/api/v1/auth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ username: user.email, password: pw }),
        });
      const wrong = await Promise.all(
        Array.from({ length: REQUESTS }, (_, i) => tokenRequest(servers[i % 2]!, `wrong-${i}`)),
      );
      const statuses = wrong.map((r) => r.status);
      expect(
        statuses.filter((s) => s === 401),
        `statuses: ${statuses.join(',')}`,
      ).toHaveLength(MAX_FAILURES_PER_EMAIL);
      expect(statuses.filter((s) => s === 429)).toHaveLength(REQUESTS - MAX_FAILURES_PER_EMAIL);
      // The right password, through either process, is refused until the window passes.
      const right = await Promise.all(servers.map((s) => tokenRequest(s, password)));
      expect(right.map((r) => r.status)).toEqual([429, 429]);
    }, 120_000);
  },
);
