import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import { readFile, rm } from 'node:fs/promises';
import type { Context } from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';
import { AppError } from '../../errors.ts';
import { decodeUtf8Marking, firstDifference } from '../text.ts';

const MEDIA_TYPES = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
} as const;

/** Any method a route declares a body on (koa-body parses only POST, PUT and PATCH by default). */
const METHODS = [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE];

/**
 * Reads and parses a request body of the route's media type with koa-body, the design's
 * body parser: read up to `limit` bytes (inflated first when the client compressed it), then
 * JSON or the raw form text. What koa-body leaves to its caller stays here: an absent body is
 * an empty one; a body of another media type is refused instead of skipped; a UTF-8 JSON body
 * must be UTF-8 (`readJson`); and every failure is an AppError in the one error shape: 413
 * over the limit, 400 for a wrong content type or a body that does not read or parse, 422
 * naming the field whose text is not UTF-8.
 */
export async function readBody(ctx: Context, type: 'json' | 'form', limit: number): Promise<unknown> {
  const expected = MEDIA_TYPES[type];
  const hasBody = Number(ctx.get('content-length') || 0) > 0 || ctx.get('transfer-encoding') !== '';
  if (!hasBody) {
    // An absent body is validated as an empty one, so required fields are named.
    return {};
  }
  if (!ctx.is(expected)) {
    throw new AppError(400, 'BAD_REQUEST', `request body must be ${expected}`);
  }
  return type === 'json' ? readJson(ctx, limit) : readForm(ctx, limit);
}

/** Whether a charset label names UTF-8 (the JSON default, RFC 8259 §8.1). */
const isUtf8Label = (charset: string) => /^utf-?8$/i.test(charset);

/**
 * A JSON body. koa-body reads it as text; a UTF-8 body (the default) is read byte for byte
 * (`latin1`) and decoded here strictly, because a lenient decoder turns bytes that are not
 * UTF-8 into U+FFFD and the value would be stored silently changed, which is what the text
 * rule (`text.ts`) refuses lone surrogates for. Another declared charset is decoded by
 * koa-body (iconv-lite). JSON.parse then reads it, refusing `__proto__` keys as co-body does.
 */
async function readJson(ctx: Context, limit: number): Promise<unknown> {
  const charset = ctx.request.charset || 'utf-8';
  const utf8 = isUtf8Label(charset);
  const text = await readText(ctx, limit, utf8 ? 'latin1' : charset);
  if (!utf8) return parseJson(text);
  const bytes = Buffer.from(text, 'latin1');
  if (isUtf8(bytes)) return parseJson(bytes.toString('utf8').replace(/^\uFEFF/, ''));
  throw brokenUtf8(bytes);
}

async function readText(ctx: Context, limit: number, encoding: string): Promise<string> {
  const read = koaBody({
    json: false,
    urlencoded: false,
    text: true,
    multipart: false,
    textTypes: [MEDIA_TYPES.json],
    textLimit: limit,
    encoding,
    parsedMethods: METHODS,
  });
  try {
    await read(ctx, async () => {});
  } catch (err) {
    throw readFailure(err, limit);
  }
  return typeof ctx.request.body === 'string' ? ctx.request.body : '';
}

class ProtoKey extends Error {}

/** JSON text as a value; a body of only whitespace is an empty one. */
function parseJson(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text, (key, value: unknown) => {
      if (key === '__proto__') throw new ProtoKey();
      return value;
    });
  } catch (err) {
    if (err instanceof ProtoKey)
      throw new AppError(400, 'BAD_REQUEST', 'request body must not set __proto__');
    throw new AppError(400, 'BAD_REQUEST', 'request body is not valid JSON');
  }
}

/**
 * The answer to a JSON body whose bytes are not all UTF-8: 422 naming the field whose text
 * holds them (the object, for a key), or 400 when no field can be named (the body is a bare
 * string, a key of the top-level object is broken, or the bytes lie outside any string).
 * The body is decoded twice with different markers for the broken bytes; where the two
 * parses differ is where they were.
 */
function brokenUtf8(bytes: Buffer): AppError {
  const whole = new AppError(400, 'BAD_REQUEST', 'request body is not valid UTF-8');
  let a: unknown;
  let b: unknown;
  try {
    a = parseJson(decodeUtf8Marking(bytes, '\uDC00'));
    b = parseJson(decodeUtf8Marking(bytes, '\uDC01'));
  } catch {
    return whole;
  }
  const broken = firstDifference(a, b);
  if (!broken || broken.path.length === 0) return whole;
  const field = broken.path.join('.');
  const problem = broken.inKey ? 'keys must be valid UTF-8' : 'must be valid UTF-8';
  return new AppError(422, 'VALIDATION_ERROR', `${field}: ${problem}`, field);
}

/** A login form, read flat (see `readBody`); its text is decoded leniently, like a query string. */
async function readForm(ctx: Context, limit: number): Promise<Record<string, string>> {
  const parse = koaBody({
    json: false,
    urlencoded: true,
    text: false,
    multipart: false,
    urlencodedTypes: [MEDIA_TYPES.form],
    formLimit: limit,
    encoding: ctx.request.charset || 'utf-8',
    // The form text itself: qs (koa-body's form parser) nests `a[b]` and `a.b` and turns repeated
    // keys into arrays, where the routes' schemas expect one flat string per field.
    includeUnparsed: true,
    parsedMethods: METHODS,
  });
  try {
    await parse(ctx, async () => {});
  } catch (err) {
    throw readFailure(err, limit);
  }
  return Object.fromEntries(new URLSearchParams(ctx.request.rawBody ?? ''));
}

/** koa-body's (raw-body's, co-body's) errors as answers. */
function readFailure(err: unknown, limit: number): AppError {
  const e = err as { type?: string; status?: number };
  if (e.type === 'entity.too.large') {
    // The rest of the upload is not wanted: close the connection instead of draining it.
    return new AppError(413, 'PAYLOAD_TOO_LARGE', `request body is larger than ${limit} bytes`, undefined, {
      Connection: 'close',
    });
  }
  if (e.type === 'encoding.unsupported') {
    return new AppError(400, 'BAD_REQUEST', 'unsupported request body charset');
  }
  if (e.status === 415) {
    // inflation: a Content-Encoding other than gzip, deflate, br or identity.
    return new AppError(400, 'BAD_REQUEST', 'unsupported request body Content-Encoding');
  }
  if (err instanceof SyntaxError) {
    // The form's raw text could not be taken apart by qs (before URLSearchParams reads it).
    return new AppError(400, 'BAD_REQUEST', 'request body could not be parsed');
  }
  return new AppError(400, 'BAD_REQUEST', 'request body could not be read');
}

/**
 * Bodies of requests that no route reads (unknown routes, wrong methods) still
 * count against the limit, so an oversized upload is refused rather than buffered.
 */
export function exceedsLimit(ctx: Context, limit: number): boolean {
  return Number(ctx.get('content-length') || 0) > limit;
}

/**
 * How much of a refused body is read (and thrown away) beyond the limit before the 413 is
 * answered. A client (Node's fetch, curl) that is still sending when the server answers and
 * closes sees a broken pipe instead of the 413; read to its end, the body costs the server
 * nothing but the reading. A body larger still is answered at once and the connection closed.
 */
export const DISCARD_BEYOND_LIMIT = 16 * 1024 * 1024;

/** Whether a refused body is small enough to be read to its end before the 413 (its declared length). */
export function discardable(ctx: Context, limit: number): boolean {
  const declared = ctx.get('content-length');
  return declared === '' || Number(declared) <= limit + DISCARD_BEYOND_LIMIT;
}

/**
 * Reads the rest of a request body and throws it away: to its end, until `bound` bytes more
 * have come (then the connection is closed after the answer), or until the connection
 * closes. A body that stops arriving is ended by the body inactivity timeout (server.ts).
 */
export function discardBody(req: IncomingMessage, bound: number): Promise<void> {
  if (req.complete || req.destroyed || req.readableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    let seen = 0;
    const finish = () => {
      req.off('data', onData);
      req.off('end', finish);
      req.off('close', finish);
      req.off('error', finish);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > bound) {
        req.pause();
        finish();
      }
    };
    req.on('data', onData);
    req.once('end', finish);
    req.once('close', finish);
    req.once('error', finish);
    req.resume();
  });
}

/** A file upload: the form fields (or none) and the file's bytes. */
export interface Upload {
  fields: Record<string, string>;
  content: Buffer;
  /** A multipart upload's file name, as the client gave it. */
  fileName?: string | undefined;
}

/**
 * Reads a file upload of at most `limit` bytes: `multipart/form-data` with one file part
 * named `file` (its other parts are fields), or any other media type as the raw file itself
 * (the fields then come from the query). 413 beyond the limit, with the connection closed;
 * 400 for a multipart body that does not read or has no `file` part.
 */
export async function readUpload(ctx: Context, limit: number): Promise<Upload> {
  if (ctx.is('multipart/form-data')) return readMultipart(ctx, limit);
  return { fields: {}, content: await readRaw(ctx, limit) };
}

function tooLarge(limit: number): AppError {
  return new AppError(413, 'PAYLOAD_TOO_LARGE', `request body is larger than ${limit} bytes`, undefined, {
    Connection: 'close',
  });
}

/** The raw body, counted as it arrives: over the limit, reading stops and 413 is answered. */
async function readRaw(ctx: Context, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Not destroyed when reading stops at the limit: the rest is read and thrown away before
  // the 413 (app.ts), so the client sees it.
  for await (const chunk of ctx.req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

async function readMultipart(ctx: Context, limit: number): Promise<Upload> {
  const parse = koaBody({
    json: false,
    urlencoded: false,
    text: false,
    multipart: true,
    parsedMethods: METHODS,
    formidable: {
      maxFiles: 1,
      maxFileSize: limit,
      maxTotalFileSize: limit,
      maxFields: 10,
      maxFieldsSize: 64 * 1024,
      allowEmptyFiles: true,
      minFileSize: 0,
    },
  });
  try {
    await parse(ctx, async () => {});
  } catch (err) {
    const e = err as { httpCode?: number; code?: number; message?: string };
    if (e.httpCode === 413 || /maxFileSize|maxTotalFileSize|exceeded/i.test(e.message ?? ''))
      throw tooLarge(limit);
    throw new AppError(400, 'BAD_REQUEST', `the multipart body does not read: ${e.message ?? 'malformed'}`);
  }
  const files = ctx.request.files ?? {};
  const paths: string[] = [];
  for (const value of Object.values(files)) for (const f of [value].flat()) paths.push(f.filepath);
  try {
    const file = [files['file'] ?? []].flat()[0];
    if (!file || paths.length !== 1)
      throw new AppError(422, 'VALIDATION_ERROR', 'file: one file part named "file" is required', 'file');
    const body = (ctx.request.body ?? {}) as Record<string, unknown>;
    const fields: Record<string, string> = {};
    for (const [key, value] of Object.entries(body)) {
      if (typeof value !== 'string')
        throw new AppError(422, 'VALIDATION_ERROR', `${key}: must be given once`, key);
      fields[key] = value;
    }
    return {
      fields,
      content: await readFile(file.filepath),
      ...(file.originalFilename && { fileName: file.originalFilename }),
    };
  } finally {
    await Promise.all(paths.map((p) => rm(p, { force: true })));
  }
}
