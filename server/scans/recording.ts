import type { Db } from '../db/index.ts';
import { recordFindings, type RecordScanFindingsInput, type ScanTally } from '../findings/lifecycle.ts';
import { writeScanCounts } from './lifecycle.ts';
import type { ScanChanges } from './scans.repository.ts';

/**
 * A scan's detections recorded (server/findings/lifecycle.ts: findings, observations, history,
 * the domain events) and the scan's per-severity counts written to its row, with its `changes`
 * once it is complete, in one transaction. The scan lifecycle calls down into findings; findings
 * never call back up into scans.
 */

export interface ScanFindingsSummary {
  counts: ScanTally;
  changes: ScanChanges;
  new_finding_ids: string[];
  reopened_finding_ids: string[];
  resolved_finding_ids: string[];
}

/** In the caller's transaction, or a new one when given the root connection. */
export async function recordScanFindings(
  db: Db,
  input: RecordScanFindingsInput,
): Promise<ScanFindingsSummary> {
  if (db.isTransaction === true) return record(db, input);
  return db.transaction((trx) => record(trx, input));
}

async function record(trx: Db, input: RecordScanFindingsInput): Promise<ScanFindingsSummary> {
  const now = input.now ?? new Date();
  const { byChange, ...recorded } = await recordFindings(trx, { ...input, now });
  const changes = await writeScanCounts(
    trx,
    input.scan,
    {
      counts: recorded.counts,
      byChange,
      resolvedNow: recorded.resolved_finding_ids.length,
      completed: input.completed,
    },
    now,
  );
  return { ...recorded, changes };
}
