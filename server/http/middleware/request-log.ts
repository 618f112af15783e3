import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';

const REQUEST_ID = /^[\w.-]{1,100}$/;

/** Gives every request an id (kept from `X-Request-Id` when sane) and logs one line when it ends. */
export function requestLog(logger: Logger) {
  return async (ctx: Context, next: Next) => {
    const started = process.hrtime.bigint();
    const incoming = ctx.get('x-request-id');
    const requestId = REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.state.log = logger.child({ request_id: requestId });
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const status = ctx.status;
      (ctx.state.log as Logger)[status >= 500 ? 'error' : 'info'](
        {
          method: ctx.method,
          route: (ctx as Context & { _matchedRoute?: string })._matchedRoute ?? ctx.path,
          status,
          ms: Math.round(ms * 10) / 10,
          org_id: ctx.state.principal?.org.id,
        },
        'request',
      );
    }
  };
}
