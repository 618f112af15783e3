import { useCallback, useEffect, useRef, useState } from 'react';
import { problem } from './api/contract';

/**
 * How a component loads API data and changes it. Every page and settings section uses
 * these three hooks, so the load–change–reload pattern is written once:
 *
 * - `useLoad(load, key, every?)`: loads, reloads when `key` changes, polls while `every` says.
 * - `useAction()`: sends a change, shows the API's error or clears the last one.
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
 * Loads data and reloads it when `key` changes; `every` polls while the caller says it
 * should (live scans). Returns the data, an error message, and a reload function.
 */
export function useLoad<T>(
  load: () => Promise<{ data?: T; error?: unknown }>,
  key: string,
  every?: (data: T) => number | undefined,
): { data: T | undefined; error: string | undefined; reload: () => Promise<void> } {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<string>();
  const loadRef = useRef(load);
  loadRef.current = load;
  const everyRef = useRef(every);
  everyRef.current = every;
  const generation = useRef(0);

  const reload = useCallback(async () => {
    const mine = ++generation.current;
    const result = await loadRef.current();
    if (mine !== generation.current) return;
    if (result.data !== undefined) {
      setData(result.data);
      setError(undefined);
    } else {
      const e = result.error;
      setError(e && typeof e === 'object' && 'detail' in e ? String(e.detail) : 'Could not load this page.');
    }
  }, []);

  useEffect(() => {
    setData(undefined);
    void reload();
  }, [key, reload]);

  useEffect(() => {
    if (data === undefined || !everyRef.current) return;
    const ms = everyRef.current(data);
    if (!ms) return;
    // Polls count against the organization's request rate: none while the tab is hidden.
    let timer = 0;
    const tick = () => {
      if (document.hidden) timer = window.setTimeout(tick, ms);
      else void reload();
    };
    timer = window.setTimeout(tick, ms);
    return () => window.clearTimeout(timer);
  }, [data, reload]);

  return { data, error, reload };
}

export interface Action {
  /** The last change's error (the API's `detail`), until a change succeeds. */
  error: string | undefined;
  /** What the last successful change said it did, when it said something. */
  notice: string | undefined;
  /** Shows an error found before sending anything (a box left unticked). */
  fail(message: string): void;
  /**
   * Sends a change and waits for it. On success the last error is cleared and `then` runs
   * with the answer's data; a text it returns becomes the notice. True when it succeeded.
   */
  act<D>(call: Promise<Answer<D>>, then?: (data: D) => string | void): Promise<boolean>;
}

export function useAction(): Action {
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const act = useCallback(async <D>(call: Promise<Answer<D>>, then?: (data: D) => string | void) => {
    const { data, error: failure, response } = await call;
    if (!response.ok) {
      setError(problem(failure));
      return false;
    }
    setError(undefined);
    const said = then?.(data as D);
    if (said) setNotice(said);
    return true;
  }, []);
  return { error, notice, fail: setError, act };
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
    async <D>(call: Promise<Answer<D>>, then?: (data: D) => string | void) => {
      const ok = await action.act(call, then);
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
    act,
    reload,
  };
}
