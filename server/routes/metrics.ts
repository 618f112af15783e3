import Router from '@koa/router';
import { registry } from '../metrics/registry.ts';
import { observeScansByStatus } from '../metrics/scans.ts';
import type { Services } from '../services.ts';
import { requireCredentialsUnless } from './docs.ts';

/**
 * GET /metrics: this process's Prometheus metrics in the text exposition format, behind
 * the same credentials as the API documentation unless SCANWARD_METRICS_PUBLIC=true
 * (docs/operations.md shows a scrape configuration). Scans by status are counted in the
 * database at scrape time: the whole instance's figures, the same from every process.
 */
export const metricsRouter = new Router();

metricsRouter.get(
  '/metrics',
  requireCredentialsUnless((config) => config.metricsPublic),
  async (ctx) => {
    const services = ctx.state.services as Services;
    await observeScansByStatus(services.db);
    ctx.type = registry.contentType;
    ctx.body = await registry.metrics();
  },
);
