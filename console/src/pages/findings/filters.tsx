import { useState, type ChangeEvent, type FormEvent } from 'react';
import { FINDING_GROUP_BYS, FINDING_STATUSES, SEVERITIES } from '../../api/vocabulary';
import { Link, navigate } from '../../router';
import { Options, queryString } from '../../ui';
import type { View } from './view';

/** The free-text boxes of the filters, kept until "Apply filters". */
const TEXT_KEYS = ['q', 'target', 'cve', 'assignee', 'from_date', 'to_date'] as const;
type TextFilters = Record<(typeof TEXT_KEYS)[number], string>;

/** A date box over a URL value that may be a date-time (an overview link): shown as its day, kept unless changed. */
function DateBox(props: { label: string; name: string; value: string; onChange: (v: string) => void }) {
  return (
    <label>
      {props.label}
      <input
        type="date"
        name={props.name}
        value={props.value.slice(0, 10)}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </label>
  );
}

export function Filters({ view }: { view: View }) {
  const [text, setText] = useState<TextFilters>(() => {
    const t = {} as TextFilters;
    for (const key of TEXT_KEYS) t[key] = view[key];
    return t;
  });
  const go = (changes: Partial<View>) =>
    navigate(`/findings${queryString({ ...view, ...changes, page: '' })}`);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = {} as TextFilters;
    for (const key of TEXT_KEYS) trimmed[key] = text[key].trim();
    go(trimmed);
  };
  const box = (key: 'q' | 'target' | 'cve' | 'assignee') => ({
    name: key,
    value: text[key],
    onChange: (e: ChangeEvent<HTMLInputElement>) => setText({ ...text, [key]: e.target.value }),
  });
  return (
    <form className="filters card" onSubmit={submit} aria-label="Filters">
      {(view.resolved_from || view.resolved_to) && (
        <p className="hint resolved-range">
          Resolved{view.resolved_from && ` from ${view.resolved_from.slice(0, 10)}`}
          {view.resolved_to && ` before ${view.resolved_to.slice(0, 10)}`}{' '}
          <button type="button" className="link" onClick={() => go({ resolved_from: '', resolved_to: '' })}>
            Any resolution date
          </button>
        </p>
      )}
      <label className="search">
        Search
        <input type="search" placeholder="Title, component, target, CVE, description" {...box('q')} />
      </label>
      <label>
        Severity
        <select name="severity" value={view.severity} onChange={(e) => go({ severity: e.target.value })}>
          <option value="">Any</option>
          <Options of={SEVERITIES} />
        </select>
      </label>
      <label>
        Status
        <select name="status" value={view.status} onChange={(e) => go({ status: e.target.value })}>
          <option value="">Any</option>
          <option value="open,in_progress">Open or in progress</option>
          <Options of={FINDING_STATUSES} />
        </select>
      </label>
      <label>
        Known exploited
        <select name="kev" value={view.kev} onChange={(e) => go({ kev: e.target.value })}>
          <option value="">Any</option>
          <option value="true">On the KEV list</option>
          <option value="false">Not on the KEV list</option>
        </select>
      </label>
      <label className="inline">
        <input
          type="checkbox"
          name="overdue"
          checked={view.overdue === 'true'}
          onChange={(e) => go({ overdue: e.target.checked ? 'true' : '' })}
        />{' '}
        Overdue only
      </label>
      <label>
        Target
        <input placeholder="host, 127.0.0, 10.0.0.0/24" {...box('target')} />
      </label>
      <label>
        CVE
        <input placeholder="CVE-2024-…" {...box('cve')} />
      </label>
      <label>
        Assignee
        <input type="email" placeholder="e-mail" {...box('assignee')} />
      </label>
      <DateBox
        label="Detected from"
        name="from_date"
        value={text.from_date}
        onChange={(v) => setText({ ...text, from_date: v })}
      />
      <DateBox
        label="Detected before"
        name="to_date"
        value={text.to_date}
        onChange={(v) => setText({ ...text, to_date: v })}
      />
      <label>
        Group by
        <select name="group" value={view.group} onChange={(e) => go({ group: e.target.value })}>
          <option value="">No grouping</option>
          <Options of={FINDING_GROUP_BYS} />
        </select>
      </label>
      <button type="submit">Apply filters</button>
      {view.asset_id && (
        <p>
          Asset <Link href={`/inventory/${view.asset_id}`}>{view.asset_id}</Link>{' '}
          <button type="button" className="link" onClick={() => go({ asset_id: '' })}>
            Show all assets
          </button>
        </p>
      )}
      {view.template_id && (
        <p>
          Check {view.template_id}{' '}
          <button type="button" className="link" onClick={() => go({ template_id: '' })}>
            Show all checks
          </button>
        </p>
      )}
      {view.scan_id && (
        <p>
          Scan {view.scan_id}{' '}
          <button type="button" className="link" onClick={() => go({ scan_id: '' })}>
            Show all scans
          </button>
        </p>
      )}
    </form>
  );
}
