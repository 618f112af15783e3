import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { AppError } from '../errors.ts';

const MEDIA_TYPES = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
} as const;

/**
 * Reads and parses a request body of the route's media type. Every failure is an
 * AppError in the one error shape: 413 over the limit, 400 for a wrong content
 * type or a body that does not parse.
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
  let text: string;
  try {
    text = await getRawBody(ctx.req, { limit, encoding: ctx.request.charset || 'utf-8' });
  } catch (err) {
    const e = err as { type?: string };
    if (e.type === 'entity.too.large') {
      // The rest of the upload is not wanted: close the connection instead of draining it.
      throw new AppError(413, 'PAYLOAD_TOO_LARGE', `request body is larger than ${limit} bytes`, undefined, {
        Connection: 'close',
      });
    }
    if (e.type === 'encoding.unsupported') {
      throw new AppError(400, 'BAD_REQUEST', 'unsupported request body charset');
    }
    throw new AppError(400, 'BAD_REQUEST', 'request body could not be read');
  }
  if (type === 'form') return Object.fromEntries(new URLSearchParams(text));
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError(400, 'BAD_REQUEST', 'request body is not valid JSON');
  }
}

/**
 * Bodies of requests that no route reads (unknown routes, wrong methods) still
 * count against the limit, so an oversized upload is refused rather than buffered.
 */
export function exceedsLimit(ctx: Context, limit: number): boolean {
  return Number(ctx.get('content-length') || 0) > limit;
}
