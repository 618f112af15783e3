import type { Db } from '../db/index.ts';
import type { SlaPolicy } from '../schemas/settings.ts';
import type { Severity } from '../scoring/severity.ts';
import { bumpFindingsVersion } from './finding-versions.repository.ts';
import {
  findSlaPolicy,
  recomputeOpenDueDates,
  saveSlaPolicy,
  type SlaDays,
} from './sla-policies.repository.ts';

/**
 * Due dates by severity (docs/finding-lifecycle.md, "Due dates and SLAs"): a new
 * finding's `due_date` is its detection time plus the organization's days for its
 * severity (informational findings get none); a person's `due_date` replaces it. A
 * policy change may be applied to the open findings (`setSlaPolicy`, `applyToOpen`).
 */

export const DEFAULT_SLA: SlaPolicy = { critical: 7, high: 30, medium: 90, low: 180 };

export async function slaPolicyOf(db: Db, orgId: string): Promise<SlaPolicy> {
  const row = await findSlaPolicy(db, orgId);
  if (!row) return DEFAULT_SLA;
  return { critical: row.critical_days, high: row.high_days, medium: row.medium_days, low: row.low_days };
}

/** What a policy change did: the policy now in force, and how many open findings' due dates moved when asked. */
export interface SlaPolicyChanged extends SlaPolicy {
  open_findings_updated?: number;
}

function daysOf(policy: SlaPolicy): SlaDays {
  return {
    critical_days: policy.critical,
    high_days: policy.high,
    medium_days: policy.medium,
    low_days: policy.low,
  };
}

/**
 * Replaces the organization's policy. With `applyToOpen`, the open and in-progress
 * findings get the new policy's due date in the same transaction, except those whose
 * date a person set (`due_date_by_person`).
 */
export async function setSlaPolicy(
  db: Db,
  orgId: string,
  policy: SlaPolicy,
  by: string,
  now = new Date(),
  applyToOpen = false,
): Promise<SlaPolicyChanged> {
  return db.transaction(async (trx) => {
    await saveSlaPolicy(trx, orgId, { ...daysOf(policy), updated_by: by, updated_at: now });
    const saved = await slaPolicyOf(trx, orgId);
    if (!applyToOpen) return saved;
    const moved = await recomputeOpenDueDates(trx, orgId, daysOf(saved), now);
    if (moved > 0) await bumpFindingsVersion(trx, orgId);
    return { ...saved, open_findings_updated: moved };
  });
}

const DAY_MS = 86_400_000;

/** The due date of a finding of this severity detected at `detectedAt`; null for informational ones. */
export function dueDateFor(policy: SlaPolicy, severity: Severity, detectedAt: Date): Date | null {
  if (severity === 'info') return null;
  return new Date(detectedAt.getTime() + policy[severity] * DAY_MS);
}
