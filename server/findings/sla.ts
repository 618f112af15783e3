import type { Db } from '../db/index.ts';
import type { SlaPolicy } from '../schemas/settings.ts';
import type { Severity } from '../scoring/severity.ts';
import { findSlaPolicy, saveSlaPolicy } from './sla-policies.repository.ts';

/**
 * Due dates by severity (docs/finding-lifecycle.md, "Due dates and SLAs"): a new
 * finding's `due_date` is its detection time plus the organization's days for its
 * severity (informational findings get none); a person's `due_date` replaces it.
 */

export const DEFAULT_SLA: SlaPolicy = { critical: 7, high: 30, medium: 90, low: 180 };

export async function slaPolicyOf(db: Db, orgId: string): Promise<SlaPolicy> {
  const row = await findSlaPolicy(db, orgId);
  if (!row) return DEFAULT_SLA;
  return { critical: row.critical_days, high: row.high_days, medium: row.medium_days, low: row.low_days };
}

export async function setSlaPolicy(
  db: Db,
  orgId: string,
  policy: SlaPolicy,
  by: string,
  now = new Date(),
): Promise<SlaPolicy> {
  await saveSlaPolicy(db, orgId, {
    critical_days: policy.critical,
    high_days: policy.high,
    medium_days: policy.medium,
    low_days: policy.low,
    updated_by: by,
    updated_at: now,
  });
  return slaPolicyOf(db, orgId);
}

const DAY_MS = 86_400_000;

/** The due date of a finding of this severity detected at `detectedAt`; null for informational ones. */
export function dueDateFor(policy: SlaPolicy, severity: Severity, detectedAt: Date): Date | null {
  if (severity === 'info') return null;
  return new Date(detectedAt.getTime() + policy[severity] * DAY_MS);
}
