import type { Db } from '../db/index.ts';
import { createOrganization, setLimits, setPlan, type LimitOverrides } from '../identity/organizations.ts';
import { listOrganizations, type OrganizationRow } from '../identity/organizations.repository.ts';
import { effectiveLimits } from '../identity/plans.ts';
import { Plan } from '../schemas/common.ts';
import { CliError, usageError } from './errors.ts';

/* The parse functions check typed input before any database is opened; the commands do the work. */

/** Limits by the names of their command-line flags; -1 = unlimited. */
export interface LimitsView {
  hourly: number;
  daily: number;
  scans_per_month: number;
  concurrent: number;
  ai_credits: number;
}

/** An organization as the command line prints it with --json. */
export interface OrganizationView {
  id: string;
  name: string;
  plan: Plan;
  /** The limits in force: the overrides over the plan's defaults. */
  limits: LimitsView;
  /** Only the limits set for this organization; the others follow the plan. */
  overrides: Partial<LimitsView>;
  created_at: string;
  updated_at: string;
}

const OVERRIDE_COLUMNS = {
  hourly: 'hourly_request_limit',
  daily: 'daily_request_limit',
  scans_per_month: 'monthly_scan_limit',
  concurrent: 'concurrent_scan_limit',
  ai_credits: 'monthly_ai_credits',
} as const satisfies Record<keyof LimitsView, keyof OrganizationRow>;

export function presentOrganization(org: OrganizationRow): OrganizationView {
  const limits = effectiveLimits(org);
  const overrides: Partial<LimitsView> = {};
  for (const [name, column] of Object.entries(OVERRIDE_COLUMNS) as Array<[keyof LimitsView, string]>) {
    const value = org[column as keyof OrganizationRow];
    if (typeof value === 'number') overrides[name] = value;
  }
  return {
    id: org.id,
    name: org.name,
    plan: org.plan,
    limits: {
      hourly: limits.hourlyRequests,
      daily: limits.dailyRequests,
      scans_per_month: limits.monthlyScans,
      concurrent: limits.concurrentScans,
      ai_credits: limits.monthlyAiCredits,
    },
    overrides,
    created_at: new Date(org.created_at).toISOString(),
    updated_at: new Date(org.updated_at).toISOString(),
  };
}

export function parsePlan(value: string): Plan {
  const plan = Plan.safeParse(value);
  if (!plan.success) throw usageError(`unknown plan "${value}": use one of ${Plan.options.join(', ')}`);
  return plan.data;
}

const MAX_NAME_LENGTH = 200;

export function parseOrganizationName(value: string): string {
  const name = value.trim();
  if (!name) throw usageError('the organization name must not be empty');
  if (name.length > MAX_NAME_LENGTH) {
    throw usageError(`the organization name must be at most ${MAX_NAME_LENGTH} characters`);
  }
  return name;
}

const INT_MAX = 2_147_483_647;

/**
 * A limit as typed on the command line: a whole number ≥ 0, -1 for unlimited,
 * or `default` to return to the plan's default.
 */
export function parseLimit(flag: string, value: string): number | null {
  if (value === 'default') return null;
  if (!/^-?\d+$/.test(value.trim())) {
    throw usageError(`${flag} must be a whole number, -1 for unlimited, or "default" (got "${value}")`);
  }
  const n = Number(value);
  if (n < -1) throw usageError(`${flag} must be -1 (unlimited) or more (got ${value})`);
  if (n > INT_MAX) throw usageError(`${flag} must be at most ${INT_MAX} (got ${value})`);
  return n;
}

export async function createOrganizationCommand(
  db: Db,
  input: { name: string; plan: Plan },
): Promise<OrganizationView> {
  return presentOrganization(await createOrganization(db, input));
}

export async function setPlanCommand(
  db: Db,
  input: { orgId: string; plan: Plan },
): Promise<OrganizationView> {
  const org = await setPlan(db, input.orgId, input.plan);
  if (!org) throw new CliError(`organization ${input.orgId} not found`);
  return presentOrganization(org);
}

/** The set-limits flags as typed. */
export interface LimitFlags {
  hourly?: string;
  daily?: string;
  scansPerMonth?: string;
  concurrent?: string;
  aiCredits?: string;
}

const LIMIT_FLAGS: Record<keyof LimitFlags, string> = {
  hourly: '--hourly',
  daily: '--daily',
  scansPerMonth: '--scans-per-month',
  concurrent: '--concurrent',
  aiCredits: '--ai-credits',
};

/** The limits to change; at least one flag must be given. */
export function parseLimitFlags(flags: LimitFlags): LimitOverrides {
  const overrides: LimitOverrides = {};
  for (const [key, flag] of Object.entries(LIMIT_FLAGS) as Array<[keyof LimitFlags, string]>) {
    const raw = flags[key];
    if (raw !== undefined) overrides[key] = parseLimit(flag, raw);
  }
  if (Object.keys(overrides).length === 0) {
    throw usageError(`give at least one limit to set: ${Object.values(LIMIT_FLAGS).join(', ')}`);
  }
  return overrides;
}

export async function setLimitsCommand(
  db: Db,
  input: { orgId: string; limits: LimitOverrides },
): Promise<OrganizationView> {
  const org = await setLimits(db, input.orgId, input.limits);
  if (!org) throw new CliError(`organization ${input.orgId} not found`);
  return presentOrganization(org);
}

export async function listOrganizationsCommand(db: Db): Promise<OrganizationView[]> {
  return (await listOrganizations(db)).map(presentOrganization);
}
