import type { Knex } from 'knex';
import type { Plan } from '../schemas/common.ts';
import { newId } from './ids.ts';
import type { OrganizationRow } from './plans.ts';

export async function createOrganization(
  db: Knex,
  input: { name: string; plan: Plan },
): Promise<OrganizationRow> {
  const [row] = (await db('organizations')
    .insert({ id: newId('org'), name: input.name, plan: input.plan })
    .returning('*')) as OrganizationRow[];
  return row!;
}

export async function findOrganization(db: Knex, id: string): Promise<OrganizationRow | undefined> {
  return (await db('organizations').where({ id }).first()) as OrganizationRow | undefined;
}

/** Every organization, oldest first (operator command line). */
export async function listOrganizations(db: Knex): Promise<OrganizationRow[]> {
  return (await db('organizations').orderBy([
    { column: 'created_at' },
    { column: 'id' },
  ])) as OrganizationRow[];
}

export async function setPlan(db: Knex, id: string, plan: Plan): Promise<OrganizationRow | undefined> {
  const [row] = (await db('organizations')
    .where({ id })
    .update({ plan, updated_at: new Date() })
    .returning('*')) as OrganizationRow[];
  return row;
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
  db: Knex,
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
  const [row] = (await db('organizations')
    .where({ id })
    .update({ ...defined, updated_at: new Date() })
    .returning('*')) as OrganizationRow[];
  return row;
}
