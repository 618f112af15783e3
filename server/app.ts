import Router from '@koa/router';
import Koa, { type Context, type Next } from 'koa';
import type { Logger } from 'pino';
import { authenticateRequest } from './auth/gatekeeper.ts';
import { koaPath, routeMiddleware, type AnyRoute, type Gatekeeper } from './http/contract.ts';
import { AppError } from './errors.ts';
import { DISCARD_BEYOND_LIMIT, discardable, discardBody, exceedsLimit } from './http/middleware/body.ts';
import { errorMiddleware } from './http/middleware/errors.ts';
import { requestLog } from './http/middleware/request-log.ts';
import { consolePages } from './routes/console.ts';
import { httpMetricsMiddleware } from './metrics/http.ts';
import { docsRouter } from './routes/docs.ts';
import { metricsRouter } from './routes/metrics.ts';
import { allRoutes } from './routes/index.ts';
import { IMPORTS_PATH } from './routes/imports.ts';
import { countRequest } from './ratelimit/request-rate.ts';
import type { Services } from './services.ts';

async function securityHeaders(ctx: Context, next: Next) {
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Cache-Control', 'no-store');
  await next();
}

/** The methods any of the routers serves on a path (HEAD goes without saying). */
function allowedMethods(routers: Router[], path: string): string[] {
  const methods = new Set<string>();
  for (const router of routers) {
    for (const layer of router.match(path, 'GET').path) for (const m of layer.methods) methods.add(m);
  }
  methods.delete('HEAD');
  return [...methods];
}

export interface AppOptions {
  /**
   * The contract routes to serve; `allRoutes` unless given. Tests pass extra
   * throwaway routes here instead of adding them to the production list.
   */
  routes?: AnyRoute[];
}

/** Builds the Koa application over the given services. It never listens; main.ts and tests do. */
export function createApp(services: Services, options: AppOptions = {}): Koa {
  const app = new Koa({ proxy: services.config.trustProxy });
  const router = new Router();
  // http/ sits below auth/ and ratelimit/: the app hands it who calls and the count.
  const gatekeeper: Gatekeeper = {
    authenticate: authenticateRequest,
    countRequest: (ctx, principal) => countRequest((ctx.state.services as Services).db, ctx, principal),
  };
  for (const route of options.routes ?? allRoutes) {
    router.register(
      koaPath(route.path),
      [route.method.toUpperCase()],
      routeMiddleware(route, gatekeeper, services.validateResponses),
    );
  }

  // Errors the middleware chain cannot answer (a stream failing mid-response) end up here,
  // logged once each (Koa reports a failing body stream twice: from the stream and from the
  // pipeline) with the request id. A client that hangs up mid-download is no server error.
  const reported = new WeakSet<object>();
  app.on('error', (err: unknown, ctx?: Context) => {
    if (err && typeof err === 'object') {
      if (reported.has(err)) return;
      reported.add(err);
    }
    const log = (ctx?.state.log as Logger | undefined) ?? services.logger;
    if ((err as { code?: unknown }).code === 'ERR_STREAM_PREMATURE_CLOSE') {
      log.info('client closed the connection before the response ended');
      return;
    }
    log.error({ err }, 'response failed after it started');
  });

  app.use(requestLog(services.logger));
  app.use(httpMetricsMiddleware());
  app.use(errorMiddleware(services.logger));
  app.use(securityHeaders);
  app.use(async (ctx, next) => {
    ctx.state.services = services;
    // Report uploads (POST /api/v1/imports) have a limit of their own.
    const limit = ctx.path === IMPORTS_PATH ? services.config.importLimit : services.config.bodyLimit;
    const tooLarge = () =>
      new AppError(413, 'PAYLOAD_TOO_LARGE', `request body is larger than ${limit} bytes`);
    if (exceedsLimit(ctx, limit)) {
      // The connection closes after the answer; first the body is read and thrown away (up to
      // a bound) so that a client still sending it sees the 413 rather than a broken pipe.
      ctx.set('Connection', 'close');
      if (discardable(ctx, limit)) await discardBody(ctx.req, limit + DISCARD_BEYOND_LIMIT);
      throw tooLarge();
    }
    try {
      await next();
    } catch (err) {
      // A body that grew past the limit as it arrived (chunked, or multipart): the same.
      if (err instanceof AppError && err.status === 413 && !ctx.headerSent)
        await discardBody(ctx.req, DISCARD_BEYOND_LIMIT);
      throw err;
    } finally {
      // A body still arriving that nobody read (an unknown route, a route without a body) is
      // not drained after the answer, which a client could stretch without limit: the
      // connection closes instead.
      if (!ctx.req.complete && !ctx.headerSent) ctx.set('Connection', 'close');
    }
  });
  const { router: pages, notFound: consoleNotFound } = consolePages();
  app.use(docsRouter.routes());
  app.use(metricsRouter.routes());
  app.use(pages.routes());
  app.use(router.routes());
  app.use(async (ctx) => {
    // Nothing matched: a known path with another method is 405, anything else 404.
    const allowed = allowedMethods([docsRouter, metricsRouter, pages, router], ctx.path);
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
    // A browser's unknown page: the console's "Page not found" (404); the API's paths stay JSON.
    if (consoleNotFound(ctx)) return;
    throw new AppError(404, 'NOT_FOUND', 'route not found');
  });
  return app;
}
