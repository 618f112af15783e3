import type { Db } from '../db/index.ts';
import type { Plan } from '../schemas/common.ts';
import { newId } from './ids.ts';
import { AppError, conflict } from '../errors.ts';
import type { Principal } from '../policies/principal.ts';
import { recordAuditEvent } from './audit.ts';
import type { AuthenticationSettings, AuthenticationSettingsChange } from '../schemas/settings.ts';
import {
  findPasswordLogin,
  findSignInSettings,
  insertOrganization,
  updateOrganization,
  updateSignInSettings,
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

/** The organization's sign-in settings, beside whether this instance has single sign-on at all. */
export async function authenticationSettingsOf(
  db: Db,
  orgId: string,
  ssoConfigured: boolean,
): Promise<AuthenticationSettings> {
  const row = await findSignInSettings(db, orgId);
  return {
    password_login: row?.password_login ?? true,
    sso_configured: ssoConfigured,
    sso_enabled: row?.sso_enabled ?? false,
    sso_domains: row?.sso_domains ?? [],
    sso_trusts_idp_mfa: row?.sso_trusts_idp_mfa ?? false,
  };
}

const CHANGEABLE = ['password_login', 'sso_enabled', 'sso_domains', 'sso_trusts_idp_mfa'] as const;

const asText = (value: boolean | string[]) => (Array.isArray(value) ? value.join(' ') : String(value));

/**
 * Changes the organization's sign-in settings (the fields given). Single sign-on on needs it
 * configured on the instance (CONFLICT) and at least one domain (422 on `sso_domains`);
 * password log-in off needs single sign-on on for the organization, or nobody could sign in
 * any more (CONFLICT). Every change is an audit event (`auth.settings_changed`, each changed
 * field with its value before, `<field>_was`); a change of the password switch is also
 * `auth.password_login_changed`, as before.
 */
export async function setAuthenticationSettings(
  db: Db,
  principal: Principal,
  change: AuthenticationSettingsChange,
  ssoConfigured: boolean,
  ip: string,
): Promise<AuthenticationSettings> {
  const orgId = principal.org.id;
  const before = await authenticationSettingsOf(db, orgId, ssoConfigured);
  const after = { ...before };
  for (const field of CHANGEABLE) {
    const value = change[field];
    if (value !== undefined) (after as Record<string, unknown>)[field] = value;
  }
  if (after.sso_enabled && !ssoConfigured && !before.sso_enabled) {
    throw conflict(
      'single sign-on cannot be turned on: this instance has no OpenID Connect provider (SCANWARD_OIDC_ISSUER)',
    );
  }
  if (after.sso_enabled && after.sso_domains.length === 0) {
    throw new AppError(
      422,
      'VALIDATION_ERROR',
      'sso_domains: must list at least one e-mail domain while single sign-on is on',
      'sso_domains',
    );
  }
  if (!after.password_login && before.password_login !== after.password_login && !ssoConfigured) {
    throw conflict(
      'password sign-in cannot be switched off while single sign-on is not configured (SCANWARD_OIDC_ISSUER)',
    );
  }
  if (!after.password_login && !after.sso_enabled) {
    throw conflict(
      'password sign-in cannot be off while single sign-on is off for the organization: turn sso_enabled on (with its domains) first',
    );
  }
  const changed = CHANGEABLE.filter((f) => asText(before[f]) !== asText(after[f]));
  if (changed.length === 0) return before;
  const now = new Date();
  const changes = Object.fromEntries(changed.map((f) => [f, after[f]]));
  await updateSignInSettings(db, orgId, changes, now);
  const actor = { id: principal.user.id, email: principal.user.email };
  const details: Record<string, string> = {};
  for (const f of changed) {
    details[f] = asText(after[f]);
    details[`${f}_was`] = asText(before[f]);
  }
  await recordAuditEvent(db, { orgId, action: 'auth.settings_changed', actor, ip, details }, now);
  if (changed.includes('password_login')) {
    await recordAuditEvent(
      db,
      {
        orgId,
        action: 'auth.password_login_changed',
        actor,
        ip,
        details: { password_login: String(after.password_login) },
      },
      now,
    );
  }
  return authenticationSettingsOf(db, orgId, ssoConfigured);
}
