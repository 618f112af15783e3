import { expect } from 'vitest';
import { getFindingRoute, listFindingsRoute } from '../../server/routes/findings.ts';
import { queueScan } from '../../server/scans/lifecycle.ts';
import type { ScanRow } from '../../server/scans/scans.repository.ts';
import { startRunner, type Runner } from '../../server/scanner/runner.ts';
import type { ScanState } from '../../server/scanner/types.ts';
import { okBody, type RouteInput } from './api-client.ts';
import { startTestApp, type TestApp, type TestAppOptions } from './app.ts';
import { waitFor } from './poll.ts';
import { createTenant, scanRow, type Tenant } from './factory.ts';

export type FinishedScan = ScanRow & { state: ScanState };

/** The scan-runner tests' world: the real app, an enterprise tenant and a runner over the app. */
export interface ScanApp {
  app: TestApp;
  tenant: Tenant;
  runner: Runner;
  /** Stops the runner, then closes the app. */
  close(): Promise<void>;
}

/**
 * Starts the real app (`options` as {@link startTestApp}), an enterprise tenant in it and a
 * runner polling every 50 ms: the set-up of every test that scans through the runner.
 */
export async function startScanApp(options: TestAppOptions = {}): Promise<ScanApp> {
  const app = await startTestApp(options);
  try {
    const tenant = await createTenant(app, 'enterprise');
    const runner = startRunner(app.services, { pollIntervalMs: 50 });
    const close = async (): Promise<void> => {
      await runner.stop();
      await app.close();
    };
    return { app, tenant, runner, close };
  } catch (error) {
    await app.close();
    throw error;
  }
}

/**
 * Queues a scan of `target` for the tenant (as the API would, minus the HTTP),
 * wakes the runner and waits until the scan has finished, answering its row.
 */
export async function runScanToEnd(
  { app, runner, tenant }: Pick<ScanApp, 'app' | 'runner' | 'tenant'>,
  scan: {
    target: string;
    ports: string;
    scanType?: 'quick' | 'full' | 'compliance';
    credentialChecks?: 'defaults' | 'none';
  },
): Promise<FinishedScan> {
  const created = await queueScan(app.services.db, {
    orgId: tenant.orgId,
    createdBy: tenant.admin.id,
    target: scan.target,
    scanType: scan.scanType ?? 'full',
    frameworks: [],
    ports: scan.ports,
    credentialChecks: scan.credentialChecks,
    createdAt: new Date(),
  });
  runner.nudge();
  return waitFor(
    async () => (await scanRow(app, tenant.orgId, created.id)) as FinishedScan,
    (s) => s.status === 'completed' || s.status === 'failed' || s.status === 'cancelled',
  );
}

/**
 * The scan tenant's findings through the API (`query` narrows them), in template id order;
 * fails the test when they do not fit on one page.
 */
export async function findingsOf(
  scanner: Pick<ScanApp, 'tenant'>,
  query: RouteInput<typeof listFindingsRoute>['query'] = {},
) {
  const api = await scanner.tenant.client();
  const { items, total } = okBody(await api.call(listFindingsRoute, { query: { per_page: 100, ...query } }));
  expect(items).toHaveLength(total);
  return items.sort((a, b) => (a.template_id < b.template_id ? -1 : a.template_id > b.template_id ? 1 : 0));
}

/** What a finding's detail shows as its evidence, as text. */
export async function evidenceOf(scanner: Pick<ScanApp, 'tenant'>, id: string): Promise<string> {
  const api = await scanner.tenant.client();
  return JSON.stringify(okBody(await api.call(getFindingRoute, { params: { finding_id: id } })).evidence);
}
