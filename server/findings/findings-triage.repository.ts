import type { Db } from '../db/index.ts';
import type { FindingRow } from './rows.ts';

/**
 * People's changes to findings (findings/triage.ts): lock, and change triage
 * fields, one finding or many (the status is findings/transitions.ts's). Every
 * query takes the organization id.
 */

/** What a status change needs to know of a finding it locked. */
export type TriageLockedRow = Pick<FindingRow, 'id' | 'status' | 'resolved_at'>;

/** Locks the organization's finding for a triage change (`FOR UPDATE`); undefined when missing or foreign. */
export async function lockFindingForTriage(
  trx: Db,
  orgId: string,
  findingId: string,
): Promise<TriageLockedRow | undefined> {
  return trx('findings')
    .where({ org_id: orgId, id: findingId })
    .forUpdate()
    .first('id', 'status', 'resolved_at');
}

/** Locks those of `ids` that are the organization's findings, in id order (no deadlock between bulk updates). */
export async function lockFindingsForTriage(
  trx: Db,
  orgId: string,
  ids: readonly string[],
): Promise<TriageLockedRow[]> {
  return trx('findings')
    .where('org_id', orgId)
    .whereIn('id', ids)
    .orderBy('id')
    .forUpdate()
    .select('id', 'status', 'resolved_at');
}

/** Whether the organization has this finding. */
export async function findingExists(db: Db, orgId: string, findingId: string): Promise<boolean> {
  return (await db('findings').where({ org_id: orgId, id: findingId }).first('id')) !== undefined;
}

/** The triage fields a change answers with. */
export type TriagedRow = Pick<
  FindingRow,
  | 'id'
  | 'status'
  | 'assignee'
  | 'priority'
  | 'due_date'
  | 'notes'
  | 'justification'
  | 'justified_by'
  | 'justified_at'
  | 'acceptance_expires_at'
  | 'updated_at'
>;

/**
 * The triage fields a person sets besides status (findings/transitions.ts writes the status and
 * the risk decision).
 */
export type TriageFields = Partial<
  Pick<FindingRow, 'assignee' | 'priority' | 'due_date' | 'due_date_by_person' | 'notes' | 'updated_at'>
>;

/** Applies a triage change to one of the organization's findings; undefined when it has no such finding. */
export async function updateFindingTriage(
  trx: Db,
  orgId: string,
  findingId: string,
  values: TriageFields,
): Promise<TriagedRow | undefined> {
  const [row] = await trx('findings')
    .where({ org_id: orgId, id: findingId })
    .update(values)
    .returning([
      'id',
      'status',
      'assignee',
      'priority',
      'due_date',
      'notes',
      'justification',
      'justified_by',
      'justified_at',
      'acceptance_expires_at',
      'updated_at',
    ]);
  return row;
}
