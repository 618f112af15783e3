import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AnyRoute } from '../../../server/http/contract.ts';
import { ROLES, roleGrants, routeRoles } from '../../../server/policies/roles.ts';
import { openApiDocument } from '../../../server/routes/docs.ts';
import { allRoutes } from '../../../server/routes/index.ts';
import { Permission, type Role } from '../../../server/schemas/common.ts';
import { apiClient, type Answer, type Credential } from '../../helpers/api-client.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory, type BuiltTenant, type TestUser } from '../../helpers/factory.ts';
import { testEngine } from '../../helpers/database.ts';

/**
 * Every route × every role, derived from `allRoutes`, so a route added anywhere
 * joins the matrix by itself: a role the policy allows gets past the access check
 * (whatever the route answers next: 200, 404 for the missing ids it is given, 422
 * for the body it is not given), a role it does not allow gets 403
 * INSUFFICIENT_PERMISSION. Then the same with API keys of each role's user carrying
 * every permission (as a key made before a demotion would): a key never does more
 * than its creator's role. Ids in paths name nothing and no body is sent, so an
 * allowed call changes nothing (validation and look-ups come after the access
 * check); every call uses a fresh session, so a route that ends the caller's
 * sessions cannot disturb the next.
 */

const routeName = (route: AnyRoute) => `${route.method.toUpperCase()} ${route.path}`;

/** An id that names nothing, of the kind the parameter expects. */
function missingId(param: string): string {
  const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz';
  const tail = [...randomBytes(24)].map((b) => alphabet[b % 36]).join('');
  return `${param.replace(/_id$/, '')}_${tail}`;
}

const fillPath = (path: string) => path.replace(/\{(\w+)\}/g, (_, name: string) => missingId(name));

const refused = (answer: Answer) =>
  answer.status === 403 && (answer.body as { error_code?: unknown }).error_code === 'INSUFFICIENT_PERMISSION';

describe(`every route × every role (${testEngine})`, () => {
  let app: TestApp;
  let tenant: BuiltTenant;
  let users: Record<Role, TestUser>;

  const guarded = allRoutes.filter((route) => !route.access.public);
  const call = (route: AnyRoute, credential: Credential) =>
    apiClient(app, credential).send(route.method, fillPath(route.path));

  const suite = useTestApp();
  beforeAll(async () => {
    app = suite.app;
    tenant = await factory.tenant(app, { plan: 'enterprise' });
    users = {
      admin: tenant.admin,
      member: await tenant.addUser('member'),
      viewer: await tenant.addUser('viewer'),
    };
  });

  it('derives the roles of the routes from their permissions, with the admin-only ones named', () => {
    const rolesOf = (method: string, path: string) =>
      routeRoles(allRoutes.find((r) => routeName(r) === `${method} ${path}`)!.access);
    expect(rolesOf('GET', '/api/v1/findings')).toEqual(['admin', 'member', 'viewer']);
    expect(rolesOf('PATCH', '/api/v1/findings/{finding_id}')).toEqual(['admin', 'member']);
    expect(rolesOf('POST', '/api/v1/scans')).toEqual(['admin', 'member']);
    expect(rolesOf('GET', '/api/v1/controls/{control_id}')).toEqual(['admin', 'member', 'viewer']);
    expect(rolesOf('POST', '/api/v1/scans/schedules')).toEqual(['admin']);
    expect(rolesOf('POST', '/api/v1/webhooks')).toEqual(['admin']);
    expect(rolesOf('POST', '/api/v1/users')).toEqual(['admin']);
    expect(rolesOf('GET', '/api/v1/audit-events')).toEqual(['admin']);
    expect(rolesOf('POST', '/api/v1/api-keys')).toEqual(['admin', 'member']);
    expect(rolesOf('POST', '/api/v1/auth/password')).toEqual(['admin', 'member', 'viewer']);
    expect(rolesOf('GET', '/api/v1/auth/sessions')).toEqual(['admin', 'member', 'viewer']);
  });

  it('states the roles of every route in the OpenAPI document', () => {
    const paths = openApiDocument('test').paths as Record<string, Record<string, Record<string, unknown>>>;
    for (const route of guarded) {
      const operation = paths[route.path]?.[route.method];
      expect(operation?.['x-scanward-roles'], routeName(route)).toEqual([...routeRoles(route.access)]);
      expect(operation?.description, routeName(route)).toContain(
        `Roles: ${routeRoles(route.access).join(', ')}.`,
      );
    }
  });

  it('lets each role call exactly the routes the policy allows it (bearer tokens)', async () => {
    const failures: string[] = [];
    for (const route of guarded) {
      const allowed = routeRoles(route.access);
      for (const role of ROLES) {
        const answer = await call(route, { token: await tenant.bearer(users[role]) });
        const expected = allowed.includes(role) ? 'allowed' : 'refused';
        const got = refused(answer) ? 'refused' : answer.status === 401 ? 'unauthenticated' : 'allowed';
        if (got !== expected) {
          failures.push(`${routeName(route)} as ${role}: ${expected}, got ${answer.status} ${answer.text}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(guarded.length).toBeGreaterThanOrEqual(40);
  });

  it("limits an API key to its creator's role, whatever permissions it carries", async () => {
    const keyRoutes = guarded.filter((route) => !route.access.bearerOnly);
    const keys = Object.fromEntries(
      await Promise.all(
        ROLES.map(async (role) => [role, await tenant.apiKey([...Permission.options], users[role])]),
      ),
    ) as Record<Role, string>;
    const failures: string[] = [];
    for (const route of keyRoutes) {
      for (const role of ROLES) {
        const permission = route.access.permission;
        const allowed =
          routeRoles(route.access).includes(role) &&
          (permission === undefined || roleGrants(role, permission));
        const answer = await call(route, { apiKey: keys[role] });
        if (refused(answer) === allowed || answer.status === 401) {
          failures.push(
            `${routeName(route)} with a key of a ${role}: ${allowed ? 'allowed' : 'refused'}, got ${answer.status} ${answer.text}`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
    expect(keyRoutes.length).toBeGreaterThanOrEqual(15);
  });

  it('refuses API keys on every bearer-only route, whatever the role', async () => {
    const key = await tenant.apiKey([...Permission.options]);
    for (const route of guarded.filter((r) => r.access.bearerOnly)) {
      expect(refused(await call(route, { apiKey: key })), routeName(route)).toBe(true);
    }
  });
});
