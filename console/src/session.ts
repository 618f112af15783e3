import { createContext, useContext } from 'react';
import type { Schemas } from './api/contract';

export type ConsoleSession = Schemas['ConsoleSession'];

export interface SessionContext {
  session: ConsoleSession;
  /** Re-reads the session (after MFA changes). */
  refresh(): Promise<void>;
}

export const Session = createContext<SessionContext | undefined>(undefined);

export function useSession(): SessionContext {
  const value = useContext(Session);
  if (!value) throw new Error('useSession outside a signed-in console');
  return value;
}

export type Role = ConsoleSession['user']['role'];

/**
 * What a role may change, as the API's policy says (docs/roles.md): a viewer reads only; a
 * member changes findings (triage, assignment, comments, tickets), scans (start, cancel,
 * import) and compliance evidence; an admin all of that and the organization's settings.
 * The console hides a form the API would refuse; the API still decides.
 */
export type Change = 'findings' | 'scans' | 'evidence' | 'settings';

const CHANGES: Record<Role, ReadonlySet<Change>> = {
  viewer: new Set(),
  member: new Set(['findings', 'scans', 'evidence']),
  admin: new Set(['findings', 'scans', 'evidence', 'settings']),
};

export function mayChange(role: Role, what: Change): boolean {
  return CHANGES[role]?.has(what) ?? false;
}

/** True when the signed-in role may change `what`: the form for it is shown. */
export function useMayChange(what: Change): boolean {
  return mayChange(useSession().session.user.role, what);
}
