import type { Context, Next } from 'koa';
import { httpMetrics } from './registry.ts';

/**
 * Observes every request's duration under its route template (`/api/v1/scans/:scan_id`),
 * never the raw path, so label values stay few; a request no route matched counts as
 * `unmatched`. Mounted outside the error middleware, so an error's status is the one the
 * client got.
 */
export function httpMetricsMiddleware() {
  return async (ctx: Context, next: Next) => {
    const end = httpMetrics.requestDuration.startTimer();
    try {
      await next();
    } finally {
      end({
        method: ctx.method,
        route: (ctx as Context & { _matchedRoute?: string })._matchedRoute ?? 'unmatched',
        status: String(ctx.status),
      });
    }
  };
}
