import type { Db } from '../db/index.ts';
import type { EvidenceRow } from './evidence.ts';

// --- added by scan-lifecycle

/** A completed scan's evidence records: one per control it assessed. */
export type NewScanEvidenceRow = Pick<
  EvidenceRow,
  'id' | 'org_id' | 'control_id' | 'kind' | 'scan_id' | 'title' | 'description' | 'created_at'
>;

/** Records the scan's evidence; a control the scan already has evidence for is left as it is. */
export async function insertScanEvidence(
  db: Db,
  orgId: string,
  rows: readonly NewScanEvidenceRow[],
): Promise<void> {
  if (rows.length === 0) return;
  await db<EvidenceRow>('control_evidence')
    .insert(rows.map((row) => ({ ...row, org_id: orgId })))
    .onConflict(['org_id', 'control_id', 'scan_id'])
    .ignore();
}
