import type { Db } from '../db/index.ts';

/**
 * A read-only query of the `scans` table for the metrics endpoint: scans counted by
 * status across the whole instance (every organization: the figures an operator
 * scrapes). The scans table's own repository lives in scans/.
 */

export interface ScanStatusCount {
  status: string;
  n: number;
}

export async function countScansByStatusOfAllOrganizations(db: Db): Promise<ScanStatusCount[]> {
  return db('scans').groupBy('status').select<ScanStatusCount[]>('status', db.raw('count(*)::int as n'));
}
