import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { ApiClient } from './client';
import type { LiveEvents } from './events';

/**
 * How components get the APIs they talk to, in the manner of Backstage's `useApi`: each API
 * has a typed reference, the composition root (main.tsx) provides an implementation for
 * each, and a component asks for one by its reference. A test provides stubs instead, so
 * no component reaches a module-level client it could not replace.
 *
 * A new API is one new reference and its implementation, provided beside the others in main.tsx
 * (the API client and the live event stream).
 */

export interface ApiRef<T> {
  readonly id: string;
  /** Carries the type only; never set. */
  readonly T?: T;
}

export function createApiRef<T>(id: string): ApiRef<T> {
  return { id };
}

/** The Scanward API (openapi-fetch over the generated schema, with the console session). */
export const apiClientRef = createApiRef<ApiClient>('scanward.api');

/** The live event stream of the signed-in console (api/events.ts). */
export const liveEventsRef = createApiRef<LiveEvents>('scanward.events');

/** One API and what implements it. */
export type ApiEntry<T> = readonly [ApiRef<T>, T];
type ApiEntries<T extends unknown[]> = { [K in keyof T]: ApiEntry<T[K]> };

const Apis = createContext<ReadonlyMap<string, unknown> | undefined>(undefined);

export function ApiProvider<T extends unknown[]>(props: {
  apis: readonly [...ApiEntries<T>];
  children: ReactNode;
}) {
  const { apis } = props;
  const holder = useMemo(() => new Map<string, unknown>(apis.map(([ref, api]) => [ref.id, api])), [apis]);
  return <Apis.Provider value={holder}>{props.children}</Apis.Provider>;
}

export function useApi<T>(ref: ApiRef<T>): T {
  const holder = useContext(Apis);
  if (!holder) throw new Error(`useApi(${ref.id}) outside an <ApiProvider>`);
  if (!holder.has(ref.id)) throw new Error(`no implementation of ${ref.id} was provided`);
  return holder.get(ref.id) as T;
}

/** An API that a component can do without (a settings section in a test harness has no event stream). */
export function useOptionalApi<T>(ref: ApiRef<T>): T | undefined {
  const holder = useContext(Apis);
  return holder?.get(ref.id) as T | undefined;
}
