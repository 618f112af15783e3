import { describe, expect, it } from 'vitest';
import { testEngine } from '../../helpers/database.ts';
import { getApiKeys } from '../../../server/routes/api-keys.ts';
import { getFindingRoute } from '../../../server/routes/findings.ts';
import { listScansRoute } from '../../../server/routes/scans.ts';
import { expectError, okBody } from '../../helpers/api-client.ts';
import { detection, factory } from '../../helpers/factory.ts';
import { parseRawAnswer, sendRaw } from '../../helpers/raw-http.ts';
import { useTestApp } from '../../helpers/suite-app.ts';

/**
 * Requests whose HTTP framing is broken (issue 19, items 7 and 9) and JSON bodies whose bytes
 * are not UTF-8 (item 8). Each gets an answer in the error shape, never a silently closed
 * socket, and none of them changes anything.
 */

interface Call {
  method: string;
  path: string;
  headers?: Record<string, string>;
}

/** The request head, CRLF-terminated, ready for a body; `Host` unless the headers say otherwise. */
function head({ method, path, headers = {} }: Call): string {
  const lines = [`${method} ${path} HTTP/1.1`];
  if (!Object.keys(headers).some((name) => name.toLowerCase() === 'host')) lines.push('Host: 127.0.0.1');
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return lines.join('\r\n') + '\r\n\r\n';
}

describe(`malformed requests answer 400 in the error shape (${testEngine})`, () => {
  const suite = useTestApp();

  /** A tenant with one finding, and the raw request head of a comment on it. */
  async function commentTarget() {
    const tenant = await factory.tenant(suite.app, { findings: [detection({ severity: 'high' })] });
    const findingId = tenant.summary!.new_finding_ids[0]!;
    const token = await tenant.bearer();
    const path = `/api/v1/findings/${findingId}/comments`;
    const comments = async () =>
      okBody(await tenant.api.call(getFindingRoute, { params: { finding_id: findingId } }), 200).comments;
    return { tenant, token, path, comments };
  }

  const chunkedComment = (path: string, token: string, transferEncoding = 'chunked') =>
    head({
      method: 'POST',
      path,
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json',
        'Transfer-Encoding': transferEncoding,
      },
    });

  it.each([
    ['a chunk size that is not hexadecimal', 'zz\r\n{"text":"x"}\r\n0\r\n\r\n', /chunk size/],
    ['a chunk missing its CRLF', 'c\r\n{"text":"x"}XX0\r\n\r\n', /could not be parsed/],
    ['a chunk longer than its size', '2\r\n{"text":"x"}\r\n0\r\n\r\n', /could not be parsed/],
  ])('answers %s with 400 and stores nothing', async (_name, body, detail) => {
    const { token, path, comments } = await commentTarget();
    const answer = parseRawAnswer(await sendRaw(suite.app.url, chunkedComment(path, token) + body));
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.headers.connection).toBe('close');
    expect(answer.body).toEqual({ detail: expect.stringMatching(detail), error_code: 'BAD_REQUEST' });
    expect(await comments()).toEqual([]);
  });

  it('answers Transfer-Encoding: gzip alone with 400 (RFC 9112 §6.1), with or without a body route', async () => {
    const { token, path, comments } = await commentTarget();
    for (const bytes of [
      chunkedComment(path, token, 'gzip') + '{"text":"x"}',
      head({ method: 'GET', path: '/api/health', headers: { 'Transfer-Encoding': 'gzip' } }),
      chunkedComment(path, token, 'chunked, gzip') + '{"text":"x"}',
    ]) {
      const answer = parseRawAnswer(await sendRaw(suite.app.url, bytes));
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({
        detail: 'Transfer-Encoding must end with chunked (RFC 9112 §6.1)',
        error_code: 'BAD_REQUEST',
      });
    }
    expect(await comments()).toEqual([]);
  });

  it('runs no handler for a request whose broken body arrives while its caller is being checked', async () => {
    const tenant = await factory.tenant(suite.app, { apiKey: ['read:scans'] });
    const keyId = okBody(await tenant.api.call(getApiKeys), 200).items[0]!.id;
    const bytes =
      head({
        method: 'DELETE',
        path: `/api/v1/api-keys/${keyId}`,
        headers: { Authorization: `Bearer ${await tenant.bearer()}`, 'Transfer-Encoding': 'chunked' },
      }) + 'zz\r\n';
    const answer = parseRawAnswer(await sendRaw(suite.app.url, bytes));
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error_code: 'BAD_REQUEST' });
    const after = okBody(await tenant.api.call(getApiKeys), 200);
    expect(after.items.map((k) => k.id)).toContain(keyId);
    expect((await tenant.keyApi!.call(listScansRoute)).status).toBe(200);
  });

  it('answers a broken request that follows a good one on the same connection, after the good answer', async () => {
    const answer = await sendRaw(
      suite.app.url,
      head({ method: 'GET', path: '/api/health' }) +
        head({ method: 'GET', path: '/api/health', headers: { 'Transfer-Encoding': 'chunked' } }) +
        'zz\r\n',
    );
    const statuses = [...answer.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
    expect(statuses).toEqual([200, 400]);
    expect(answer).toContain('"error_code":"BAD_REQUEST"');
  });

  it.each([
    ['twice', { Host: '127.0.0.1' }, 'Host: evil.example\r\n'],
    ['twice, spelled differently', { host: '127.0.0.1' }, 'HOST: 127.0.0.1\r\n'],
  ])('answers a Host header given %s with 400 (RFC 9112 §3.2)', async (_name, headers, extra) => {
    const request = head({ method: 'GET', path: '/api/health', headers }).replace(
      /\r\n\r\n$/,
      `\r\n${extra}\r\n`,
    );
    const answer = parseRawAnswer(await sendRaw(suite.app.url, request));
    expect(answer.status).toBe(400);
    expect(answer.headers.connection).toBe('close');
    expect(answer.body).toEqual({ detail: 'the Host header must be given once', error_code: 'BAD_REQUEST' });
  });

  it('serves a request with one Host (the refusals above fail for their reason)', async () => {
    const answer = parseRawAnswer(
      await sendRaw(
        suite.app.url,
        head({ method: 'GET', path: '/api/health', headers: { Connection: 'close' } }),
      ),
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: 'healthy' });
  });

  describe('JSON bodies whose bytes are not UTF-8', () => {
    const post = (path: string, token: string, body: Buffer) =>
      suite.app.request(path, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body,
      });

    it('answers invalid UTF-8 in a field with 422 naming it, and stores nothing', async () => {
      const { token, path, comments } = await commentTarget();
      // The report's body: {"text":"a\xff\xfeb"} was stored as "a��b".
      const body = Buffer.concat([Buffer.from('{"text":"a'), Buffer.from([0xff, 0xfe]), Buffer.from('b"}')]);
      const error = await expectError(await post(path, token, body), 422, 'VALIDATION_ERROR', 'text');
      expect(error.detail).toBe('text: must be valid UTF-8');
      expect(await comments()).toEqual([]);
    });

    it('answers 400 when no field can be named, and keeps U+FFFD a client sends on purpose', async () => {
      const { token, path, comments } = await commentTarget();
      const rootKey = Buffer.concat([Buffer.from('{"te'), Buffer.from([0xc3]), Buffer.from('xt":"x"}')]);
      await expectError(await post(path, token, rootKey), 400, 'BAD_REQUEST');
      const meant = await post(path, token, Buffer.from('{"text":"a\uFFFDb"}'));
      expect(meant.status).toBe(201);
      expect(await comments()).toEqual([expect.objectContaining({ text: 'a\uFFFDb' })]);
    });
  });
});
