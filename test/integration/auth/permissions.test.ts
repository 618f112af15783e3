import { beforeAll, describe, expect, it } from 'vitest';
import type { AnyRoute } from '../../../server/http/contract.ts';
import { postApiKey } from '../../../server/routes/api-keys.ts';
import { allRoutes } from '../../../server/routes/index.ts';
import { Permission } from '../../../server/schemas/common.ts';
import { apiClient, okBody } from '../../helpers/api-client.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory } from '../../helpers/factory.ts';
import { testEngine } from '../../helpers/database.ts';

/**
 * The API key permission matrix, built from `allRoutes`: every route anyone adds
 * is covered without touching this file. For each route that needs credentials:
 * no credentials → 401; a bearer-only route refuses every key with 403; a
 * permission route refuses a key lacking exactly that permission with 403 and
 * lets a key holding only that permission through (any answer but 401/403:
 * placeholder ids and empty bodies usually make it 404 or 422).
 */

const PERMISSIONS = Permission.options;

async function expectErrorShape(res: Response): Promise<Record<string, unknown>> {
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await res.json()) as Record<string, unknown>;
  expect(typeof body.detail).toBe('string');
  expect(typeof body.error_code).toBe('string');
  expect(Object.keys(body).every((k) => ['detail', 'error_code', 'field'].includes(k))).toBe(true);
  if ('field' in body) expect(typeof body.field).toBe('string');
  return body;
}

/** The route's path with every parameter filled with an id of nothing. */
function placeholderPath(route: AnyRoute): string {
  return route.path.replace(
    /\{(\w+)\}/g,
    (_, name: string) => `${name.replace(/_id$/, '')}_${'0'.repeat(24)}`,
  );
}

function requestInit(route: AnyRoute, headers: Record<string, string>): RequestInit {
  if (!route.body) return { method: route.method.toUpperCase(), headers };
  const form = route.bodyType === 'form';
  return {
    method: route.method.toUpperCase(),
    headers: {
      ...headers,
      'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json',
    },
    body: form ? '' : '{}',
  };
}

const label = (route: AnyRoute) => `${route.method.toUpperCase()} ${route.path}`;
const protectedRoutes = allRoutes.filter((r) => !r.access.public);

describe(`API key permissions on every route (${testEngine})`, () => {
  let app: TestApp;
  /** A key with all six permissions. */
  let everything: string;
  /** Per permission: a key with only it, and a key with all the others. */
  const only = new Map<string, string>();
  const allBut = new Map<string, string>();

  const send = (route: AnyRoute, headers: Record<string, string>) =>
    app.request(placeholderPath(route), requestInit(route, headers));

  const suite = useTestApp();
  beforeAll(async () => {
    app = suite.app;
    // Enterprise: no plan gate or quota can answer 403 for another reason.
    const tenant = await factory.tenant(app, { plan: 'enterprise' });
    const token = await tenant.login();
    const createKey = async (name: string, permissions: Permission[]) =>
      okBody(await apiClient(app, { token }).call(postApiKey, { body: { name, permissions } }), 201).key;
    everything = await createKey('everything', PERMISSIONS);
    for (const p of PERMISSIONS) {
      only.set(p, await createKey(`only ${p}`, [p]));
      allBut.set(
        p,
        await createKey(
          `all but ${p}`,
          PERMISSIONS.filter((q) => q !== p),
        ),
      );
    }
  });

  it('covers the routes registered in allRoutes, including the authentication ones', () => {
    const paths = protectedRoutes.map(label);
    expect(paths).toEqual(
      expect.arrayContaining([
        'GET /api/v1/auth/sessions',
        'POST /api/v1/api-keys',
        'POST /api/v1/auth/refresh',
      ]),
    );
  });

  it('has a rule for API keys on every route that needs credentials: a permission, or bearer only', () => {
    const unruled = protectedRoutes.filter((r) => !r.access.permission && !r.access.bearerOnly).map(label);
    expect(unruled).toEqual([]);
  });

  for (const route of protectedRoutes) {
    it(`${label(route)}: asks for credentials`, async () => {
      const res = await send(route, {});
      expect(res.status).toBe(401);
      expect((await expectErrorShape(res)).error_code).toBe('AUTHENTICATION_REQUIRED');
    });

    if (route.access.bearerOnly) {
      it(`${label(route)}: refuses an API key, even one with every permission`, async () => {
        const res = await send(route, { 'x-api-key': everything });
        expect(res.status).toBe(403);
        expect((await expectErrorShape(res)).error_code).toBe('INSUFFICIENT_PERMISSION');
      });
      continue;
    }

    const permission = route.access.permission;
    if (!permission) continue; // reported by the "has a rule" test above

    it(`${label(route)}: refuses a key holding every permission but ${permission}`, async () => {
      const res = await send(route, { 'x-api-key': allBut.get(permission)! });
      expect(res.status).toBe(403);
      expect((await expectErrorShape(res)).error_code).toBe('INSUFFICIENT_PERMISSION');
    });

    it(`${label(route)}: lets a key holding only ${permission} through`, async () => {
      const res = await send(route, { 'x-api-key': only.get(permission)! });
      // An event stream that opened stays open: its status is the answer.
      if (res.status === 200 && /^text\/event-stream/.test(res.headers.get('content-type') ?? '')) {
        await res.body?.cancel();
        return;
      }
      const text = await res.clone().text();
      expect([401, 403], `answered ${res.status}: ${text.slice(0, 300)}`).not.toContain(res.status);
      if (res.status >= 400) await expectErrorShape(res);
      else await res.arrayBuffer();
    });
  }
});
