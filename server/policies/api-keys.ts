import { insufficientPermission } from '../errors.ts';
import type { Permission, Role } from '../schemas/common.ts';
import type { Principal } from './principal.ts';
import { permissionsBeyondRole } from './roles.ts';

/**
 * Who may do what with an API key (the routes' role rules are roles.ts's):
 * - an admin manages (lists, revokes) every key of their organization; anyone else only their own;
 * - a key never exceeds its creator's role: the permissions a role does not grant cannot be given.
 */

/** Whether the caller may manage (see, revoke) an API key the user `ownerUserId` created. */
export function mayManageApiKeyOf(principal: Principal, ownerUserId: string): boolean {
  return principal.user.role === 'admin' || principal.user.id === ownerUserId;
}

/**
 * Whose API keys the caller manages, as a listing's or a revocation's filter: undefined for
 * everyone's (an admin), else the caller's own id (the rule of mayManageApiKeyOf, as a query).
 */
export function apiKeyOwnerScope(principal: Principal): string | undefined {
  return principal.user.role === 'admin' ? undefined : principal.user.id;
}

/** A key never exceeds its creator's role: permissions the role does not grant are refused (403). */
export function assertKeyWithinRole(role: Role, permissions: readonly Permission[]): void {
  const beyond = permissionsBeyondRole(role, permissions);
  if (beyond.length > 0) {
    throw insufficientPermission(
      `the ${role} role cannot give an API key ${beyond.join(', ')}: a key never exceeds its creator's role`,
    );
  }
}
