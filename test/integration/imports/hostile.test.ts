import { request as httpRequest } from 'node:http';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getFindingRoute, listFindingsRoute } from '../../../server/routes/findings.ts';
import { listScansRoute } from '../../../server/routes/scans.ts';
import { expectError, okBody } from '../../helpers/api-client.ts';
import { postReport } from './upload.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { testEngine } from '../../helpers/database.ts';
import { factory, type BuiltTenant } from '../../helpers/factory.ts';
import { parseRawAnswer, sendRaw } from '../../helpers/raw-http.ts';

/**
 * Reports are hostile input (docs/imports.md): external entities and DTDs are never resolved,
 * entity expansion and nesting are bounded, and a body over the import limit is refused. Each
 * case is refused or imported harmlessly, and the service stays healthy.
 */
describe(`hostile reports on POST /api/v1/imports (${testEngine})`, () => {
  let app: TestApp;
  let t: BuiltTenant;
  let listener: Server;
  let connections = 0;
  let listenerUrl: string;

  const suite = useTestApp();
  beforeAll(async () => {
    app = suite.app;
    listener = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const address = listener.address();
    listenerUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/dtd`;
  });
  afterAll(async () => {
    await new Promise((resolve) => listener?.close(resolve));
  });
  // A tenant per test: what a test finds imported (or not) is its own.
  beforeEach(async () => {
    t = await factory.tenant(app, { plan: 'enterprise' });
  });

  const zapWith = (prologue: string, text: string) =>
    Buffer.from(
      `<?xml version="1.0"?>${prologue}<OWASPZAPReport version="2.9.0"><site name="http://127.0.0.1" host="127.0.0.1" port="80" ssl="false"><alerts><alertitem>` +
        `<pluginid>10020</pluginid><name>Header</name><riskcode>2</riskcode><confidence>2</confidence><desc>${text}</desc>` +
        `<instances><instance><uri>http://127.0.0.1/</uri><method>GET</method><evidence>${text}</evidence></instance></instances>` +
        `</alertitem></alerts></site></OWASPZAPReport>`,
    );
  const post = (body: Uint8Array, target = 'hostile') => postReport(t.api, body, { target });
  const expectHealthy = async () => expect((await app.request('/api/health')).status).toBe(200);
  const allFindingsText = async () =>
    JSON.stringify(okBody(await t.api.call(listFindingsRoute, { query: { per_page: 100 } })));

  it.each([
    [
      'an external entity naming file:///etc/passwd',
      () => `<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>`,
    ],
    ['an external entity naming a loopback URL', () => `<!DOCTYPE r [<!ENTITY x SYSTEM "${listenerUrl}">]>`],
    ['an external DTD on a loopback URL', () => `<!DOCTYPE r SYSTEM "${listenerUrl}">`],
    [
      'a parameter entity on a loopback URL',
      () => `<!DOCTYPE r [<!ENTITY % p SYSTEM "${listenerUrl}"> %p;]>`,
    ],
  ])('refuses %s without reading the file or connecting', async (_name, prologue) => {
    const res = await post(zapWith(prologue(), '&x;'));
    const error = await expectError(res, 422, 'VALIDATION_ERROR', 'file');
    expect(error.detail).toMatch(/line 1: a document type declaration .* not accepted/);
    expect(connections).toBe(0);
    expect(await allFindingsText()).not.toMatch(/root:/);
    await expectHealthy();
  });

  it('refuses a billion-laughs report', async () => {
    const entities = Array.from(
      { length: 10 },
      (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`,
    ).join('');
    const res = await post(zapWith(`<!DOCTYPE r [<!ENTITY lol0 "lol">${entities}]>`, '&lol10;'));
    await expectError(res, 422, 'VALIDATION_ERROR', 'file');
    await expectHealthy();
  });

  it('imports a bare document type declaration (as nmap writes) and an undeclared entity as the text it is', async () => {
    const scan = okBody(
      await post(zapWith('<!DOCTYPE OWASPZAPReport>', 'a &undeclared; b'), 'bare-doctype'),
      201,
    );
    const query = { scan_id: String(scan.id) };
    const [finding] = okBody(await t.api.call(listFindingsRoute, { query })).items;
    const detail = okBody(await t.api.call(getFindingRoute, { params: { finding_id: finding!.id } }));
    expect(detail.description).toBe('a &undeclared; b');
  });

  it('refuses deeply nested JSON and XML, naming where', async () => {
    const json = Buffer.from(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect((await expectError(await post(json), 422, 'VALIDATION_ERROR', 'file')).detail).toMatch(
      /line 1: arrays and objects nest deeper than 64 levels/,
    );
    const nestedInResult = Buffer.from(
      `{"template-id":"x","info":{"severity":"high"},"host":"h","extra":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`,
    );
    await expectError(await post(nestedInResult), 422, 'VALIDATION_ERROR', 'file');
    const xml = Buffer.from(`<nmaprun>${'<a>'.repeat(50_000)}${'</a>'.repeat(50_000)}</nmaprun>`);
    expect((await expectError(await post(xml), 422, 'VALIDATION_ERROR', 'file')).detail).toMatch(
      /nest deeper than 64 levels/,
    );
    await expectHealthy();
  });

  it('refuses a 100 MB upload with 413 before reading it, and closes the connection', async () => {
    const size = 100 * 1024 * 1024;
    const head =
      `POST /api/v1/imports?target=big HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${await t.bearer()}\r\n` +
      `Content-Type: application/octet-stream\r\nContent-Length: ${size}\r\n\r\n`;
    const answer = parseRawAnswer(await sendRaw(app.url, head));
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ error_code: 'PAYLOAD_TOO_LARGE' });
    expect(answer.headers.connection).toBe('close');
    await expectHealthy();
  });

  it('keeps NUL bytes and broken UTF-8 out of the stored findings', async () => {
    const nul = Buffer.from(
      JSON.stringify({
        'template-id': 'nul-test',
        info: { name: 'a\u0000b', severity: 'low' },
        host: 'http://127.0.0.1/',
        response: 'x\u0000y',
      }),
    );
    const withBrokenBytes = Buffer.concat([nul.subarray(0, 20), Buffer.from([0xff, 0xfe]), nul.subarray(20)]);
    okBody(await post(nul, 'nul'), 201);
    expect((await post(withBrokenBytes, 'nul-broken')).status).toBeLessThan(500);
    await expectHealthy();
  });
});

describe(`the import size limit, chunked and multipart (${testEngine})`, () => {
  let app: TestApp;
  let t: BuiltTenant;
  const LIMIT = 4096;

  const suite = useTestApp({ env: { SCANWARD_IMPORT_LIMIT: String(LIMIT) } });
  beforeAll(async () => {
    app = suite.app;
    t = await factory.tenant(app, { plan: 'enterprise' });
  });

  /** Streams the body in chunks without announcing its length; resolves with the answer. */
  function sendChunked(
    path: string,
    token: string,
    chunks: Buffer[],
  ): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(app.url + path, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
      });
      let answered = false;
      req.on('response', (res) => {
        answered = true;
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', (err) => {
        if (!answered) reject(err);
      });
      const writeNext = (i: number) => {
        if (answered || req.destroyed) return;
        if (i === chunks.length) return void req.end();
        req.write(chunks[i], () => setImmediate(() => writeNext(i + 1)));
      };
      writeNext(0);
    });
  }

  it('answers 413 when a chunked report grows past the limit, and records nothing', async () => {
    const chunks = Array.from({ length: 20 }, () => Buffer.from(`${'{"template-id":"x"}\n'.repeat(25)}`));
    const scansBefore = okBody(await t.api.call(listScansRoute)).total;
    const res = await sendChunked('/api/v1/imports?target=chunked', await t.bearer(), chunks);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ error_code: 'PAYLOAD_TOO_LARGE' });
    expect(okBody(await t.api.call(listScansRoute)).total).toBe(scansBefore);
    expect((await app.request('/api/health')).status).toBe(200);
  });

  it('answers 413 for a multipart file past the limit, and imports one under it', async () => {
    const big = new FormData();
    big.set('target', 'multipart');
    big.set('file', new Blob([Buffer.alloc(LIMIT * 2, 0x20)]), 'big.json');
    await expectError(await postReport(t.api, big), 413, 'PAYLOAD_TOO_LARGE');
    const small = new FormData();
    small.set('target', 'multipart');
    small.set('format', 'nuclei');
    small.set('file', new Blob([Buffer.from('')]), 'empty.jsonl');
    expect(okBody(await postReport(t.api, small), 201)).toMatchObject({
      vulnerabilities_found: 0,
    });
  });
});
