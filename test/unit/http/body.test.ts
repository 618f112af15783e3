import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import Koa from 'koa';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBody } from '../../../server/http/middleware/body.ts';
import { errorMiddleware } from '../../../server/http/middleware/errors.ts';

/** koa-body behind readBody: the answers the hand-written reader gave, and the parser's own refusals. */
const LIMIT = 1024;
let server: Server;
let port: number;

beforeAll(async () => {
  const app = new Koa();
  app.use(errorMiddleware(pino({ level: 'silent' })));
  app.use(async (ctx) => {
    ctx.body = { read: await readBody(ctx, ctx.path === '/form' ? 'form' : 'json', LIMIT) };
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: { read?: unknown; detail?: string; error_code?: string };
}

/** One request with exactly these headers; `chunks` go out chunked. */
function send(
  path: string,
  headers: Record<string, string>,
  body?: Buffer | string,
  chunks?: string[],
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: JSON.parse(Buffer.concat(parts).toString('utf8')) as Answer['body'],
        }),
      );
    });
    req.on('error', reject);
    if (chunks) for (const c of chunks) req.write(c);
    req.end(body);
  });
}

const json = (body: string | Buffer, type = 'application/json', extra: Record<string, string> = {}) =>
  send('/json', { 'content-type': type, 'content-length': String(Buffer.byteLength(body)), ...extra }, body);

describe('request bodies through koa-body (readBody)', () => {
  it('reads a JSON body, and any JSON value (the schema refuses what is not an object)', async () => {
    expect((await json('{"name":"x","n":[1,2]}')).body).toEqual({ read: { name: 'x', n: [1, 2] } });
    expect((await json('"x"')).body).toEqual({ read: 'x' });
  });

  it('reads an absent or blank body as an empty one, so required fields are named', async () => {
    expect((await send('/json', {})).body).toEqual({ read: {} });
    expect((await json(' \n ')).body).toEqual({ read: {} });
  });

  it('answers malformed JSON with 400 BAD_REQUEST', async () => {
    const res = await json('{"name": "x", ');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: 'request body is not valid JSON', error_code: 'BAD_REQUEST' });
  });

  it('refuses a __proto__ key with 400 (prototype poisoning)', async () => {
    const res = await json('{"__proto__":{"admin":true}}');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: 'request body must not set __proto__', error_code: 'BAD_REQUEST' });
  });

  it('answers a body of another media type with 400 BAD_REQUEST, not by skipping it', async () => {
    const res = await json('{"name":"x"}', 'text/plain');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: 'request body must be application/json', error_code: 'BAD_REQUEST' });
    expect((await send('/form', { 'content-type': 'application/json' }, '{}')).status).toBe(400);
  });

  it('answers a body over the limit with 413 PAYLOAD_TOO_LARGE and closes the connection', async () => {
    const res = await json(`{"name":"${'x'.repeat(LIMIT)}"}`);
    expect(res.status).toBe(413);
    expect(res.body).toEqual({
      detail: `request body is larger than ${LIMIT} bytes`,
      error_code: 'PAYLOAD_TOO_LARGE',
    });
    expect(res.headers.connection).toBe('close');
  });

  it('answers a chunked body that grows over the limit with 413', async () => {
    const res = await send(
      '/json',
      { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      undefined,
      ['{"name":"', ...Array.from({ length: 8 }, () => 'y'.repeat(256)), '"}'],
    );
    expect(res.status).toBe(413);
    expect(res.body.error_code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('decodes the declared charset and refuses an unknown one with 400', async () => {
    const latin1 = Buffer.from('{"name":"café"}', 'latin1');
    expect((await json(latin1, 'application/json; charset=latin1')).body).toEqual({ read: { name: 'café' } });
    const res = await json('{}', 'application/json; charset=bogus');
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe('unsupported request body charset');
  });

  it('inflates a compressed body, counting the limit on the inflated bytes, and refuses unknown encodings', async () => {
    const small = gzipSync('{"name":"zipped"}');
    expect((await json(small, 'application/json', { 'content-encoding': 'gzip' })).body).toEqual({
      read: { name: 'zipped' },
    });
    const bomb = gzipSync(`{"name":"${'z'.repeat(LIMIT * 50)}"}`);
    expect(bomb.length).toBeLessThan(LIMIT);
    expect((await json(bomb, 'application/json', { 'content-encoding': 'gzip' })).status).toBe(413);
    const res = await json('{}', 'application/json', { 'content-encoding': 'compress' });
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe('BAD_REQUEST');
  });

  describe('bytes that are not UTF-8 in a UTF-8 JSON body', () => {
    /** A body with raw bytes: `\\xNN` in the template stands for byte NN. */
    const bytes = (text: string) =>
      Buffer.concat(
        text
          .split(/(\\x[0-9a-f]{2})/i)
          .map((part) =>
            /^\\x[0-9a-f]{2}$/i.test(part) ? Buffer.from([parseInt(part.slice(2), 16)]) : Buffer.from(part),
          ),
      );

    it.each([
      ['a stray byte in a value', '{"text":"a\\xff\\xfeb"}', 'text'],
      ['a cut two-byte sequence', '{"name":"x","update":{"notes":"caf\\xc3"}}', 'update.notes'],
      ['an overlong slash', '{"path":"\\xc0\\xaf"}', 'path'],
      ['an encoded surrogate (CESU-8)', '{"emoji":"\\xed\\xa0\\xbd\\xed\\xb8\\x80"}', 'emoji'],
      ['a code point past U+10FFFF', '{"big":"\\xf4\\x90\\x80\\x80"}', 'big'],
      ['a byte in an item of a list', '{"tags":["ok","b\\x80d"]}', 'tags'],
    ])('answers %s with 422 naming the field', async (_name, body, field) => {
      const res = await json(bytes(body));
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        detail: `${field}: must be valid UTF-8`,
        error_code: 'VALIDATION_ERROR',
        field,
      });
    });

    it('names the object whose key holds the bytes', async () => {
      const res = await json(bytes('{"labels":{"k\\xffey":"v"}}'));
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ detail: 'labels: keys must be valid UTF-8', field: 'labels' });
    });

    it('names the field even when the client also sent U+FFFD or an escaped surrogate elsewhere', async () => {
      const res = await json(bytes('{"a":"\\ufffd\uFFFD","b":"\\udc00","c":"x\\xffy"}'));
      expect(res.body).toMatchObject({ error_code: 'VALIDATION_ERROR', field: 'c' });
    });

    it.each([
      ['a bare string', '"a\\xffb"'],
      ['a key of the top-level object', '{"n\\xffme":"x"}'],
      ['bytes outside any string', '{"name":"x"}\\xff'],
      ['a broken value a later duplicate key replaced', '{"a":"\\xff","a":"x"}'],
    ])('answers %s, where no field can be named, with 400 BAD_REQUEST', async (_name, body) => {
      const res = await json(bytes(body));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail: 'request body is not valid UTF-8', error_code: 'BAD_REQUEST' });
    });

    it('reads well-formed UTF-8 of every length, U+FFFD sent on purpose, and a byte order mark', async () => {
      const text = 'é€😀\uFFFD';
      expect((await json(`{"name":"${text}"}`)).body).toEqual({ read: { name: text } });
      expect(
        (await json(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}')]))).body,
      ).toEqual({ read: { a: 1 } });
    });

    it('checks the inflated bytes of a compressed body, and is lenient for a declared single-byte charset', async () => {
      const zipped = gzipSync(bytes('{"text":"a\\xffb"}'));
      const res = await json(zipped, 'application/json', { 'content-encoding': 'gzip' });
      expect(res.body).toMatchObject({ error_code: 'VALIDATION_ERROR', field: 'text' });
      // In latin1 every byte is a character: nothing is broken.
      expect((await json(bytes('{"text":"a\\xffb"}'), 'application/json; charset=iso-8859-1')).body).toEqual({
        read: { text: 'aÿb' },
      });
    });
  });

  it('reads a form as one flat string per field, the last of a repeated one winning (as the login form expects)', async () => {
    const body = 'username=ada%40example.com&password=a+b%26c&a=1&a=2&b[c]=3&d.e=4';
    const res = await send('/form', { 'content-type': 'application/x-www-form-urlencoded' }, body);
    expect(res.body).toEqual({
      read: { username: 'ada@example.com', password: 'a b&c', a: '2', 'b[c]': '3', 'd.e': '4' },
    });
  });
});
