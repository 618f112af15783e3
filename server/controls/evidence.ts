import type { Db } from '../db/index.ts';
import { newId } from '../identity/ids.ts';
import type { ControlEvidence, CreateEvidenceBody } from '../schemas/controls.ts';
import { insertEvidence, listControlEvidence, type EvidenceRow } from './control-evidence.repository.ts';

/**
 * Evidence records of a control (table `control_evidence`): one `scan` record per
 * completed scan that assessed the control (written by the scan runner), and
 * `user` records attached through the API. Every query is scoped by organization.
 */

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
  db: Db,
  orgId: string,
  controlId: string,
  limit: number,
): Promise<ControlEvidence[]> {
  return (await listControlEvidence(db, orgId, controlId, limit)).map(evidenceView);
}

/** Attaches user evidence to a control (the caller checked the control exists). */
export async function attachEvidence(
  db: Db,
  orgId: string,
  controlId: string,
  author: string,
  input: CreateEvidenceBody,
): Promise<ControlEvidence> {
  const row = await insertEvidence(db, orgId, {
    id: newId('evid'),
    control_id: controlId,
    kind: 'user',
    scan_id: null,
    title: input.title,
    description: input.description ?? null,
    url: input.url ?? null,
    created_by: author,
    created_at: new Date(),
  });
  return evidenceView(row);
}
