import { newId } from '../identity/ids.ts';
import type { FindingStatus } from '../schemas/findings.ts';
import type { HistoryRow } from './rows.ts';

/** A `status_changed` history row, ready to insert (batch-friendly: no query here). */
export function statusChange(
  orgId: string,
  findingId: string,
  from: FindingStatus | null,
  to: FindingStatus,
  actor: string,
  at: Date,
  justification: string | null = null,
  note: string | null = null,
): HistoryRow {
  return {
    id: newId('hist'),
    org_id: orgId,
    finding_id: findingId,
    action: 'status_changed',
    from_status: from,
    to_status: to,
    actor,
    justification,
    note,
    created_at: at,
  };
}

/**
 * A `note_added` history row: a note given without a change of status (`from` and `to` are
 * the status it stays in).
 */
export function noteAdded(
  orgId: string,
  findingId: string,
  status: FindingStatus,
  actor: string,
  at: Date,
  note: string,
): HistoryRow {
  return {
    id: newId('hist'),
    org_id: orgId,
    finding_id: findingId,
    action: 'note_added',
    from_status: status,
    to_status: status,
    actor,
    justification: null,
    note,
    created_at: at,
  };
}

/**
 * `resolved_at` after a status change: set when a finding becomes resolved
 * (kept when it already was), cleared when it leaves resolved. Statistics use it
 * for resolution times, so it only ever describes the current resolution.
 */
export function resolvedAtAfter(
  from: FindingStatus,
  to: FindingStatus,
  current: Date | null,
  now: Date,
): Date | null {
  if (to !== 'resolved') return null;
  return from === 'resolved' ? (current ?? now) : now;
}
