import Router from '@koa/router';
import Koa, { type Context, type Next } from 'koa';
import { gatekeeper } from './auth/gatekeeper.ts';
import { koaPath, routeMiddleware } from './http/contract.ts';
import { AppError } from './http/errors.ts';
import { exceedsLimit } from './http/middleware/body.ts';
import { errorMiddleware } from './http/middleware/errors.ts';
import { requestLog } from './http/middleware/request-log.ts';
import { docsRouter } from './routes/docs.ts';
import { allRoutes } from './routes/index.ts';
import type { Services } from './services.ts';

async function securityHeaders(ctx: Context, next: Next) {
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Cache-Control', 'no-store');
  await next();
}

/** Builds the Koa application over the given services. It never listens; main.ts and tests do. */
export function createApp(services: Services): Koa {
  const app = new Koa({ proxy: services.config.trustProxy });
  const router = new Router();
  for (const route of allRoutes) {
    router.register(
      koaPath(route.path),
      [route.method.toUpperCase()],
      routeMiddleware(route, gatekeeper, services.validateResponses),
    );
  }

  app.use(requestLog(services.logger));
  app.use(errorMiddleware(services.logger));
  app.use(securityHeaders);
  app.use(async (ctx, next) => {
    ctx.state.services = services;
    if (exceedsLimit(ctx, services.config.bodyLimit)) {
      throw new AppError(
        413,
        'PAYLOAD_TOO_LARGE',
        `request body is larger than ${services.config.bodyLimit} bytes`,
      );
    }
    await next();
  });
  app.use(docsRouter.routes());
  app.use(router.routes());
  app.use(async (ctx) => {
    // Nothing matched: a known path with another method is 405, anything else 404.
    const match = router.match(ctx.path, ctx.method);
    const allowed = [...new Set(match.path.flatMap((layer) => layer.methods))].filter((m) => m !== 'HEAD');
    if (allowed.length > 0) {
      throw new AppError(
        405,
        'METHOD_NOT_ALLOWED',
        `${ctx.method} is not allowed on ${ctx.path}`,
        undefined,
        {
          Allow: allowed.join(', '),
        },
      );
    }
    throw new AppError(404, 'NOT_FOUND', 'route not found');
  });
  return app;
}
