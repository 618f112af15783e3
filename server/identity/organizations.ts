import type { Db } from '../db/index.ts';
import type { Plan } from '../schemas/common.ts';
import { newId } from './ids.ts';
import { insertOrganization, updateOrganization, type OrganizationRow } from './organizations.repository.ts';

export async function createOrganization(
  db: Db,
  input: { name: string; plan: Plan },
): Promise<OrganizationRow> {
  return insertOrganization(db, { id: newId('org'), name: input.name, plan: input.plan });
}

export async function setPlan(db: Db, id: string, plan: Plan): Promise<OrganizationRow | undefined> {
  return updateOrganization(db, id, { plan, updated_at: new Date() });
}

/** A number overrides the plan's default (-1 = unlimited); null returns to the default; undefined leaves it. */
export interface LimitOverrides {
  hourly?: number | null;
  daily?: number | null;
  scansPerMonth?: number | null;
  concurrent?: number | null;
  aiCredits?: number | null;
}

/** Per-organization limits over the plan's defaults; -1 = unlimited. */
export async function setLimits(
  db: Db,
  id: string,
  limits: LimitOverrides,
): Promise<OrganizationRow | undefined> {
  const changes = {
    hourly_request_limit: limits.hourly,
    daily_request_limit: limits.daily,
    monthly_scan_limit: limits.scansPerMonth,
    concurrent_scan_limit: limits.concurrent,
    monthly_ai_credits: limits.aiCredits,
  };
  const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  return updateOrganization(db, id, { ...defined, updated_at: new Date() });
}
