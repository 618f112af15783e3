import SwaggerParser from '@apidevtools/swagger-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderOpenApi } from '../../../server/cli/openapi.ts';
import { documentationPages } from '../../../server/routes/docs.ts';
import { allRoutes } from '../../../server/routes/index.ts';
import { testEngine } from '../../helpers/database.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory, mintBearerToken } from '../../helpers/factory.ts';

interface Operation {
  operationId: string;
  security?: Array<Record<string, string[]>>;
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
}
interface Document {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
}

function operationsOf(doc: Document): Array<{ method: string; path: string; op: Operation }> {
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ method, path, op })),
  );
}

describe(`/openapi.json (${testEngine})`, () => {
  let app: TestApp;
  let doc: Document;
  let text: string;
  const suite = useTestApp();
  beforeAll(async () => {
    app = suite.app;
    const tenant = await factory.tenant(app, { plan: 'professional' });
    const token = await mintBearerToken(app.services.db, app.services.keys.jwtSecret, {
      id: tenant.admin.id,
      orgId: tenant.orgId,
    });
    const res = await app.request('/openapi.json', { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    text = await res.text();
    doc = JSON.parse(text) as Document;
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.info.version).toBe(app.services.version);
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it('lists exactly the contract routes and the documentation pages', () => {
    const documented = operationsOf(doc)
      .map(({ method, path }) => `${method.toUpperCase()} ${path}`)
      .sort();
    const expected = [
      ...allRoutes.map((r) => `${r.method.toUpperCase()} ${r.path}`),
      ...documentationPages.map((p) => `GET ${p.path}`),
    ].sort();
    expect(documented).toEqual(expected);
    expect(new Set(operationsOf(doc).map(({ op }) => op.operationId)).size).toBe(documented.length);
  });

  it('describes only operations the server really serves', async () => {
    for (const { method, path } of operationsOf(doc)) {
      const concrete = path.replace(/\{\w+\}/g, 'probe_0000');
      // No credentials and no body: nothing changes, but an unknown route would say so.
      const res = await app.request(concrete, { method: method.toUpperCase() });
      const body = (await res.json().catch(() => ({}))) as { detail?: string };
      expect(res.status, `${method} ${path}`).not.toBe(405);
      expect(body.detail, `${method} ${path}`).not.toBe('route not found');
    }
  });

  it('documents 401, 403 and 429 with the Error schema on every operation that needs credentials', () => {
    const guarded = operationsOf(doc).filter(({ op }) => (op.security ?? []).length > 0);
    expect(guarded.length).toBeGreaterThan(0);
    for (const { method, path, op } of guarded) {
      for (const status of ['401', '403', '429', '500']) {
        const schema = op.responses[status]?.content?.['application/json']?.schema;
        expect(schema?.$ref, `${method} ${path} ${status}`).toBe('#/components/schemas/Error');
      }
    }
    expect(doc.components.schemas.Error).toBeDefined();
  });

  it('marks exactly the public routes as needing no credentials', () => {
    for (const route of allRoutes) {
      const op = doc.paths[route.path]![route.method]!;
      expect((op.security ?? []).length === 0, `${route.method} ${route.path}`).toBe(
        route.access.public === true,
      );
    }
  });

  it('is what the command line prints for `npm run openapi`', () => {
    expect(renderOpenApi(app.services.version)).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
  });
});
