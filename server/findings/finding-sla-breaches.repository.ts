import type { Knex } from 'knex';
import type { Db } from '../db/index.ts';

/**
 * The `finding_sla_breaches` table: the due dates already announced as `sla.breached`, one
 * row per finding and due date (a new due date can be missed again). The timer's look-up
 * serves every organization; the insert is scoped by organization.
 */

export interface SlaBreachRow {
  org_id: string;
  finding_id: string;
  due_date: Date;
  created_at: Date;
}

declare module 'knex/types/tables.js' {
  interface Tables {
    finding_sla_breaches: Knex.CompositeTableType<SlaBreachRow, SlaBreachRow, Partial<SlaBreachRow>>;
  }
}

export interface BreachedFinding {
  id: string;
  org_id: string;
  due_date: Date;
}

/**
 * Locks up to `limit` open or in-progress findings of any organization past their due date at
 * `now` whose due date was not announced yet, longest overdue first, skipping those another
 * process holds.
 */
export async function lockNewlyBreachedFindingsOfAnyOrganization(
  trx: Db,
  now: Date,
  limit: number,
): Promise<BreachedFinding[]> {
  return trx('findings as f')
    .whereIn('f.status', ['open', 'in_progress'])
    .whereNotNull('f.due_date')
    .where('f.due_date', '<', now)
    .whereNotExists((q) =>
      q.from('finding_sla_breaches as b').whereRaw('b.finding_id = f.id').whereRaw('b.due_date = f.due_date'),
    )
    .orderBy([{ column: 'f.due_date' }, { column: 'f.id' }])
    .limit(limit)
    .forUpdate('f')
    .skipLocked()
    .select<BreachedFinding[]>('f.id', 'f.org_id', 'f.due_date');
}

export async function insertSlaBreaches(db: Db, orgId: string, rows: readonly SlaBreachRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db('finding_sla_breaches')
    .insert(rows.map((r) => ({ ...r, org_id: orgId })))
    .onConflict(['finding_id', 'due_date'])
    .ignore();
}
