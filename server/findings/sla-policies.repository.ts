import type { Knex } from 'knex';
import type { Db } from '../db/index.ts';

/** The `sla_policies` table: an organization's days to the due date by severity (none: the defaults). */

export interface SlaPolicyRow {
  org_id: string;
  critical_days: number;
  high_days: number;
  medium_days: number;
  low_days: number;
  /** Whether `accepted` and `false_positive` need a justification (docs/finding-lifecycle.md). */
  require_justification: boolean;
  updated_by: string | null;
  updated_at: Date;
}

/** A row to write: the justification switch keeps its stored value (or the default, off) when absent. */
export type NewSlaPolicyRow = Omit<SlaPolicyRow, 'require_justification'> & {
  require_justification?: boolean;
};

declare module 'knex/types/tables.js' {
  interface Tables {
    sla_policies: Knex.CompositeTableType<SlaPolicyRow, NewSlaPolicyRow, Partial<SlaPolicyRow>>;
  }
}

export async function findSlaPolicy(db: Db, orgId: string): Promise<SlaPolicyRow | undefined> {
  return db('sla_policies').where({ org_id: orgId }).first();
}

/** Writes the organization's policy, replacing any earlier one. */
export async function saveSlaPolicy(
  db: Db,
  orgId: string,
  row: Omit<NewSlaPolicyRow, 'org_id'>,
): Promise<SlaPolicyRow> {
  const [saved] = await db('sla_policies')
    .insert({ ...row, org_id: orgId })
    .onConflict('org_id')
    .merge()
    .returning('*');
  return saved!;
}

/** Days to the due date by severity, as stored in `sla_policies`. */
export type SlaDays = Pick<SlaPolicyRow, 'critical_days' | 'high_days' | 'medium_days' | 'low_days'>;

/** `detected_at` plus the days of `days` for the finding's severity (24-hour days: no calendar or DST shift). */
function dueDateSql(db: Db, days: SlaDays): Knex.Raw {
  return db.raw(
    `findings.detected_at + interval '1 hour' * 24 * (case findings.severity
       when 'critical' then ?::int when 'high' then ?::int when 'medium' then ?::int else ?::int end)`,
    [days.critical_days, days.high_days, days.medium_days, days.low_days],
  );
}

/**
 * Moves the due date of the organization's open and in-progress findings (informational
 * ones have none) to detection plus `days` for their severity, unless a person set the date
 * (`due_date_by_person`). Answers how many moved.
 */
export async function recomputeOpenDueDates(
  db: Db,
  orgId: string,
  days: SlaDays,
  now: Date,
): Promise<number> {
  return db('findings')
    .where('findings.org_id', orgId)
    .whereIn('findings.status', ['open', 'in_progress'])
    .whereIn('findings.severity', ['critical', 'high', 'medium', 'low'])
    .where('findings.due_date_by_person', false)
    .whereRaw('findings.due_date is distinct from ?', [dueDateSql(db, days)])
    .update({ due_date: dueDateSql(db, days) as unknown as Date, updated_at: now });
}
