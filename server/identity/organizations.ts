import type { Db } from '../db/index.ts';
import type { Plan } from '../schemas/common.ts';
import { newId } from './ids.ts';
import { conflict } from '../errors.ts';
import type { Principal } from '../http/principal.ts';
import { recordAuditEvent } from './audit.ts';
import {
  findPasswordLogin,
  insertOrganization,
  updateOrganization,
  updatePasswordLogin,
  type OrganizationRow,
} from './organizations.repository.ts';

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

/** Whether the organization's people may log in with a password (true unless an admin switched it off). */
export async function passwordLoginAllowed(db: Db, orgId: string): Promise<boolean> {
  return (await findPasswordLogin(db, orgId)) ?? true;
}

export interface AuthenticationSettings {
  password_login: boolean;
  sso_configured: boolean;
}

/** The organization's sign-in settings, beside whether this instance has single sign-on at all. */
export async function authenticationSettingsOf(
  db: Db,
  orgId: string,
  ssoConfigured: boolean,
): Promise<AuthenticationSettings> {
  return { password_login: await passwordLoginAllowed(db, orgId), sso_configured: ssoConfigured };
}

/**
 * Switches password log-in on or off for the organization. Off needs single sign-on
 * configured on the instance, or nobody could sign in any more (CONFLICT).
 */
export async function setPasswordLogin(
  db: Db,
  principal: Principal,
  enabled: boolean,
  ssoConfigured: boolean,
  ip: string,
): Promise<AuthenticationSettings> {
  const orgId = principal.org.id;
  if (!enabled && !ssoConfigured) {
    throw conflict(
      'password sign-in cannot be switched off while single sign-on is not configured (SCANWARD_OIDC_ISSUER)',
    );
  }
  const now = new Date();
  await updatePasswordLogin(db, orgId, enabled, now);
  const actor = { id: principal.user.id, email: principal.user.email };
  await recordAuditEvent(
    db,
    {
      orgId,
      action: 'auth.password_login_changed',
      actor,
      ip,
      details: { password_login: String(enabled) },
    },
    now,
  );
  return authenticationSettingsOf(db, orgId, ssoConfigured);
}
