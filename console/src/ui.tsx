import { useEffect, type ReactNode } from 'react';
import { Link } from './router';
import {
  FINDING_STATUSES,
  SCAN_STATUSES,
  SEVERITIES,
  type FindingStatus,
  type ScanStatus,
  type Severity as SeverityValue,
  type Vocabulary,
} from './api/vocabulary';

/** Pieces every page uses: severity and status badges, choices, errors, paging, dates. */

/** A free-text value of the API (a history action) as words; enumerated ones have a vocabulary. */
export function label(value: string): string {
  const text = value.replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Severity as a word with a shape marker: the colour only repeats what the text says. */
export function Severity({ value }: { value: SeverityValue }) {
  return <span className={`sev sev-${value}`}>{SEVERITIES.label(value)}</span>;
}

const STATUS_WORDS: Record<FindingStatus | ScanStatus, string> = {
  ...FINDING_STATUSES.words,
  ...SCAN_STATUSES.words,
};

/** A finding's or a scan's status. */
export function Status({ value }: { value: FindingStatus | ScanStatus }) {
  return <span className={`status status-${value}`}>{STATUS_WORDS[value]}</span>;
}

/** The `<option>`s of a select: every value of a vocabulary, in its order, with its words. */
export function Options<T extends string>({ of }: { of: Vocabulary<T> }) {
  return (
    <>
      {of.values.map((value) => (
        <option key={value} value={value}>
          {of.label(value)}
        </option>
      ))}
    </>
  );
}

/** Checkboxes for a set of values (permissions, events, frameworks): ticking one adds or removes it. */
export function Choices<T extends string>(props: {
  legend: string;
  of: Vocabulary<T>;
  chosen: readonly T[];
  onChange: (chosen: T[]) => void;
}) {
  const { of, chosen, onChange } = props;
  return (
    <fieldset>
      <legend>{props.legend}</legend>
      {of.values.map((value) => (
        <label key={value} className="inline">
          <input
            type="checkbox"
            checked={chosen.includes(value)}
            onChange={() =>
              onChange(chosen.includes(value) ? chosen.filter((v) => v !== value) : [...chosen, value])
            }
          />{' '}
          {of.label(value)}
        </label>
      ))}
    </fieldset>
  );
}

/** A moment as the reader's local date and time, to the second. */
export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

/**
 * Asks before something that cannot be undone (cancel a scan, delete a key, a webhook, a
 * schedule, a person): the browser's own confirmation dialog, which every assistive technology
 * announces and which keeps the focus where it was. True when the person confirmed.
 */
export function confirmed(question: string): boolean {
  return window.confirm(question);
}

/** A due date as a day, with "Overdue" written out when it is past and the finding still open. */
export function DueDate({ due, overdue }: { due: string | null | undefined; overdue: boolean }) {
  if (!due) return <span className="muted">None</span>;
  const day = new Date(due).toLocaleDateString(undefined, { dateStyle: 'medium' });
  return (
    <span className={overdue ? 'due overdue' : 'due'}>
      {day}
      {overdue ? <strong className="overdue-tag"> Overdue</strong> : null}
    </span>
  );
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

/** A query string from a record, leaving out empty values. */
export function queryString(values: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) if (v !== undefined && v !== '') params.set(k, String(v));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The second-factor box: the app's 6-digit code or a recovery code (the API tells which). */
export function CodeInput(props: {
  label: string;
  value: string;
  onChange: (code: string) => void;
  autoFocus?: boolean;
}) {
  return (
    <label>
      {props.label}
      <input
        name="mfa_code"
        autoComplete="one-time-code"
        maxLength={32}
        required
        autoFocus={props.autoFocus}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value.trim())}
      />
      <span className="hint">
        The 6-digit code from your authenticator app, or one of your recovery codes.
      </span>
    </label>
  );
}

/** A new password, with the service's rule (at least 12 characters) stated and checked by the browser. */
export function NewPasswordInput(props: { value: string; onChange: (password: string) => void }) {
  return (
    <label>
      New password
      <input
        type="password"
        name="new_password"
        autoComplete="new-password"
        minLength={12}
        required
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      />
      <span className="hint">At least 12 characters.</span>
    </label>
  );
}
