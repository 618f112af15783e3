import { request as httpRequest } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineRoute } from '../../../server/http/contract.ts';
import { PaginationQuery } from '../../../server/schemas/common.ts';
import { testEngine } from '../../helpers/database.ts';
import { expectError } from '../../helpers/api-client.ts';
import { sendRaw } from '../../helpers/raw-http.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';

/** Throwaway routes, served by this test's app only. */
const echo = defineRoute({
  method: 'post',
  path: '/api/v1/platform-test/echo',
  operationId: 'platformTestEcho',
  summary: 'Echoes a name',
  tags: ['Test'],
  access: { public: true },
  body: z.object({
    name: z.string().min(1),
    target: z.object({ ports: z.array(z.number().int().max(65535)) }),
  }),
  responses: { 200: { description: 'The name', schema: z.object({ name: z.string() }) } },
  handler: async ({ body }) => ({ body: { name: body.name } }),
});

const listing = defineRoute({
  method: 'get',
  path: '/api/v1/platform-test/listing',
  operationId: 'platformTestListing',
  summary: 'A paginated listing with a required header',
  tags: ['Test'],
  access: { public: true },
  query: PaginationQuery,
  headers: z.object({ 'x-scan-token': z.string().min(10) }),
  responses: { 200: { description: 'The page', schema: z.object({ page: z.number() }) } },
  handler: async ({ query }) => ({ body: { page: query.page } }),
});

const guarded = defineRoute({
  method: 'get',
  path: '/api/v1/platform-test/guarded',
  operationId: 'platformTestGuarded',
  summary: 'Needs credentials',
  tags: ['Test'],
  access: {},
  responses: { 200: { description: 'Ok', schema: z.object({ ok: z.boolean() }) } },
  handler: async () => ({ body: { ok: true } }),
});

const SECRET_MESSAGE = 'connection to 10.1.2.3 failed for user scanward with password hunter2-secret';

const crash = defineRoute({
  method: 'get',
  path: '/api/v1/platform-test/crash',
  operationId: 'platformTestCrash',
  summary: 'Throws an unexpected error',
  tags: ['Test'],
  access: { public: true },
  responses: { 200: { description: 'Never', schema: z.object({}) } },
  handler: async () => {
    throw new Error(SECRET_MESSAGE);
  },
});

const badSql = defineRoute({
  method: 'get',
  path: '/api/v1/platform-test/bad-sql',
  operationId: 'platformTestBadSql',
  summary: 'Runs SQL that fails',
  tags: ['Test'],
  access: { public: true },
  responses: { 200: { description: 'Never', schema: z.object({}) } },
  handler: async ({ services }) => {
    await services.db.raw('select password_hash from platform_no_such_table where email = ?', ['x@y.z']);
    return { body: {} };
  },
});

const BODY_LIMIT = 2048;

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * Sends a body in chunks without Content-Length (chunked transfer encoding),
 * stopping as soon as the server answers, and returns the answer.
 */
function sendChunked(url: string, path: string, chunks: string[]): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url + path, { method: 'POST', headers: { 'content-type': 'application/json' } });
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    // Once the server has answered and closed, further writes may fail: that is expected.
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    const writeNext = (i: number) => {
      if (answered || req.destroyed) return;
      if (i === chunks.length) {
        req.end();
        return;
      }
      req.write(chunks[i], () => setImmediate(() => writeNext(i + 1)));
    };
    writeNext(0);
  });
}

describe(`errors share one shape and the decided statuses (${testEngine})`, () => {
  let app: TestApp;
  const suite = useTestApp({
    env: { SCANWARD_BODY_LIMIT: String(BODY_LIMIT) },
    extraRoutes: [echo, listing, guarded, crash, badSql],
  });
  beforeAll(() => {
    app = suite.app;
  });

  const postJson = (path: string, body: string, contentType = 'application/json') =>
    app.request(path, { method: 'POST', headers: { 'content-type': contentType }, body });

  it('answers an unknown route with 404 NOT_FOUND', async () => {
    await expectError(await app.request('/api/v1/no-such-thing'), 404, 'NOT_FOUND');
    await expectError(await app.request('/nowhere', { method: 'DELETE' }), 404, 'NOT_FOUND');
  });

  it('answers a known path with the wrong method with 405 METHOD_NOT_ALLOWED and Allow', async () => {
    const res = await app.request('/api/health', { method: 'POST' });
    await expectError(res, 405, 'METHOD_NOT_ALLOWED');
    expect(res.headers.get('allow')).toBe('GET');

    const echoGet = await app.request('/api/v1/platform-test/echo');
    await expectError(echoGet, 405, 'METHOD_NOT_ALLOWED');
    expect(echoGet.headers.get('allow')).toBe('POST');
  });

  it('answers the wrong method on the documentation paths with 405 as well', async () => {
    for (const path of ['/openapi.json', '/docs', '/redoc']) {
      const res = await app.request(path, { method: 'PUT' });
      await expectError(res, 405, 'METHOD_NOT_ALLOWED');
      expect(res.headers.get('allow')).toBe('GET');
    }
  });

  it('answers malformed JSON with 400 BAD_REQUEST', async () => {
    await expectError(await postJson('/api/v1/platform-test/echo', '{"name": "x", '), 400, 'BAD_REQUEST');
  });

  it('answers a body of the wrong content type with 400 BAD_REQUEST', async () => {
    const body = JSON.stringify({ name: 'x', target: { ports: [] } });
    await expectError(await postJson('/api/v1/platform-test/echo', body, 'text/plain'), 400, 'BAD_REQUEST');
    await expectError(
      await postJson('/api/v1/platform-test/echo', 'name=x', 'application/x-www-form-urlencoded'),
      400,
      'BAD_REQUEST',
    );
  });

  it('accepts a valid body (the routes above fail for the reasons tested, not by accident)', async () => {
    const res = await postJson(
      '/api/v1/platform-test/echo',
      JSON.stringify({ name: 'x', target: { ports: [80] } }),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ name: 'x' });
  });

  it('answers a body over the limit announced by Content-Length with 413, before reading it', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(BODY_LIMIT * 2), target: { ports: [] } });
    await expectError(await postJson('/api/v1/platform-test/echo', big), 413, 'PAYLOAD_TOO_LARGE');
    // Even where no route would read it.
    await expectError(await postJson('/api/v1/no-such-thing', big), 413, 'PAYLOAD_TOO_LARGE');
  });

  it('answers a chunked body that grows over the limit with 413', async () => {
    const chunks = [
      '{"name": "',
      ...Array.from({ length: 20 }, () => 'y'.repeat(512)),
      '", "target": {"ports": []}}',
    ];
    const res = await sendChunked(app.url, '/api/v1/platform-test/echo', chunks);
    expect(res.status).toBe(413);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(res.body)).toMatchObject({ error_code: 'PAYLOAD_TOO_LARGE' });
  });

  it('answers a route that reads no body without waiting for the body, and closes the connection', async () => {
    const endless = Array.from({ length: 1000 }, () => 'z'.repeat(1000));
    const res = await sendChunked(app.url, '/api/v1/no-such-thing', endless);
    expect(res.status).toBe(404);
    expect(res.headers.connection).toBe('close');
    expect(JSON.parse(res.body)).toMatchObject({ error_code: 'NOT_FOUND' });
  });

  it('keeps the connection of a complete request open', async () => {
    const res = await sendChunked(app.url, '/api/v1/platform-test/echo', [
      '{"name": "a", "target": {"ports": []}}',
    ]);
    expect(res.status).toBe(200);
    expect(res.headers.connection).not.toBe('close');
  });

  it('accepts a chunked body under the limit', async () => {
    const res = await sendChunked(app.url, '/api/v1/platform-test/echo', [
      '{"name": "chunked", ',
      '"target": {"ports": [443]}}',
    ]);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ name: 'chunked' });
  });

  it('answers a validation failure with 422 VALIDATION_ERROR naming the nested field by its dotted path, the item in the detail', async () => {
    const res = await postJson(
      '/api/v1/platform-test/echo',
      JSON.stringify({ name: 'x', target: { ports: [80, 70000] } }),
    );
    const body = await expectError(res, 422, 'VALIDATION_ERROR');
    expect(body.field).toBe('target.ports');
    expect(body.detail).toMatch(/^target\.ports: .*\(item 2\)$/);
  });

  it.each([
    ['a malformed request line', 'NONSENSE\r\n\r\n', 'could not be parsed'],
    [
      'a non-numeric Content-Length',
      'POST /api/v1/scans HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
      'could not be parsed',
    ],
    [
      'headers over the size limit',
      `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      'too large',
    ],
  ])('answers %s, refused before the app sees it, in the error shape', async (_name, bytes, detail) => {
    const answer = await sendRaw(app.url, bytes);
    const [head, body] = answer.split('\r\n\r\n') as [string, string];
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(head.toLowerCase()).toContain('content-type: application/json');
    expect(JSON.parse(body)).toEqual({ detail: expect.stringContaining(detail), error_code: 'BAD_REQUEST' });
  });

  it('names a missing required field when the body is absent', async () => {
    const res = await app.request('/api/v1/platform-test/echo', { method: 'POST' });
    const body = await expectError(res, 422, 'VALIDATION_ERROR');
    expect(body.field).toBe('name');
  });

  it('names the query parameter or header that fails validation', async () => {
    const headers = { 'x-scan-token': 'long-enough-token' };
    const query = await app.request('/api/v1/platform-test/listing?per_page=500', { headers });
    expect((await expectError(query, 422, 'VALIDATION_ERROR')).field).toBe('per_page');

    const header = await app.request('/api/v1/platform-test/listing', {
      headers: { 'x-scan-token': 'short' },
    });
    // A header is named as HTTP spells it (decisions.md: "the header name for headers").
    expect((await expectError(header, 422, 'VALIDATION_ERROR')).field).toBe('X-Scan-Token');

    const ok = await app.request('/api/v1/platform-test/listing?page=3', { headers });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ page: 3 });
  });

  it('answers a request without credentials with 401 AUTHENTICATION_REQUIRED', async () => {
    await expectError(await app.request('/api/v1/platform-test/guarded'), 401, 'AUTHENTICATION_REQUIRED');
  });

  it('answers an unexpected exception with a bare 500 INTERNAL_ERROR, leaking nothing', async () => {
    for (const path of ['/api/v1/platform-test/crash', '/api/v1/platform-test/bad-sql']) {
      const res = await app.request(path);
      expect(res.status).toBe(500);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({ detail: 'internal server error', error_code: 'INTERNAL_ERROR' });
      for (const leak of [
        'hunter2',
        '10.1.2.3',
        'platform_no_such_table',
        'select',
        'password_hash',
        '.ts:',
        'at ',
      ]) {
        expect(text).not.toContain(leak);
      }
    }
  });
});
