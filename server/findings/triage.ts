import type { Knex } from 'knex';
import { notFound } from '../http/errors.ts';
import { newId } from '../identity/ids.ts';
import type {
  BulkUpdateBody,
  BulkUpdateResult,
  Comment,
  FindingPriority,
  FindingStatus,
  UpdateFindingBody,
} from '../schemas/findings.ts';
import { resolvedAtAfter, statusChange } from './history.ts';
import type { CommentRow, FindingRow } from './rows.ts';
import { bumpFindingsVersion } from './versions.ts';

/**
 * What people do to findings: change status and triage fields, comment, and
 * change many at once. Any status may follow any other; every change of status
 * writes a history entry naming the acting user's e-mail (for an API key, its
 * creator's).
 */

export interface Actor {
  orgId: string;
  userId: string;
  email: string;
}

export interface UpdatedFinding {
  id: string;
  status: FindingStatus;
  assignee: string | null;
  priority: FindingPriority | null;
  due_date: string | null;
  notes: string | null;
  updated_at: string;
}

type Locked = Pick<FindingRow, 'id' | 'status' | 'resolved_at'>;

export async function updateFinding(
  db: Knex,
  actor: Actor,
  findingId: string,
  change: UpdateFindingBody,
  now = new Date(),
): Promise<UpdatedFinding> {
  return db.transaction(async (trx) => {
    const current = (await trx('findings')
      .where({ org_id: actor.orgId, id: findingId })
      .forUpdate()
      .first('id', 'status', 'resolved_at')) as Locked | undefined;
    if (!current) throw notFound('finding');

    const values: Partial<FindingRow> = { updated_at: now };
    if (change.assignee !== undefined) values.assignee = change.assignee;
    if (change.priority !== undefined) values.priority = change.priority;
    if (change.due_date !== undefined) values.due_date = change.due_date ? new Date(change.due_date) : null;
    if (change.notes !== undefined) values.notes = change.notes;
    if (change.status !== undefined && change.status !== current.status) {
      values.status = change.status;
      values.resolved_at = resolvedAtAfter(current.status, change.status, current.resolved_at, now);
      await trx('finding_history').insert(
        statusChange(actor.orgId, findingId, current.status, change.status, actor.email, now),
      );
      await bumpFindingsVersion(trx, actor.orgId);
    }
    const [row] = (await trx('findings')
      .where({ org_id: actor.orgId, id: findingId })
      .update(values)
      .returning(['id', 'status', 'assignee', 'priority', 'due_date', 'notes', 'updated_at'])) as Pick<
      FindingRow,
      'id' | 'status' | 'assignee' | 'priority' | 'due_date' | 'notes' | 'updated_at'
    >[];
    return {
      id: row!.id,
      status: row!.status,
      assignee: row!.assignee,
      priority: row!.priority,
      due_date: row!.due_date ? row!.due_date.toISOString() : null,
      notes: row!.notes,
      updated_at: row!.updated_at.toISOString(),
    };
  });
}

export async function addComment(
  db: Knex,
  actor: Actor,
  findingId: string,
  text: string,
  now = new Date(),
): Promise<Comment & { finding_id: string }> {
  return db.transaction(async (trx) => {
    const finding = await trx('findings').where({ org_id: actor.orgId, id: findingId }).first('id');
    if (!finding) throw notFound('finding');
    const row: CommentRow = {
      id: newId('comment'),
      org_id: actor.orgId,
      finding_id: findingId,
      user_id: actor.userId,
      user_email: actor.email,
      text,
      created_at: now,
    };
    await trx('finding_comments').insert(row);
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
  db: Knex,
  actor: Actor,
  request: BulkUpdateBody,
  now = new Date(),
): Promise<BulkUpdateResult> {
  const ids = [...new Set(request.finding_ids)];
  const { status, notes } = request.update;
  return db.transaction(async (trx) => {
    const found = (await trx('findings')
      .where('org_id', actor.orgId)
      .whereIn('id', ids)
      .orderBy('id')
      .forUpdate()
      .select('id', 'status', 'resolved_at')) as Locked[];
    const existing = new Set(found.map((f) => f.id));
    const failed = ids
      .filter((id) => !existing.has(id))
      .map((id) => ({ id, error_code: 'NOT_FOUND', detail: 'finding not found' }));
    if (found.length === 0) return { updated: 0, failed };

    const changing = found.filter((f) => f.status !== status);
    if (changing.length > 0) {
      await trx('finding_history').insert(
        changing.map((f) => statusChange(actor.orgId, f.id, f.status, status, actor.email, now)),
      );
    }
    // Findings already in the target status keep their resolved_at; the others
    // get the one their new status implies (resolvedAtAfter, in SQL).
    await trx('findings')
      .where('org_id', actor.orgId)
      .whereIn('id', [...existing])
      .update({
        status,
        updated_at: now,
        resolved_at:
          status === 'resolved'
            ? trx.raw("case when status = 'resolved' then coalesce(resolved_at, ?) else ? end", [now, now])
            : null,
        ...(notes !== undefined ? { notes } : {}),
      });
    if (changing.length > 0) await bumpFindingsVersion(trx, actor.orgId);
    return { updated: found.length, failed };
  });
}
