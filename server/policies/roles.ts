import { insufficientPermission } from '../errors.ts';
import { Permission, Role } from '../schemas/common.ts';
import type { Principal } from './principal.ts';

/**
 * The role table and the route rule: a route names what it needs in its declaration
 * (`access`, an AccessRule), `authorize` answers, nothing else decides. The rules about one
 * resource (whose API keys, which events, the metrics) are in the file of that resource
 * beside this one (api-keys.ts, events.ts, metrics.ts, people.ts, scans.ts).
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
 */

/**
 * Who may call a route. `public`: no credentials. Otherwise credentials are
 * needed; `permission` is what an API key must carry, `bearerOnly` refuses API
 * keys, `admin` requires the admin role, `roles` names the allowed roles outright.
 * Without `admin` or `roles`, the roles derive from `permission` (routeRoles):
 * read → every role, write → member and admin, none → every role.
 */
export interface AccessRule {
  public?: boolean;
  permission?: Permission;
  bearerOnly?: boolean;
  admin?: boolean;
  roles?: readonly Role[];
}

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
