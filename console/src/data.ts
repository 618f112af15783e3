import { useCallback, useEffect, useRef, useState } from 'react';
import { problem } from './api/contract';
import { liveEventsRef, useOptionalApi } from './api/context';
import type { LiveEvent, StreamState } from './api/events';

/**
 * How a component loads API data and changes it. Every page and settings section uses
 * these three hooks, so the load–change–reload pattern is written once:
 *
 * - `useLoad(load, key, live?)`: loads, reloads when `key` changes, follows the live event stream.
 * - `useAction()`: sends a change, shows the API's error or its notice; each change clears the last one's.
 * - `useCollection(key, load)`: a list with both: every change reloads the list.
 *
 * `key` names what is loaded (`'settings/api-keys'`, a scan id, the page's URL): a new key
 * is a new thing to load, so two components never share one by accident.
 */

/** What openapi-fetch answers: `data` on a 2xx, `error` (the parsed body) otherwise. */
export interface Answer<D> {
  data?: D;
  error?: unknown;
  response: Response;
}

/**
 * What a live event does to data a page has loaded: the data with the event applied (no
 * request), `'reload'` (the page asks the API again; several in a burst make one request),
 * or `undefined` when the event is not about it.
 */
export interface Live<T> {
  on(event: LiveEvent, data: T): T | 'reload' | undefined;
}

/** How often a live page asks again while the event stream is down (and only then). */
export const FALLBACK_POLL_MS = 30_000;
/** Reloads asked for within this long of each other are one request. */
const COALESCE_MS = 300;

/**
 * Loads data and reloads it when `key` changes. With `live`, the data follows the
 * console's event stream (api/events.ts) instead of polling: each event is applied or
 * reloads; when the stream (re)opens, the data is read once more (events may have passed
 * while it was closed); while the stream is down, the page polls every FALLBACK_POLL_MS.
 * Returns the data, an error message, and a reload function.
 */
export function useLoad<T>(
  load: () => Promise<{ data?: T; error?: unknown }>,
  key: string,
  live?: Live<T>,
): { data: T | undefined; error: string | undefined; reload: () => Promise<void> } {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<string>();
  const loadRef = useRef(load);
  loadRef.current = load;
  const liveRef = useRef(live);
  liveRef.current = live;
  const dataRef = useRef<T>(undefined);
  const generation = useRef(0);
  const events = useOptionalApi(liveEventsRef);
  const isLive = live !== undefined && events !== undefined;
  const [streamState, setStreamState] = useState<StreamState | undefined>(events?.state());

  const reload = useCallback(async () => {
    const mine = ++generation.current;
    const result = await loadRef.current();
    if (mine !== generation.current) return;
    if (result.data !== undefined) {
      dataRef.current = result.data;
      setData(result.data);
      setError(undefined);
    } else {
      const e = result.error;
      setError(e && typeof e === 'object' && 'detail' in e ? String(e.detail) : 'Could not load this page.');
    }
  }, []);

  useEffect(() => {
    dataRef.current = undefined;
    setData(undefined);
    void reload();
  }, [key, reload]);

  useEffect(() => {
    if (!isLive || !events) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const reloadSoon = () => {
      timer ??= setTimeout(() => {
        timer = undefined;
        void reload();
      }, COALESCE_MS);
    };
    const unsubscribe = events.subscribe((event) => {
      const current = dataRef.current;
      const apply = liveRef.current;
      if (current === undefined || !apply) return;
      const next = apply.on(event, current);
      if (next === 'reload') reloadSoon();
      else if (next !== undefined) {
        dataRef.current = next;
        setData(next);
      }
    });
    const unwatch = events.watch((state) => {
      setStreamState(state);
      if (state === 'open' && dataRef.current !== undefined) reloadSoon();
    });
    setStreamState(events.state());
    return () => {
      unsubscribe();
      unwatch();
      if (timer) clearTimeout(timer);
    };
  }, [isLive, events, reload]);

  useEffect(() => {
    if (!isLive || streamState === 'open' || streamState === 'connecting') return;
    // The stream is down: poll slowly, and not while the tab is hidden (polls count against the rate limit).
    const timer = window.setInterval(() => {
      if (!document.hidden) void reload();
    }, FALLBACK_POLL_MS);
    return () => window.clearInterval(timer);
  }, [isLive, streamState, reload]);

  return { data, error, reload };
}

export interface Action {
  /** The last change's error (the API's `detail`), until the next change. */
  error: string | undefined;
  /** What the last change said it did, when it succeeded and said something; cleared by the next. */
  notice: string | undefined;
  /** Shows an error found before sending anything (a box left unticked). */
  fail(message: string): void;
  /** Forgets what the last change said (the thing it changed has since changed elsewhere). */
  clear(): void;
  /**
   * Sends a change and waits for it. On success the last error is cleared and `then` runs
   * with the answer's data; a text it returns becomes the notice. On a failure `otherwise`
   * (when given) sees the answer's body first: true when it has dealt with it (a second step
   * the API asks for), and no error shows. True when it succeeded.
   */
  act<D>(
    call: Promise<Answer<D>>,
    then?: (data: D) => string | void,
    otherwise?: (failure: unknown) => boolean,
  ): Promise<boolean>;
}

export function useAction(): Action {
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const act = useCallback(
    async <D>(
      call: Promise<Answer<D>>,
      then?: (data: D) => string | void,
      otherwise?: (failure: unknown) => boolean,
    ) => {
      // A new change: what the last one said is stale.
      setError(undefined);
      setNotice(undefined);
      const { data, error: failure, response } = await call;
      if (!response.ok) {
        if (!otherwise?.(failure)) setError(problem(failure));
        return false;
      }
      setError(undefined);
      const said = then?.(data as D);
      if (said) setNotice(said);
      return true;
    },
    [],
  );
  const fail = useCallback((message: string) => {
    setNotice(undefined);
    setError(message);
  }, []);
  const clear = useCallback(() => {
    setError(undefined);
    setNotice(undefined);
  }, []);
  return { error, notice, fail, clear, act };
}

export interface Collection<Item> extends Action {
  /** The items, once loaded. */
  items: readonly Item[] | undefined;
  /** A load error, else the last change's error. */
  error: string | undefined;
  reload(): Promise<void>;
}

/** A list that changes: `act` sends a change (create, delete, redeliver) and then reloads the list. */
export function useCollection<Item>(
  key: string,
  load: () => Promise<{ data?: { items: Item[] }; error?: unknown }>,
): Collection<Item> {
  const list = useLoad(load, key);
  const action = useAction();
  const { reload } = list;
  const act = useCallback(
    async <D>(
      call: Promise<Answer<D>>,
      then?: (data: D) => string | void,
      otherwise?: (failure: unknown) => boolean,
    ) => {
      const ok = await action.act(call, then, otherwise);
      await reload();
      return ok;
    },
    [action.act, reload],
  );
  return {
    items: list.data?.items,
    error: list.error ?? action.error,
    notice: action.notice,
    fail: action.fail,
    clear: action.clear,
    act,
    reload,
  };
}
