import type { Knex } from 'knex';
import type { Db } from '../db/index.ts';

/**
 * The `control_evidence` table: one `scan` record per completed scan that assessed a
 * control, and `user` records attached through the API. Every query is scoped by
 * organization.
 */

export interface EvidenceRow {
  id: string;
  org_id: string;
  control_id: string;
  kind: 'scan' | 'user';
  scan_id: string | null;
  title: string;
  description: string | null;
  url: string | null;
  /** The e-mail of the user who attached it (user evidence). */
  created_by: string | null;
  created_at: Date;
}

/** The columns an insert must give; the others have defaults (null, now). */
export type NewEvidenceRow = Pick<EvidenceRow, 'id' | 'org_id' | 'control_id' | 'kind' | 'title'> &
  Partial<Omit<EvidenceRow, 'id' | 'org_id' | 'control_id' | 'kind' | 'title'>>;

declare module 'knex/types/tables.js' {
  interface Tables {
    control_evidence: Knex.CompositeTableType<EvidenceRow, NewEvidenceRow, Partial<EvidenceRow>>;
  }
}

/** The control's evidence in the organization, newest first. */
export async function listControlEvidence(
  db: Db,
  orgId: string,
  controlId: string,
  limit: number,
): Promise<EvidenceRow[]> {
  return db('control_evidence')
    .where({ org_id: orgId, control_id: controlId })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(limit);
}

export async function insertEvidence(
  db: Db,
  orgId: string,
  row: Omit<NewEvidenceRow, 'org_id'>,
): Promise<EvidenceRow> {
  const [created] = await db('control_evidence')
    .insert({ ...row, org_id: orgId })
    .returning('*');
  return created!;
}

/**
 * Records a completed scan's evidence for the controls it assessed; a control the scan
 * already has evidence for is left as it is.
 */
export async function insertScanEvidence(
  db: Db,
  orgId: string,
  rows: Omit<NewEvidenceRow, 'org_id' | 'kind'>[],
): Promise<void> {
  if (rows.length === 0) return;
  await db('control_evidence')
    .insert(rows.map((row) => ({ ...row, org_id: orgId, kind: 'scan' as const })))
    .onConflict(['org_id', 'control_id', 'scan_id'])
    .ignore();
}

export interface EvidenceTally {
  control_id: string;
  evidence_count: number;
  /** How many of them are scan evidence. */
  scan_evidence: number;
}

/** The organization's evidence counted per control; `controlId` narrows it to one control. */
export async function evidenceTallies(db: Db, orgId: string, controlId?: string): Promise<EvidenceTally[]> {
  return db('control_evidence')
    .where({ org_id: orgId })
    .modify((q) => {
      if (controlId) void q.andWhere({ control_id: controlId });
    })
    .groupBy('control_id')
    .select<EvidenceTally[]>(
      'control_id',
      db.raw('count(*)::int as evidence_count'),
      db.raw("count(*) filter (where kind = 'scan')::int as scan_evidence"),
    );
}
