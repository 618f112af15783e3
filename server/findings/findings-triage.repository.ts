import type { Db } from '../db/index.ts';
import type { FindingStatus } from '../schemas/findings.ts';
import type { FindingRow } from './rows.ts';

/**
 * People's changes to findings (findings/triage.ts): lock, change status and
 * triage fields, one finding or many. Every query takes the organization id.
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

/** Applies a triage change to one of the organization's findings; undefined when it has no such finding. */
export async function updateFindingTriage(
  trx: Db,
  orgId: string,
  findingId: string,
  values: Partial<FindingRow>,
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

/**
 * Sets one status (and optionally notes), with its risk decision, on the organization's findings `ids`.
 * Findings already in the target status keep their resolved_at; the others get
 * the one their new status implies (history.ts `resolvedAtAfter`, in SQL).
 */
export async function setStatusOfFindings(
  trx: Db,
  orgId: string,
  ids: readonly string[],
  change: {
    status: FindingStatus;
    /** Set when given (null clears it); left as it is when undefined. */
    notes?: string | null | undefined;
    /** The risk decision's columns (set or cleared by the status). */
    acceptance: Partial<
      Pick<FindingRow, 'justification' | 'justified_by' | 'justified_at' | 'acceptance_expires_at'>
    >;
    now: Date;
  },
): Promise<void> {
  const { status, notes, acceptance, now } = change;
  await trx('findings')
    .where('org_id', orgId)
    .whereIn('id', ids)
    .update({
      status,
      updated_at: now,
      resolved_at:
        status === 'resolved'
          ? trx.raw("case when status = 'resolved' then coalesce(resolved_at, ?) else ? end", [now, now])
          : null,
      ...acceptance,
      ...(notes !== undefined ? { notes } : {}),
    });
}
