import type { Db } from '../db/index.ts';
import { countScansByStatusOfAllOrganizations } from '../scans/scans.repository.ts';
import { scanMetrics } from './registry.ts';

const STATUSES = ['pending', 'running', 'completed', 'failed', 'cancelled'] as const;

/**
 * Sets the `scanward_scans` gauge from the database: the whole instance's scans by
 * status, read at scrape time, so every process reports the same figures.
 */
export async function observeScansByStatus(db: Db): Promise<void> {
  const rows = await countScansByStatusOfAllOrganizations(db);
  for (const status of STATUSES) {
    scanMetrics.byStatus.set({ status }, rows.find((r) => r.status === status)?.n ?? 0);
  }
}
