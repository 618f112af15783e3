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
