import Router from '@koa/router';
import { registry, scanMetrics } from '../metrics/registry.ts';
import { countScansByStatusOfAllOrganizations } from '../scans/scans.repository.ts';
import type { Services } from '../services.ts';
import { requireCredentialsUnless } from './docs.ts';

/**
 * GET /metrics: this process's Prometheus metrics in the text exposition format, behind
 * the same credentials as the API documentation unless SCANWARD_METRICS_PUBLIC=true
 * (docs/operations.md shows a scrape configuration). Scans by status are counted in the
 * database at scrape time: the whole instance's figures, the same from every process.
 */
export const metricsRouter = new Router();

const STATUSES = ['pending', 'running', 'completed', 'failed', 'cancelled'] as const;

metricsRouter.get(
  '/metrics',
  requireCredentialsUnless((config) => config.metricsPublic),
  async (ctx) => {
    const services = ctx.state.services as Services;
    const rows = await countScansByStatusOfAllOrganizations(services.db);
    for (const status of STATUSES) {
      scanMetrics.byStatus.set({ status }, rows.find((r) => r.status === status)?.n ?? 0);
    }
    ctx.type = registry.contentType;
    ctx.body = await registry.metrics();
  },
);
