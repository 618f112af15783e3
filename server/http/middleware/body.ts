import type { Context } from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';
import { AppError } from '../../errors.ts';

const MEDIA_TYPES = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
} as const;

/** Any method a route declares a body on (koa-body parses only POST, PUT and PATCH by default). */
const METHODS = [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE];

/**
 * Reads and parses a request body of the route's media type with koa-body, the design's
 * body parser: read up to `limit` bytes in the request's charset (inflated first when the
 * client compressed it), then JSON (co-body, which also refuses `__proto__` keys) or the
 * raw form text. What koa-body leaves to its caller stays here: an absent body is an empty
 * one; a body of another media type is refused instead of skipped; and every failure is an
 * AppError in the one error shape: 413 over the limit, 400 for a wrong content type or a
 * body that does not read or parse.
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
  const parse = koaBody({
    json: type === 'json',
    urlencoded: type === 'form',
    text: false,
    multipart: false,
    jsonTypes: [MEDIA_TYPES.json],
    urlencodedTypes: [MEDIA_TYPES.form],
    jsonLimit: limit,
    formLimit: limit,
    // Any JSON value: a body that is not an object is the schema's to refuse (422), not a parse error.
    jsonStrict: false,
    encoding: ctx.request.charset || 'utf-8',
    // The form text itself: qs (koa-body's form parser) nests `a[b]` and `a.b` and turns repeated
    // keys into arrays, where the routes' schemas expect one flat string per field.
    includeUnparsed: true,
    parsedMethods: METHODS,
  });
  try {
    await parse(ctx, async () => {});
  } catch (err) {
    return recover(err, limit);
  }
  if (type === 'form') return Object.fromEntries(new URLSearchParams(ctx.request.rawBody ?? ''));
  return ctx.request.body ?? {};
}

/** koa-body's (raw-body's, co-body's) errors as answers; a body of only whitespace is an empty one. */
function recover(err: unknown, limit: number): unknown {
  const e = err as { type?: string; status?: number; body?: unknown; message?: string };
  if (e.type === 'entity.too.large') {
    // The rest of the upload is not wanted: close the connection instead of draining it.
    throw new AppError(413, 'PAYLOAD_TOO_LARGE', `request body is larger than ${limit} bytes`, undefined, {
      Connection: 'close',
    });
  }
  if (e.type === 'encoding.unsupported') {
    throw new AppError(400, 'BAD_REQUEST', 'unsupported request body charset');
  }
  if (err instanceof SyntaxError) {
    if (typeof e.body === 'string' && e.body.trim() === '') return {};
    if (/prototype/i.test(err.message)) {
      throw new AppError(400, 'BAD_REQUEST', 'request body must not set __proto__');
    }
    throw new AppError(400, 'BAD_REQUEST', 'request body is not valid JSON');
  }
  if (e.status === 415) {
    // inflation: a Content-Encoding other than gzip, deflate, br or identity.
    throw new AppError(400, 'BAD_REQUEST', 'unsupported request body Content-Encoding');
  }
  throw new AppError(400, 'BAD_REQUEST', 'request body could not be read');
}

/**
 * Bodies of requests that no route reads (unknown routes, wrong methods) still
 * count against the limit, so an oversized upload is refused rather than buffered.
 */
export function exceedsLimit(ctx: Context, limit: number): boolean {
  return Number(ctx.get('content-length') || 0) > limit;
}
