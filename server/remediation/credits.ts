import type { Db } from '../db/index.ts';
import { AppError } from '../errors.ts';
import { addCreditsWithinAllowance, findCreditsUsed, subtractCredits } from './ai-credit-usage.repository.ts';

/**
 * Monthly AI credits per organization (table `ai_credit_usage`, one row per
 * organization and UTC month). A fresh analysis costs {@link ANALYSIS_COST}
 * credit; the allowance is the organization's `monthlyAiCredits` limit
 * (-1 = unlimited).
 *
 * Charging is one conditional upsert: the row is created or incremented only while
 * the month's total stays within the allowance, so concurrent requests in any
 * number of server processes never spend more than the allowance.
 */

export const ANALYSIS_COST = 1;

export const aiQuotaExceeded = () =>
  new AppError(403, 'AI_QUOTA_EXCEEDED', "the organization's AI credits for this month are used up");

/** The first day of the UTC month of `now`, as the `date` column stores it. */
export function creditMonth(now: Date = new Date()): string {
  return `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}-01`;
}

export interface Charge {
  month: string;
  amount: number;
}

/**
 * Spends `amount` credits of the organization's current month, or throws
 * AI_QUOTA_EXCEEDED when that would go over `allowance` (-1 = unlimited).
 */
export async function chargeAiCredits(
  db: Db,
  orgId: string,
  allowance: number,
  amount: number = ANALYSIS_COST,
  now: Date = new Date(),
): Promise<Charge> {
  const month = creditMonth(now);
  if (allowance >= 0 && amount > allowance) throw aiQuotaExceeded();
  if (!(await addCreditsWithinAllowance(db, orgId, month, amount, allowance))) throw aiQuotaExceeded();
  return { month, amount };
}

/** Gives back a charge whose analysis was not delivered as a fresh one. */
export async function refundAiCredits(db: Db, orgId: string, charge: Charge): Promise<void> {
  await subtractCredits(db, orgId, charge.month, charge.amount);
}

/** Credits the organization has spent in the current UTC month. */
export async function aiCreditsUsed(db: Db, orgId: string, now: Date = new Date()): Promise<number> {
  return findCreditsUsed(db, orgId, creditMonth(now));
}
