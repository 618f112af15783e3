import type { Permission, Plan, Role } from '../schemas/common.ts';

/**
 * The authenticated caller of a request, as the policies (roles.ts and one file per
 * resource), the route contract and the domains see it. auth/ finds who is calling and
 * produces it; http/ carries it; domains read who acts from it. It lives at the bottom,
 * with the policies, so that none of them reaches up into auth/ or http/ for it.
 */

export interface PrincipalUser {
  id: string;
  email: string;
  role: Role;
}

/** The caller's organization as stored: its plan and its overrides of the plan's limits (null = default). */
export interface PrincipalOrganization {
  id: string;
  name: string;
  plan: Plan;
  hourly_request_limit: number | null;
  daily_request_limit: number | null;
  monthly_scan_limit: number | null;
  concurrent_scan_limit: number | null;
  monthly_ai_credits: number | null;
  created_at: Date;
  updated_at: Date;
}

/**
 * Who is calling. An API key acts as the user who created it, limited to the
 * key's permissions; a bearer token (or HTTP Basic on the docs) carries the
 * user's full rights. A CI access token (keyless CI sign-in) acts as the admin who created its
 * trust policy, limited to the policy's permissions, as an API key does.
 */
export interface Principal {
  via: 'bearer' | 'cookie' | 'api_key' | 'basic' | 'ci_token';
  user: PrincipalUser;
  org: PrincipalOrganization;
  /** The session of a bearer token or console cookie. */
  sessionId?: string;
  apiKeyId?: string;
  /** The trust policy a CI access token was exchanged under (docs/ci-trust.md). */
  ciPolicyId?: string;
  /** The API key's permissions; undefined for bearer and basic callers (all rights of the user). */
  permissions?: ReadonlySet<Permission>;
}
