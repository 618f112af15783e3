import type { Permission } from '../schemas/common.ts';
import type { OrganizationRow } from '../identity/plans.ts';

export interface PrincipalUser {
  id: string;
  email: string;
  role: 'admin' | 'member';
}

/**
 * Who is calling. An API key acts as the user who created it, limited to the
 * key's permissions; a bearer token (or HTTP Basic on the docs) carries the
 * user's full rights.
 */
export interface Principal {
  via: 'bearer' | 'cookie' | 'api_key' | 'basic';
  user: PrincipalUser;
  org: OrganizationRow;
  /** The session of a bearer token or console cookie. */
  sessionId?: string;
  apiKeyId?: string;
  /** The API key's permissions; undefined for bearer and basic callers (all rights of the user). */
  permissions?: ReadonlySet<Permission>;
}
