import type { Db } from '../db/index.ts';
import { FINDING_STATUSES, type FindingStatus } from '../schemas/findings.ts';
import { insertHistoryRows } from './finding-history.repository.ts';
import { writeFindingStatus, type AcceptanceColumns } from './findings-status.repository.ts';
import { statusChange } from './history.ts';
import { SYSTEM_ACTOR } from './rows.ts';

/**
 * The one owner of a finding's moves (docs/finding-lifecycle.md): status, `resolved_at` and the
 * risk decision change here and nowhere else, each move checked against one table of who may
 * make it, and each move of status written to the finding's history in the same call.
 *
 * - **scan** (findings/lifecycle.ts, for the scan lifecycle and imports): a sighting reopens a
 *   `resolved` finding; a completed scan resolves an `open` or `in_progress` one it covered and
 *   no longer detects. It never touches `false_positive` or `accepted`. A new finding is
 *   inserted `open` (the column's default) by the lifecycle: that is its birth, not a move.
 * - **person** (findings/triage.ts: the API, and a tracker closing or reopening its ticket on
 *   behalf of the integration's creator, notifications/tickets.ts): any status may follow any
 *   other, and a move to `accepted` or `false_positive` records a risk decision.
 * - **timer** (findings/acceptance-expiry.ts): an `accepted` finding whose acceptance lapsed
 *   reopens, its risk decision cleared.
 *
 * Domain events, audit events and the findings version stay with the callers, which know why
 * the move happened.
 */

export type Mover = 'scan' | 'person' | 'timer';

const ANY = FINDING_STATUSES;

/** Who may move a finding from which status to which. */
export const ALLOWED_MOVES: Readonly<
  Record<Mover, Readonly<Partial<Record<FindingStatus, readonly FindingStatus[]>>>>
> = {
  scan: { resolved: ['open'], open: ['resolved'], in_progress: ['resolved'] },
  person: Object.fromEntries(ANY.map((from) => [from, ANY])),
  timer: { accepted: ['open'] },
};

export function mayMove(mover: Mover, from: FindingStatus, to: FindingStatus): boolean {
  return ALLOWED_MOVES[mover][from]?.includes(to) ?? false;
}

/** A finding as its mover locked it: its id and the status it has. */
export interface LockedFinding {
  id: string;
  status: FindingStatus;
}

function assertMoves(mover: Mover, findings: readonly LockedFinding[], to: FindingStatus): void {
  for (const f of findings) {
    if (!mayMove(mover, f.status, to)) {
      throw new Error(`finding ${f.id}: a ${mover} may not move it from ${f.status} to ${to}`);
    }
  }
}

const CHUNK = 500;

async function moveAndRecord(
  trx: Db,
  orgId: string,
  mover: Mover,
  findings: readonly LockedFinding[],
  to: FindingStatus,
  now: Date,
  extra: { acceptance?: Partial<AcceptanceColumns> } = {},
): Promise<void> {
  assertMoves(mover, findings, to);
  for (let i = 0; i < findings.length; i += CHUNK) {
    const batch = findings.slice(i, i + CHUNK);
    await writeFindingStatus(
      trx,
      orgId,
      batch.map((f) => f.id),
      { status: to, now, ...extra },
    );
    await insertHistoryRows(
      trx,
      orgId,
      batch.map((f) => statusChange(orgId, f.id, f.status, to, SYSTEM_ACTOR, now)),
    );
  }
}

/** A scan sighted these `resolved` findings again: `open`, by `system`. */
export function reopenSighted(
  trx: Db,
  orgId: string,
  findings: readonly LockedFinding[],
  now: Date,
): Promise<void> {
  return moveAndRecord(trx, orgId, 'scan', findings, 'open', now);
}

/** A completed scan covered these `open` or `in_progress` findings and no longer detects them: `resolved`, by `system`. */
export function resolveUndetected(
  trx: Db,
  orgId: string,
  findings: readonly LockedFinding[],
  now: Date,
): Promise<void> {
  return moveAndRecord(trx, orgId, 'scan', findings, 'resolved', now);
}

const NO_DECISION: AcceptanceColumns = {
  justification: null,
  justified_by: null,
  justified_at: null,
  acceptance_expires_at: null,
};

/** The acceptance of these `accepted` findings lapsed: `open`, the risk decision cleared, by `system`. */
export function reopenLapsed(trx: Db, orgId: string, ids: readonly string[], now: Date): Promise<void> {
  return moveAndRecord(
    trx,
    orgId,
    'timer',
    ids.map((id) => ({ id, status: 'accepted' as const })),
    'open',
    now,
    { acceptance: NO_DECISION },
  );
}

/** A person's change of status of findings they locked, with the risk decision the change records. */
export interface PersonChange {
  /** The acting person's e-mail (for an API key, its creator's; for a tracker, the integration). */
  by: string;
  status: FindingStatus;
  /**
   * The risk decision (findings/triage.ts `acceptanceOf`): set for a move to `accepted` or
   * `false_positive`, cleared for a move to any other status.
   */
  acceptance: Partial<AcceptanceColumns>;
  /** The history entry's justification and note. */
  justification: string | null;
  note: string | null;
  now: Date;
}

/**
 * Moves the findings a person changed: those in another status take the new one (and its
 * `resolved_at`) with a history entry by the person; those already in it keep their status
 * and get the risk decision again (a new justification or expiry). `notes` writes the
 * finding's note with the move (undefined leaves it): `moving` for the findings that change
 * status, `staying` for the others. Answers the findings that changed status.
 */
export async function movePersonally(
  trx: Db,
  orgId: string,
  findings: readonly LockedFinding[],
  change: PersonChange,
  notes: { moving?: string | null | undefined; staying?: string | null | undefined; restate?: boolean } = {},
): Promise<LockedFinding[]> {
  const { status, acceptance, now } = change;
  const moving = findings.filter((f) => f.status !== status);
  const staying = findings.filter((f) => f.status === status);
  assertMoves('person', moving, status);
  if (staying.length > 0) {
    // Restating the status (a bulk change) writes it and its resolved_at again; else only the decision.
    await writeFindingStatus(
      trx,
      orgId,
      staying.map((f) => f.id),
      { ...(notes.restate ? { status } : {}), acceptance, notes: notes.staying, now },
    );
  }
  if (moving.length > 0) {
    await writeFindingStatus(
      trx,
      orgId,
      moving.map((f) => f.id),
      { status, acceptance, notes: notes.moving, now },
    );
    await insertHistoryRows(
      trx,
      orgId,
      moving.map((f) =>
        statusChange(orgId, f.id, f.status, status, change.by, now, change.justification, change.note),
      ),
    );
  }
  return moving;
}
