import type { Db } from '../db/index.ts';
import { appendEvent, appendEvents } from '../events/outbox.ts';
import { AppError, notFound } from '../errors.ts';
import { recordAuditEvents, type AuditRecord } from '../identity/audit.ts';
import { newId } from '../identity/ids.ts';
import { JUSTIFIED_STATUSES } from '../schemas/findings.ts';
import type {
  BulkUpdateBody,
  BulkUpdateResult,
  CreatedComment,
  FindingStatus,
  UpdatedFinding,
  UpdateFindingBody,
} from '../schemas/findings.ts';
import { noteAdded } from './history.ts';
import { insertComment } from './finding-comments.repository.ts';
import { insertHistoryRows } from './finding-history.repository.ts';
import {
  findingExists,
  lockFindingForTriage,
  lockFindingsForTriage,
  updateFindingTriage,
  type TriageFields,
  type TriagedRow,
} from './findings-triage.repository.ts';
import type { AcceptanceColumns } from './findings-status.repository.ts';
import type { CommentRow } from './rows.ts';
import { movePersonally } from './transitions.ts';
import { bumpFindingsVersion } from './finding-versions.repository.ts';
import { requiresJustification } from './sla.ts';

/**
 * What people do to findings: change status and triage fields, comment, and
 * change many at once. A change of status or risk decision is a person's move
 * (findings/transitions.ts: any status may follow any other), with a history
 * entry naming the acting user's e-mail (for an API key, its creator's). Every change appends `finding.updated` to the domain-event outbox, and
 * every risk acceptance given or revoked is an audit event (docs/security.md).
 */

export interface Actor {
  orgId: string;
  userId: string;
  email: string;
}

export async function updateFinding(
  db: Db,
  actor: Actor,
  findingId: string,
  change: UpdateFindingBody,
  now = new Date(),
): Promise<UpdatedFinding> {
  return db.transaction(async (trx) => {
    const current = await lockFindingForTriage(trx, actor.orgId, findingId);
    if (!current) throw notFound('finding');
    await assertJustified(trx, actor.orgId, change);
    const justification = justificationOf(change);

    const acceptance = acceptanceOf(change, actor, now);
    const values: TriageFields = { updated_at: now };
    if (change.assignee !== undefined) values.assignee = change.assignee;
    if (change.priority !== undefined) values.priority = change.priority;
    if (change.due_date !== undefined) {
      values.due_date = change.due_date ? new Date(change.due_date) : null;
      values.due_date_by_person = true; // an SLA change applied to open findings leaves it (sla.ts)
    }
    if (change.notes !== undefined) values.notes = change.notes;
    const moved =
      change.status === undefined
        ? []
        : await movePersonally(trx, actor.orgId, [current], {
            by: actor.email,
            status: change.status,
            acceptance,
            justification: justification ?? null,
            note: change.notes ?? null,
            now,
          });
    if (moved.length > 0) {
      // The finding's note is its latest change's: a change without one leaves none behind.
      if (change.notes === undefined) values.notes = null;
      await bumpFindingsVersion(trx, actor.orgId);
    } else if (typeof change.notes === 'string') {
      await insertHistoryRows(trx, actor.orgId, [
        noteAdded(actor.orgId, findingId, current.status, actor.email, now, change.notes),
      ]);
    }
    const row = await updateFindingTriage(trx, actor.orgId, findingId, values);
    if (!row) throw notFound('finding');
    const updated = presentTriaged(row);
    await recordAuditEvents(trx, riskAudit(actor, [current], change, justification), now);
    await appendEvent(
      trx,
      actor.orgId,
      {
        type: 'finding.updated',
        subjectId: findingId,
        data: { ...updated, previous_status: current.status, by: actor.email },
      },
      now,
    );
    return updated;
  });
}

type AcceptanceValues = AcceptanceColumns;

/**
 * The risk decision a status change records (docs/finding-lifecycle.md, "Accepting a
 * risk"): a move to `accepted` or `false_positive` keeps its justification (see
 * `justificationOf`; null when none was given), who gave it and when, and for `accepted`
 * its expiry, which must lie in the future; a move to any other status clears them (the
 * history keeps every justification). No status in the change: nothing to record.
 */
function acceptanceOf(
  change: TriageChange,
  actor: Actor,
  now: Date,
): AcceptanceValues | Record<string, never> {
  if (change.status === undefined) return {};
  if (!(JUSTIFIED_STATUSES as readonly string[]).includes(change.status)) {
    return { justification: null, justified_by: null, justified_at: null, acceptance_expires_at: null };
  }
  const expires = change.expires_at === undefined ? null : new Date(change.expires_at);
  if (expires && expires.getTime() <= now.getTime()) {
    throw new AppError(422, 'VALIDATION_ERROR', 'expires_at: must be in the future', 'expires_at');
  }
  return {
    justification: justificationOf(change) ?? null,
    justified_by: actor.email,
    justified_at: now,
    acceptance_expires_at: expires,
  };
}

/** What of a finding update or bulk update decides its risk decision. */
interface TriageChange {
  status?: FindingStatus | undefined;
  justification?: string | undefined;
  notes?: string | null | undefined;
  expires_at?: string | undefined;
}

const isJustified = (status: FindingStatus | undefined): boolean =>
  (JUSTIFIED_STATUSES as readonly string[]).includes(status ?? '');

/**
 * The justification a move to `accepted` or `false_positive` records: `justification`, or
 * when it is absent the change's `notes` (trimmed; a blank note is none), as the interface
 * spec's requests send it (`{"status": "accepted", "notes": "risk accepted"}`). Undefined for
 * other changes and for one with neither.
 */
function justificationOf(change: TriageChange): string | undefined {
  if (!isJustified(change.status)) return undefined;
  if (change.justification !== undefined) return change.justification;
  const note = change.notes?.trim();
  return note ? note : undefined;
}

/**
 * A justification is optional unless the organization's triage policy requires one
 * (`require_justification`, Settings → Triage policy): then a move to `accepted` or
 * `false_positive` without `justification` or `notes` is 422 naming `justification`.
 */
async function assertJustified(
  db: Db,
  orgId: string,
  change: TriageChange,
  field = 'justification',
): Promise<void> {
  if (!isJustified(change.status) || justificationOf(change) !== undefined) return;
  if (!(await requiresJustification(db, orgId))) return;
  throw new AppError(
    422,
    'VALIDATION_ERROR',
    `${field}: is required when status is ${change.status} (this organization's triage policy requires one)`,
    field,
  );
}

/**
 * The audit events of a change of findings' risk decision: `risk.accepted` for each finding
 * the change sets `accepted` (again: a new justification or expiry), `risk.acceptance_revoked`
 * for each it moves out of `accepted`. The details say from which status, the justification
 * and the expiry (or to which status).
 */
function riskAudit(
  actor: Actor,
  findings: readonly { id: string; status: FindingStatus }[],
  change: TriageChange,
  justification: string | undefined,
): AuditRecord[] {
  if (change.status === undefined) return [];
  const by = { id: actor.userId, email: actor.email };
  const events: AuditRecord[] = [];
  for (const finding of findings) {
    const target = { id: finding.id, email: null };
    if (change.status === 'accepted') {
      events.push({
        orgId: actor.orgId,
        action: 'risk.accepted',
        actor: by,
        target,
        details: {
          from: finding.status,
          justification: justification ?? '',
          expires_at: change.expires_at === undefined ? 'never' : new Date(change.expires_at).toISOString(),
        },
      });
    } else if (finding.status === 'accepted') {
      events.push({
        orgId: actor.orgId,
        action: 'risk.acceptance_revoked',
        actor: by,
        target,
        details: { to: change.status },
      });
    }
  }
  return events;
}

/** The answer of PATCH /findings/{id}: the triage fields after the change. */
function presentTriaged(row: TriagedRow): UpdatedFinding {
  return {
    id: row.id,
    status: row.status,
    assignee: row.assignee,
    priority: row.priority,
    due_date: row.due_date ? row.due_date.toISOString() : null,
    notes: row.notes,
    justification: row.justification,
    justified_by: row.justified_by,
    justified_at: row.justified_at ? row.justified_at.toISOString() : null,
    acceptance_expires_at: row.acceptance_expires_at ? row.acceptance_expires_at.toISOString() : null,
    updated_at: row.updated_at.toISOString(),
  };
}

export async function addComment(
  db: Db,
  actor: Actor,
  findingId: string,
  text: string,
  now = new Date(),
): Promise<CreatedComment> {
  return db.transaction(async (trx) => {
    if (!(await findingExists(trx, actor.orgId, findingId))) throw notFound('finding');
    const row: CommentRow = {
      id: newId('comment'),
      org_id: actor.orgId,
      finding_id: findingId,
      user_id: actor.userId,
      user_email: actor.email,
      text,
      created_at: now,
    };
    await insertComment(trx, actor.orgId, row);
    return {
      id: row.id,
      finding_id: findingId,
      user: row.user_email,
      text: row.text,
      created_at: now.toISOString(),
    };
  });
}

/**
 * Sets one status (and optionally notes) on many findings in one transaction.
 * Ids that do not exist in the caller's organization, including other
 * organizations' ids, are reported as NOT_FOUND failures and change nothing;
 * the others are all updated or, on an error, none are.
 */
export async function bulkUpdateStatus(
  db: Db,
  actor: Actor,
  request: BulkUpdateBody,
  now = new Date(),
): Promise<BulkUpdateResult> {
  const ids = [...new Set(request.finding_ids)];
  const { status, notes } = request.update;
  const justification = justificationOf(request.update);
  const acceptance = acceptanceOf(request.update, actor, now) as AcceptanceValues;
  return db.transaction(async (trx) => {
    await assertJustified(trx, actor.orgId, request.update, 'update.justification');
    const found = await lockFindingsForTriage(trx, actor.orgId, ids);
    const existing = new Set(found.map((f) => f.id));
    const failed = ids
      .filter((id) => !existing.has(id))
      .map((id) => ({ id, error_code: 'NOT_FOUND', detail: 'finding not found' }));
    if (found.length === 0) return { updated: 0, failed };

    // A note without a change of status is a note in the history. Findings already in the
    // target status keep their resolved_at; the others get the one their new status implies. A
    // finding's note is its latest change's: the ones changing status without a note keep none.
    if (notes !== undefined) {
      await insertHistoryRows(
        trx,
        actor.orgId,
        found
          .filter((f) => f.status === status)
          .map((f) => noteAdded(actor.orgId, f.id, f.status, actor.email, now, notes)),
      );
    }
    const changing = await movePersonally(
      trx,
      actor.orgId,
      found,
      {
        by: actor.email,
        status,
        acceptance,
        justification: justification ?? null,
        note: notes ?? null,
        now,
      },
      { moving: notes ?? null, staying: notes, restate: true },
    );
    if (changing.length > 0) await bumpFindingsVersion(trx, actor.orgId);
    await recordAuditEvents(trx, riskAudit(actor, found, request.update, justification), now);
    await appendEvents(
      trx,
      actor.orgId,
      found.map((f) => ({
        type: 'finding.updated' as const,
        subjectId: f.id,
        data: { id: f.id, status, previous_status: f.status, by: actor.email, updated_at: now.toISOString() },
      })),
      now,
    );
    return { updated: found.length, failed };
  });
}
