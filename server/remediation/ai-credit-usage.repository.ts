import type { Knex } from 'knex';
import type { Db } from '../db/index.ts';

/**
 * The `ai_credit_usage` table: AI credits spent per organization and UTC month.
 * Every query is scoped by organization.
 */

export interface AiCreditUsageRow {
  org_id: string;
  /** The first day of the UTC month, `YYYY-MM-DD` (a `date` column, only ever compared). */
  month: string;
  credits: number;
}

/** An update; `credits` may be an expression of the column. */
type CreditChanges = { credits?: number | Knex.Raw };

declare module 'knex/types/tables.js' {
  interface Tables {
    ai_credit_usage: Knex.CompositeTableType<AiCreditUsageRow, AiCreditUsageRow, CreditChanges>;
  }
}

/**
 * Adds `amount` to the month's credits in one conditional upsert: the row is created or
 * incremented only while the total stays within `allowance` (-1 = unlimited), so
 * concurrent requests in any number of processes never spend more. Answers whether the
 * credits were added.
 */
export async function addCreditsWithinAllowance(
  db: Db,
  orgId: string,
  month: string,
  amount: number,
  allowance: number,
): Promise<boolean> {
  const unlimited = allowance < 0;
  const rows = await db('ai_credit_usage')
    .insert({ org_id: orgId, month, credits: amount })
    .onConflict(['org_id', 'month'])
    .merge({ credits: db.raw('ai_credit_usage.credits + excluded.credits') })
    .modify((q) => {
      // The update happens only while the new total stays within the allowance.
      if (!unlimited) void q.where(db.raw('ai_credit_usage.credits + excluded.credits'), '<=', allowance);
    })
    .returning('credits');
  return rows.length > 0;
}

/** Takes `amount` off the month's credits, never below zero. */
export async function subtractCredits(db: Db, orgId: string, month: string, amount: number): Promise<void> {
  await db('ai_credit_usage')
    .where({ org_id: orgId, month })
    .update({ credits: db.raw('greatest(credits - ?, 0)', [amount]) });
}

/** Credits the organization spent in the month (0 when none). */
export async function findCreditsUsed(db: Db, orgId: string, month: string): Promise<number> {
  const row = await db('ai_credit_usage').where({ org_id: orgId, month }).first('credits');
  return row?.credits ?? 0;
}
