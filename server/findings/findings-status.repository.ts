import type { Db } from '../db/index.ts';
import type { FindingStatus } from '../schemas/findings.ts';
import type { FindingRow } from './rows.ts';

/**
 * The one write of a finding's status and risk decision (`status`, `resolved_at`, the
 * acceptance columns). Only findings/transitions.ts calls it: every move of a finding, whoever
 * makes it (a scan, a person, a tracker, the acceptance timer), goes through that module's
 * table of allowed moves. Every query takes the organization id.
 */

/** The risk decision's columns (set or cleared by a move). */
export type AcceptanceColumns = Pick<
  FindingRow,
  'justification' | 'justified_by' | 'justified_at' | 'acceptance_expires_at'
>;

export interface StatusWrite {
  /**
   * The status the findings take; `resolved_at` follows it: kept (or now, when missing) for a
   * finding already resolved, now for one becoming resolved, cleared otherwise. Undefined leaves
   * status and `resolved_at` as they are (a risk decision given again).
   */
  status?: FindingStatus | undefined;
  /** Set when given (null clears them); left as they are when undefined. */
  acceptance?: Partial<AcceptanceColumns> | undefined;
  /** Set when given (null clears it); left as it is when undefined. */
  notes?: string | null | undefined;
  now: Date;
}

/** Writes the status and risk decision of the organization's findings `ids`. */
export async function writeFindingStatus(
  trx: Db,
  orgId: string,
  ids: readonly string[],
  write: StatusWrite,
): Promise<void> {
  if (ids.length === 0) return;
  const { status, acceptance, notes, now } = write;
  await trx('findings')
    .where('org_id', orgId)
    .whereIn('id', ids)
    .update({
      updated_at: now,
      ...(status !== undefined
        ? {
            status,
            resolved_at:
              status === 'resolved'
                ? trx.raw("case when status = 'resolved' then coalesce(resolved_at, ?) else ? end", [
                    now,
                    now,
                  ])
                : null,
          }
        : {}),
      ...acceptance,
      ...(notes !== undefined ? { notes } : {}),
    });
}
