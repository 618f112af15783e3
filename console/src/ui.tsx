import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Link } from './router';

/** Pieces every page uses: severity and status labels, loading, errors, paging, dates. */

export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
export const FINDING_STATUSES = ['open', 'in_progress', 'resolved', 'false_positive', 'accepted'] as const;

export function label(value: string): string {
  const text = value.replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Severity as a word with a shape marker: the colour only repeats what the text says. */
export function Severity({ value }: { value: string }) {
  return <span className={`sev sev-${value}`}>{label(value)}</span>;
}

export function Status({ value }: { value: string }) {
  return <span className={`status status-${value}`}>{label(value)}</span>;
}

export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function Problem({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" className="problem">
      {message}
    </p>
  );
}

export function Notice({ message }: { message: string | undefined }) {
  return (
    <p role="status" className="notice">
      {message ?? ''}
    </p>
  );
}

export function Pager(props: {
  page: number;
  pages: number;
  total: number;
  hrefOf: (page: number) => string;
}) {
  const { page, pages, total, hrefOf } = props;
  return (
    <nav aria-label="Pages" className="pager">
      <span>
        Page {page} of {Math.max(pages, 1)} ({total} in all)
      </span>
      {page > 1 && <Link href={hrefOf(page - 1)}>Previous page</Link>}
      {page < pages && <Link href={hrefOf(page + 1)}>Next page</Link>}
    </nav>
  );
}

export function Page(props: { title: string; children: ReactNode; actions?: ReactNode }) {
  useEffect(() => {
    document.title = `${props.title} · Scanward`;
  }, [props.title]);
  return (
    <section className="page" aria-labelledby="page-title">
      <header className="page-head">
        <h1 id="page-title">{props.title}</h1>
        {props.actions}
      </header>
      {props.children}
    </section>
  );
}

/**
 * Loads data for a page and reloads it when `key` changes; `every` polls while
 * the caller says it should (live scans). Returns the data, an error message,
 * and a reload function.
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

/** A query string from a record, leaving out empty values. */
export function queryString(values: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) if (v !== undefined && v !== '') params.set(k, String(v));
  const text = params.toString();
  return text ? `?${text}` : '';
}
