import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { AppError } from '../../errors.ts';

/**
 * Renders every thrown error as `{detail, error_code, field?}`. Anything that is
 * not an AppError is logged with its stack and answered as a bare 500: no stack,
 * SQL or message of an unexpected error reaches the client.
 */
export function errorMiddleware(logger: Logger) {
  return async (ctx: Context, next: Next) => {
    try {
      await next();
    } catch (err) {
      if (err instanceof AppError) {
        ctx.status = err.status;
        for (const [name, value] of Object.entries(err.headers)) ctx.set(name, value);
        ctx.body = { detail: err.detail, error_code: err.code, ...(err.field ? { field: err.field } : {}) };
        if (err.status === 401 && ctx.state.basicChallenge)
          ctx.set('WWW-Authenticate', 'Basic realm="Scanward"');
        return;
      }
      const status = httpErrorStatus(err);
      if (status) {
        // Errors raised by Koa itself or its body readers (client mistakes).
        ctx.status = status;
        ctx.body = {
          detail: 'bad request',
          error_code: status === 413 ? 'PAYLOAD_TOO_LARGE' : 'BAD_REQUEST',
        };
        return;
      }
      ((ctx.state.log as Logger | undefined) ?? logger).error({ err }, 'unhandled error');
      ctx.status = 500;
      ctx.body = { detail: 'internal server error', error_code: 'INTERNAL_ERROR' };
    }
  };
}

function httpErrorStatus(err: unknown): number | undefined {
  const e = err as { status?: unknown; expose?: unknown };
  if (typeof e?.status === 'number' && e.expose === true && e.status >= 400 && e.status < 500) {
    return e.status === 413 ? 413 : 400;
  }
  return undefined;
}
