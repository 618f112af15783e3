import { insufficientPermission } from '../errors.ts';
import { Permission, Role } from '../schemas/common.ts';
import type { AccessRule } from './contract.ts';
import type { Principal } from './principal.ts';

/**
 * Authorization, in one place (in the manner of outline's server/policies/): a
 * route names what it needs in its declaration (`access`), the policy answers,
 * nothing else decides.
 *
 * - One table from role to permissions, `ROLE_PERMISSIONS`. The API-key
 *   permissions are a subset of each role's, and a role also carries the
 *   capabilities no API key can have (`admin`: people, API keys of others,
 *   webhooks, schedules, the audit trail).
 * - Which roles a route allows derives from its declared API-key permission
 *   unless the route names its roles: `read:*` → every role, `write:*` → member
 *   and admin, no permission (self-service: the caller's own sessions, MFA,
 *   password) → every role; `admin: true` → admin only. A route written without
 *   thinking of roles therefore gets the right ones.
 * - An API key acts as its creator, limited to the permissions it carries AND to
 *   those its creator's role grants now: a key never exceeds its creator's role,
 *   and what the creator's role stops granting (a member made a viewer) stops
 *   working on the next request.
 * - Per-resource rules where ownership matters: `mayManageOwnedBy` (a member
 *   manages only their own API keys; an admin, everyone's).
 */

export const ROLES: readonly Role[] = Role.options;

const READ = Permission.options.filter((p) => p.startsWith('read:'));

/** What each role may do with an API key's permissions; the table every check reads. */
export const ROLE_PERMISSIONS: Readonly<Record<Role, ReadonlySet<Permission>>> = {
  admin: new Set(Permission.options),
  member: new Set(Permission.options),
  viewer: new Set(READ),
};

/** The roles a route allows, from its access rule (see the header of this file). */
export function routeRoles(access: AccessRule): readonly Role[] {
  if (access.public) return ROLES;
  if (access.roles) return access.roles;
  if (access.admin) return ['admin'];
  const permission = access.permission;
  if (!permission) return ROLES;
  return ROLES.filter((role) => ROLE_PERMISSIONS[role].has(permission));
}

/** Whether the role may hold the permission (an API key of a user of this role may carry it). */
export function roleGrants(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].has(permission);
}

/** The permissions among `wanted` the role does not grant. */
export function permissionsBeyondRole(role: Role, wanted: readonly Permission[]): Permission[] {
  return wanted.filter((p) => !roleGrants(role, p));
}

/** Whether the caller is an API key (by header or HTTP Basic), limited to its permissions. */
export const viaApiKey = (principal: Principal): boolean =>
  principal.via !== 'bearer' && principal.permissions !== undefined;

/**
 * Answers whether the caller may call a route with this access rule; throws 403
 * INSUFFICIENT_PERMISSION naming what is missing.
 */
export function authorize(access: AccessRule, principal: Principal): void {
  if (access.public) return;
  const key = viaApiKey(principal);
  if (access.bearerOnly && key) {
    throw insufficientPermission('this endpoint accepts bearer tokens only, not API keys');
  }
  const role = principal.user.role;
  const roles = routeRoles(access);
  if (!roles.includes(role)) {
    throw insufficientPermission(
      roles.length === 1
        ? `this action needs the ${roles[0]} role`
        : `this action needs one of the roles ${roles.join(', ')} (you are ${role})`,
    );
  }
  if (access.permission && key) {
    if (!principal.permissions!.has(access.permission)) {
      throw insufficientPermission(`the API key lacks the ${access.permission} permission`);
    }
    if (!roleGrants(role, access.permission)) {
      throw insufficientPermission(
        `the API key's ${access.permission} permission is beyond its creator's role (${role})`,
      );
    }
  }
}

/**
 * Per-resource rule: whether the caller may manage a resource a user owns (an API
 * key): admins manage everyone's in their organization, others only their own.
 */
export function mayManageOwnedBy(principal: Principal, ownerUserId: string): boolean {
  return principal.user.role === 'admin' || principal.user.id === ownerUserId;
}

/** Whose resources the caller sees in a listing: undefined for everyone's (admins), else their own id. */
export function ownerScope(principal: Principal): string | undefined {
  return principal.user.role === 'admin' ? undefined : principal.user.id;
}
