import { queueScan } from '../../server/scans/lifecycle.ts';
import type { ScanRow } from '../../server/scans/scans.repository.ts';
import type { Runner } from '../../server/scanner/runner.ts';
import type { ScanState } from '../../server/scanner/types.ts';
import type { TestApp } from './app.ts';
import { waitFor } from './poll.ts';
import { scanRow, type Tenant } from './factory.ts';

export type FinishedScan = ScanRow & { state: ScanState };

/**
 * Queues a scan of `target` for the tenant (as the API would, minus the HTTP),
 * wakes the runner and waits until the scan has finished, answering its row.
 */
export async function runScanToEnd(
  app: TestApp,
  runner: Runner,
  tenant: Tenant,
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
