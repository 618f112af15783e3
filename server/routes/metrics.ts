import Router from '@koa/router';
import type { Context, Next } from 'koa';
import { consoleCookie } from '../auth/console-session.ts';
import { resolvePrincipal } from '../auth/gatekeeper.ts';
import { AppError, insufficientPermission } from '../errors.ts';
import { registry } from '../metrics/registry.ts';
import { observeScansByStatus } from '../metrics/scans.ts';
import { mayScrapeMetrics } from '../policies/metrics.ts';
import type { Services } from '../services.ts';

/**
 * GET /metrics: this process's Prometheus metrics in the text exposition format. The
 * figures are instance-wide (scans by status of every organization, traffic of every
 * route), so they answer only to the operator: `Authorization: Bearer
 * <SCANWARD_METRICS_TOKEN>`, or everyone when SCANWARD_METRICS_PUBLIC=true (a scraper on a
 * private network). An organization's token or API key is no operator credential
 * (docs/operations.md shows a scrape configuration). Scans by status are counted in the
 * database at scrape time: the whole instance's figures, the same from every process.
 */
export const metricsRouter = new Router();

/** What the refusal says a scraper must send. */
function howToScrape(services: Services): string {
  return services.config.metricsToken
    ? 'send the operator token: Authorization: Bearer <SCANWARD_METRICS_TOKEN>'
    : 'the operator enables them with SCANWARD_METRICS_TOKEN (or SCANWARD_METRICS_PUBLIC=true)';
}

/**
 * The operator's credential (the metrics policy, policies/metrics.ts), or a refusal in the error shape: 401 without credentials or
 * with ones that are not valid; 403 for an organization's valid token, key or console
 * session, which is a credential, only not for this.
 */
async function requireOperator(ctx: Context, next: Next) {
  const services = ctx.state.services as Services;
  if (!mayScrapeMetrics(services.config, ctx.get('authorization'))) {
    ctx.set('WWW-Authenticate', 'Bearer realm="Scanward metrics"');
    const hasCredentials =
      ctx.get('authorization') !== '' || ctx.get('x-api-key') !== '' || consoleCookie(ctx) !== undefined;
    if (!hasCredentials) {
      throw new AppError(
        401,
        'AUTHENTICATION_REQUIRED',
        `metrics are for the operator: ${howToScrape(services)}`,
      );
    }
    // An organization's credential answers 401 if it fails as it would anywhere, 403 if it holds.
    await resolvePrincipal(ctx, { allowBasic: false });
    throw insufficientPermission(
      `metrics are instance-wide and not for an organization's credentials: ${howToScrape(services)}`,
    );
  }
  await next();
}

metricsRouter.get('/metrics', requireOperator, async (ctx) => {
  const services = ctx.state.services as Services;
  await observeScansByStatus(services.db);
  ctx.type = registry.contentType;
  ctx.body = await registry.metrics();
});
