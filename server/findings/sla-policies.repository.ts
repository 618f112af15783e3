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
