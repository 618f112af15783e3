import type { Plan } from '../schemas/common.ts';
import type { OrganizationRow } from './organizations.repository.ts';

/** -1 means unlimited throughout. */
export interface Limits {
  hourlyRequests: number;
  dailyRequests: number;
  monthlyScans: number;
  concurrentScans: number;
  monthlyAiCredits: number;
}

/** Plan defaults (interface-spec.md "Limits", decisions.md for enterprise and AI credits). */
export const PLAN_LIMITS: Record<Plan, Limits> = {
  startup: {
    hourlyRequests: 100,
    dailyRequests: 1000,
    monthlyScans: 25,
    concurrentScans: 1,
    monthlyAiCredits: 50,
  },
  professional: {
    hourlyRequests: 500,
    dailyRequests: 5000,
    monthlyScans: 150,
    concurrentScans: 3,
    monthlyAiCredits: 500,
  },
  enterprise: {
    hourlyRequests: 10_000,
    dailyRequests: 100_000,
    monthlyScans: -1,
    concurrentScans: -1,
    monthlyAiCredits: -1,
  },
};

/** Features not on every plan. */
const FEATURE_PLANS: Record<'schedules' | 'api_keys', readonly Plan[]> = {
  schedules: ['professional', 'enterprise'],
  api_keys: ['professional', 'enterprise'],
};

export function planAllows(plan: Plan, feature: keyof typeof FEATURE_PLANS): boolean {
  return FEATURE_PLANS[feature].includes(plan);
}

/** The limits in force for an organization: its overrides over its plan's defaults. */
export function effectiveLimits(org: OrganizationRow): Limits {
  const plan = PLAN_LIMITS[org.plan];
  return {
    hourlyRequests: org.hourly_request_limit ?? plan.hourlyRequests,
    dailyRequests: org.daily_request_limit ?? plan.dailyRequests,
    monthlyScans: org.monthly_scan_limit ?? plan.monthlyScans,
    concurrentScans: org.concurrent_scan_limit ?? plan.concurrentScans,
    monthlyAiCredits: org.monthly_ai_credits ?? plan.monthlyAiCredits,
  };
}
