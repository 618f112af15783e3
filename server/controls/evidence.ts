import type { Knex } from 'knex';
import { newId } from '../identity/ids.ts';
import type { ControlEvidence, CreateEvidenceBody } from '../schemas/controls.ts';

/**
 * Evidence records of a control (table `control_evidence`): one `scan` record per
 * completed scan that assessed the control (written by the scan runner), and
 * `user` records attached through the API. Every query is scoped by organization.
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

export function evidenceView(row: EvidenceRow): ControlEvidence {
  return {
    id: row.id,
    control_id: row.control_id,
    kind: row.kind,
    title: row.title,
    description: row.description,
    url: row.url,
    scan_id: row.scan_id,
    created_at: row.created_at.toISOString(),
    ...(row.created_by ? { created_by: row.created_by } : {}),
  };
}

/** The control's evidence of the organization, newest first. */
export async function listEvidence(
  db: Knex,
  orgId: string,
  controlId: string,
  limit: number,
): Promise<ControlEvidence[]> {
  const rows = (await db('control_evidence')
    .where({ org_id: orgId, control_id: controlId })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(limit)) as EvidenceRow[];
  return rows.map(evidenceView);
}

/** Attaches user evidence to a control (the caller checked the control exists). */
export async function attachEvidence(
  db: Knex,
  orgId: string,
  controlId: string,
  author: string,
  input: CreateEvidenceBody,
): Promise<ControlEvidence> {
  const [row] = (await db('control_evidence')
    .insert({
      id: newId('evid'),
      org_id: orgId,
      control_id: controlId,
      kind: 'user',
      scan_id: null,
      title: input.title,
      description: input.description ?? null,
      url: input.url ?? null,
      created_by: author,
      created_at: new Date(),
    })
    .returning('*')) as EvidenceRow[];
  return evidenceView(row!);
}
