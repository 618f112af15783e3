import type { Db } from '../db/index.ts';
import { recordAuditEvent, type AuditPerson } from '../identity/audit.ts';
import type { SlaPolicy, SlaPolicyChange } from '../schemas/settings.ts';
import type { Severity } from '../scoring/severity.ts';
import { findSlaPolicy, saveSlaPolicy } from './sla-policies.repository.ts';

/**
 * Due dates by severity (docs/finding-lifecycle.md, "Due dates and SLAs"): a new
 * finding's `due_date` is its detection time plus the organization's days for its
 * severity (informational findings get none); a person's `due_date` replaces it.
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

/**
 * Replaces the organization's days (and the justification switch, when the change names it) and
 * records `settings.sla_changed` with each field that changed, `before → after`, in the same
 * transaction; a change that changes nothing records nothing.
 */
export async function setSlaPolicy(
  db: Db,
  orgId: string,
  change: SlaPolicyChange,
  actor: AuditPerson,
  now = new Date(),
): Promise<SlaPolicy> {
  return db.transaction(async (trx) => {
    const before = await slaPolicyOf(trx, orgId);
    await saveSlaPolicy(trx, orgId, {
      critical_days: change.critical,
      high_days: change.high,
      medium_days: change.medium,
      low_days: change.low,
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
    return after;
  });
}

const DAY_MS = 86_400_000;

/** The due date of a finding of this severity detected at `detectedAt`; null for informational ones. */
export function dueDateFor(policy: SlaPolicy, severity: Severity, detectedAt: Date): Date | null {
  if (severity === 'info') return null;
  return new Date(detectedAt.getTime() + policy[severity] * DAY_MS);
}
