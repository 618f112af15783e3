import type { Role } from '../schemas/common.ts';

/**
 * The rules of people's standing in their organization (who acts on people is the routes'
 * rule: the People API is admin only, policies/roles.ts). An organization keeps at least
 * one active admin: demoting, disabling or deleting its last one is refused. The lifecycle
 * (people/user-lifecycle.ts) asks `removesAnActiveAdmin` and counts the others under a lock.
 */

/** What the rules read of a person (a user, or an invitation kept without a user). */
export interface PersonStanding {
  role: Role;
  disabled_at: Date | null;
}

/** A change of a person's standing: a new role, disabling, deleting. */
export type StandingChange = { role: Role } | 'disable' | 'delete';

/** Whether the person counts as an active admin of their organization. */
export const isActiveAdmin = (person: PersonStanding): boolean =>
  person.role === 'admin' && person.disabled_at === null;

/**
 * Whether the change takes an active admin away from the organization (allowed only while
 * another active admin stays): an active admin demoted, disabled or deleted.
 */
export function removesAnActiveAdmin(person: PersonStanding, change: StandingChange): boolean {
  if (!isActiveAdmin(person)) return false;
  return typeof change === 'string' || change.role !== 'admin';
}

/** The verb a refusal of the change names. */
export const standingChangeVerb = (change: StandingChange): string =>
  typeof change === 'string' ? change : 'demote';
