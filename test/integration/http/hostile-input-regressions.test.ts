import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { insertApiKey } from '../../../server/auth/api-keys.repository.ts';
import { hashApiKey } from '../../../server/auth/gatekeeper.ts';
import { defineRoute } from '../../../server/http/contract.ts';
import { startedStream } from '../../../server/http/stream.ts';
import { newId } from '../../../server/identity/ids.ts';
import { exportFindingsRoute, getFindingRoute, listFindingsRoute } from '../../../server/routes/findings.ts';
import { getScanRoute, listScansRoute } from '../../../server/routes/scans.ts';
import { FindingDetail } from '../../../server/schemas/findings.ts';
import { testEngine } from '../../helpers/database.ts';
import { apiClient, expectError, okBody, type ApiClient } from '../../helpers/api-client.ts';
import { sendRaw } from '../../helpers/raw-http.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory, detection, insertScan, runScan, type Tenant } from '../../helpers/factory.ts';
import { eventually } from '../../helpers/poll.ts';
import { postApiKey } from '../../../server/routes/api-keys.ts';

/**
 * One regression test per defect of the hostile-input report (issue 9): NUL and
 * unstorable text, the export dropping the connection, bound parameters in
 * logs, Node's own answers outside the error shape, lenient numbers, repeated
 * parameters and loose `Authorization`, and `cancelled` as a status filter.
 * The contract half (OpenAPI) lives in openapi-limits.test.ts.
 */

const SECRET_HASH = hashApiKey(`sw_${randomBytes(32).toString('base64url')}`);
const SECRET_NAME = `name-${randomBytes(6).toString('hex')}`;

/** Throwaway routes: a streamed body failing before or after its first byte, and a failing insert. */
function failingStream(failAfterFirstChunk: boolean): Readable {
  async function* chunks() {
    if (failAfterFirstChunk) yield 'id,title\n' + 'x,'.repeat(40_000) + '\n';
    throw new Error('the database went away');
  }
  return Readable.from(chunks(), { objectMode: false });
}

const streamRoute = (name: string, failAfterFirstChunk: boolean) =>
  defineRoute({
    method: 'get',
    path: `/api/v1/hostile-test/${name}`,
    operationId: `hostileTest${name}`,
    summary: 'Streams a body that fails',
    tags: ['Test'],
    access: { public: true },
    responses: { 200: { description: 'A CSV', contentTypes: ['text/csv'] } },
    handler: async ({ ctx }) => {
      const body = await startedStream(failingStream(failAfterFirstChunk));
      ctx.status = 200;
      ctx.type = 'text/csv';
      ctx.body = body;
    },
  });

/** The user whose key row the failing insert writes (set once the suite's tenant exists). */
let keyOwner: { orgId: string; userId: string } | undefined;

const failingInsert = defineRoute({
  method: 'post',
  path: '/api/v1/hostile-test/api-key-twice',
  operationId: 'hostileTestApiKeyTwice',
  summary: 'Inserts the same API key row twice',
  tags: ['Test'],
  access: { public: true },
  responses: { 200: { description: 'Never', schema: z.object({}) } },
  handler: async ({ services }) => {
    if (!keyOwner) throw new Error('no key owner yet');
    const row = {
      id: newId('key'),
      org_id: keyOwner.orgId,
      user_id: keyOwner.userId,
      name: SECRET_NAME,
      prefix: 'sw_abcdefg',
      key_hash: SECRET_HASH,
      permissions: ['read:scans' as const],
    };
    await insertApiKey(services.db, row);
    await insertApiKey(services.db, row); // a unique violation quoting the key
    return { body: {} };
  },
});

function parseRaw(answer: string) {
  const [head, body] = answer.split('\r\n\r\n') as [string, string];
  return { head, body: JSON.parse(body) as Record<string, unknown> };
}

describe(`hostile input regressions (${testEngine})`, () => {
  let app: TestApp;
  let tenant: Tenant;
  let token: string;
  let findingId: string;

  /** The tenant's admin: hostile values in well-formed requests go through the typed client. */
  let api: ApiClient;

  const suite = useTestApp({
    captureLogs: true,
    extraRoutes: [
      streamRoute('before-first-byte', false),
      streamRoute('after-first-byte', true),
      failingInsert,
    ],
  });
  beforeAll(async () => {
    app = suite.app;
    tenant = await factory.tenant(app, { plan: 'professional' });
    keyOwner = { orgId: tenant.orgId, userId: tenant.admin.id };
    token = await tenant.bearer();
    api = apiClient(app, { token });
    const { summary } = await runScan(app.services.db, tenant.orgId, [detection({ severity: 'high' })]);
    findingId = summary.new_finding_ids[0]!;
  });

  describe('NUL and other text PostgreSQL cannot store', () => {
    it('answers a NUL in an id exactly like an unknown id', async () => {
      const unknown = await api.call(getScanRoute, { params: { scan_id: 'scan_doesnotexist0000000000' } });
      const unknownBody = await expectError(unknown, 404, 'NOT_FOUND');
      for (const path of [
        '/api/v1/scans/%00',
        '/api/v1/scans/scan_%00x',
        `/api/v1/findings/${findingId}%00`,
      ]) {
        const body = await expectError(await api.get(path), 404, 'NOT_FOUND');
        if (path.startsWith('/api/v1/scans')) expect(body).toEqual(unknownBody);
      }
      await expectError(
        // eslint-disable-next-line no-restricted-syntax -- a malformed path: a percent-encoded lone surrogate, which the typed params would encode again
        await api.get('/api/v1/findings/%ED%A0%80'),
        404,
        'NOT_FOUND',
      );
    });

    it('answers a NUL in a query parameter with 422 naming it', async () => {
      await expectError(
        await api.call(listFindingsRoute, { query: { target: '\u0000' } }),
        422,
        'VALIDATION_ERROR',
        'target',
      );
      await expectError(
        await api.call(listScansRoute, { query: { target: 'a\u0000b' } }),
        422,
        'VALIDATION_ERROR',
        'target',
      );
    });

    it('answers a NUL or a lone surrogate in a body field with 422 naming it', async () => {
      const path = `/api/v1/findings/${findingId}`;
      await expectError(
        await api.send('POST', `${path}/comments`, { text: 'a\u0000b' }),
        422,
        'VALIDATION_ERROR',
        'text',
      );
      await expectError(
        await api.send('POST', `${path}/comments`, { text: 'a\ud800b' }),
        422,
        'VALIDATION_ERROR',
        'text',
      );
      await expectError(
        await api.send('PATCH', path, { notes: 'x\u0000' }),
        422,
        'VALIDATION_ERROR',
        'notes',
      );
      const key = await api.call(postApiKey, {
        body: {
          name: 'ci\u0000',
          permissions: ['read:scans'],
        },
      });
      await expectError(key, 422, 'VALIDATION_ERROR', 'name');
      const finding = okBody(await api.call(getFindingRoute, { params: { finding_id: findingId } }), 200);
      expect(finding.comments).toEqual([]);
      expect(finding.notes).toBeNull();
    });

    it('answers a NUL in the login form with 422, without credentials', async () => {
      const res = await app.request('/api/v1/auth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'username=admin%40localhost%00&password=x',
      });
      await expectError(res, 422, 'VALIDATION_ERROR', 'username');
    });

    it('refuses HTTP Basic credentials with a NUL as wrong credentials', async () => {
      const basic = Buffer.from(`${tenant.admin.email}\u0000:x`).toString('base64');
      await expectError(
        await app.request('/openapi.json', { headers: { authorization: `Basic ${basic}` } }),
        401,
        'INVALID_CREDENTIALS',
      );
    });
  });

  describe('export', () => {
    it('answers a NUL in an export filter with a normal 422 before the first byte', async () => {
      for (const name of ['scan_id', 'target', 'tool', 'cve'] as const) {
        await expectError(
          await api.call(exportFindingsRoute, { query: { [name]: '\u0000' } }),
          422,
          'VALIDATION_ERROR',
          name,
        );
      }
    });

    it('answers a stream that fails before its first byte with a normal 500 in the error shape', async () => {
      await expectError(await app.request('/api/v1/hostile-test/before-first-byte'), 500, 'INTERNAL_ERROR');
    });

    it('cuts a stream that fails after its first byte so the client notices, and logs it once', async () => {
      const requestId = `cut-${randomBytes(4).toString('hex')}`;
      const res = await app.request('/api/v1/hostile-test/after-first-byte', {
        headers: { 'x-request-id': requestId },
      });
      expect(res.status).toBe(200);
      await expect(res.text()).rejects.toThrow();
      const failures = await eventually(async () => {
        const lines = app.logs.filter((l) => l.request_id === requestId && l.level === 50);
        return lines.length > 0 ? lines : undefined;
      }, 'the log line of the cut response');
      expect(failures).toHaveLength(1);
      expect(failures[0]!.msg).toBe('response failed after it started');
    });

    it('exports JSON as an array of finding details, as the contract says', async () => {
      const res = await api.call(exportFindingsRoute, { query: { format: 'json' } });
      expect(res.status).toBe(200);
      const parsed = z.array(FindingDetail).safeParse(res.body);
      expect(parsed.success, parsed.error?.message).toBe(true);
      expect(parsed.data).toHaveLength(1);
    });
  });

  it('logs a failed query by its shape and SQLSTATE, never its bound values', async () => {
    const requestId = `sql-${randomBytes(4).toString('hex')}`;
    const res = await app.request('/api/v1/hostile-test/api-key-twice', {
      method: 'POST',
      headers: { 'x-request-id': requestId },
    });
    await expectError(res, 500, 'INTERNAL_ERROR');
    const line = await eventually(
      async () => app.logs.find((l) => l.request_id === requestId && l.msg === 'unhandled error'),
      'the error line',
    );
    const err = line.err as Record<string, unknown>;
    expect(err).toMatchObject({ code: '23505', table: 'api_keys' });
    expect(err.query).toMatch(/^insert into "api_keys" .*\$1/);
    const raw = app.rawLogs();
    expect(raw).not.toContain(SECRET_HASH);
    expect(raw).not.toContain(SECRET_NAME);
    expect(raw).not.toContain('already exists');
  });

  describe("Node's own refusals answer in the error shape", () => {
    it('answers a request without Host with 400 BAD_REQUEST', async () => {
      const { head, body } = parseRaw(await sendRaw(app.url, 'GET /api/health HTTP/1.1\r\n\r\n'));
      expect(head).toMatch(/^HTTP\/1\.1 400 /);
      expect(head.toLowerCase()).toContain('content-type: application/json');
      expect(body).toEqual({ detail: expect.stringContaining('Host'), error_code: 'BAD_REQUEST' });
    });

    it('answers CONNECT with 400 in the error shape instead of dropping the connection', async () => {
      const { head, body } = parseRaw(
        await sendRaw(app.url, 'CONNECT 127.0.0.1:9 HTTP/1.1\r\nHost: 127.0.0.1:9\r\n\r\n'),
      );
      expect(head).toMatch(/^HTTP\/1\.1 400 /);
      expect(body).toMatchObject({ error_code: 'BAD_REQUEST' });
    });

    it('answers an Expect other than 100-continue with 417 in the error shape', async () => {
      const { head, body } = parseRaw(
        await sendRaw(
          app.url,
          'GET /api/health HTTP/1.1\r\nHost: x\r\nExpect: 999-bogus\r\nConnection: close\r\n\r\n',
        ),
      );
      expect(head).toMatch(/^HTTP\/1\.1 417 /);
      expect(head.toLowerCase()).toContain('content-type: application/json');
      expect(body).toMatchObject({ error_code: 'EXPECTATION_FAILED' });
    });
  });

  describe('strict parsing', () => {
    it.each(['0x10', '1e1', '+2', ' 2', '2.0', '-1', '', '99999999999999999999'])(
      'refuses page=%j as a number',
      async (value) => {
        await expectError(
          await api.call(listScansRoute, { query: { page: value } }),
          422,
          'VALIDATION_ERROR',
          'page',
        );
      },
    );

    it('refuses per_page=1e1 and accepts plain digits', async () => {
      await expectError(
        await api.call(listFindingsRoute, { query: { per_page: '1e1' } }),
        422,
        'VALIDATION_ERROR',
        'per_page',
      );
      const ok = okBody(await api.call(listFindingsRoute, { query: { per_page: '10', page: '1' } }), 200);
      expect(ok.per_page).toBe(10);
    });

    it('refuses a repeated query parameter instead of taking the last value', async () => {
      // eslint-disable-next-line no-restricted-syntax -- a repeated query parameter, which the typed query cannot spell
      const res = await api.get('/api/v1/scans?page=1&page=2');
      const body = await expectError(res, 422, 'VALIDATION_ERROR', 'page');
      expect(body.detail).toContain('once');
      await expectError(
        // eslint-disable-next-line no-restricted-syntax -- a repeated query parameter, which the typed query cannot spell
        await api.get('/api/v1/findings?severity=high&severity=low'),
        422,
        'VALIDATION_ERROR',
        'severity',
      );
    });

    it('accepts exactly `Bearer <token>` and nothing around it', async () => {
      expect(
        (await app.request('/api/v1/scans', { headers: { authorization: `Bearer ${token}` } })).status,
      ).toBe(200);
      expect(
        (await app.request('/api/v1/scans', { headers: { authorization: `bearer ${token}` } })).status,
      ).toBe(200);
      for (const value of [
        `Bearer ${token} extra`,
        `Bearer  ${token}`,
        `Bearer ${token},x`,
        `Bearer\t${token}`,
      ]) {
        const res = await app.request('/api/v1/scans', { headers: { authorization: value } });
        await expectError(res, 401, 'INVALID_TOKEN');
      }
    });
  });

  it('lists cancelled scans by status', async () => {
    const owner = await factory.tenant(app);
    await insertScan(app.services.db, owner.orgId, { status: 'completed' });
    const cancelled = await insertScan(app.services.db, owner.orgId, { status: 'cancelled' });
    const page = okBody(await owner.api.call(listScansRoute, { query: { status: 'cancelled' } }), 200);
    expect(page.items.map((s) => s.id)).toEqual([cancelled.id]);
    expect(page.items[0]!.status).toBe('cancelled');
  });
});
