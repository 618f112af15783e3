import type { Db } from '../db/index.ts';
import { recordAuditEvent, type AuditPerson } from '../identity/audit.ts';
import type { SlaPolicy, SlaPolicyChange } from '../schemas/settings.ts';
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

export const DEFAULT_SLA: SlaPolicy = {
  critical: 7,
  high: 30,
  medium: 90,
  low: 180,
  require_justification: false,
};

export async function slaPolicyOf(db: Db, orgId: string): Promise<SlaPolicy> {
  const row = await findSlaPolicy(db, orgId);
  if (!row) return DEFAULT_SLA;
  return {
    critical: row.critical_days,
    high: row.high_days,
    medium: row.medium_days,
    low: row.low_days,
    require_justification: row.require_justification,
  };
}

/** Whether the organization requires a justification for `accepted` and `false_positive` (default: no). */
export async function requiresJustification(db: Db, orgId: string): Promise<boolean> {
  return (await findSlaPolicy(db, orgId))?.require_justification ?? false;
}

/** What a policy change did: the policy now in force, and how many open findings' due dates moved when asked. */
export interface SlaPolicyChanged extends SlaPolicy {
  open_findings_updated?: number;
}

function daysOf(policy: Pick<SlaPolicy, 'critical' | 'high' | 'medium' | 'low'>): SlaDays {
  return {
    critical_days: policy.critical,
    high_days: policy.high,
    medium_days: policy.medium,
    low_days: policy.low,
  };
}

/**
 * Replaces the organization's days (and the justification switch, when the change names it) and
 * records `settings.sla_changed` with each field that changed, `before → after`, in the same
 * transaction; a change that changes nothing records nothing. With `apply_to_open`, the open and
 * in-progress findings get the new policy's due date in the same transaction, except those whose
 * date a person set (`due_date_by_person`).
 */
export async function setSlaPolicy(
  db: Db,
  orgId: string,
  change: SlaPolicyChange,
  actor: AuditPerson,
  now = new Date(),
): Promise<SlaPolicyChanged> {
  return db.transaction(async (trx) => {
    const before = await slaPolicyOf(trx, orgId);
    await saveSlaPolicy(trx, orgId, {
      ...daysOf(change),
      ...(change.require_justification === undefined
        ? {}
        : { require_justification: change.require_justification }),
      updated_by: actor.email,
      updated_at: now,
    });
    const after = await slaPolicyOf(trx, orgId);
    const details: Record<string, string> = {};
    for (const key of Object.keys(after) as (keyof SlaPolicy)[]) {
      if (before[key] !== after[key]) details[key] = `${String(before[key])} → ${String(after[key])}`;
    }
    if (Object.keys(details).length > 0) {
      await recordAuditEvent(trx, { orgId, action: 'settings.sla_changed', actor, details }, now);
    }
    if (!change.apply_to_open) return after;
    const moved = await recomputeOpenDueDates(trx, orgId, daysOf(after), now);
    if (moved > 0) await bumpFindingsVersion(trx, orgId);
    return { ...after, open_findings_updated: moved };
  });
}

const DAY_MS = 86_400_000;

/** The due date of a finding of this severity detected at `detectedAt`; null for informational ones. */
export function dueDateFor(policy: SlaPolicy, severity: Severity, detectedAt: Date): Date | null {
  if (severity === 'info') return null;
  return new Date(detectedAt.getTime() + policy[severity] * DAY_MS);
}
