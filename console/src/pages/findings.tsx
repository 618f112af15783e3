import { useState, type ChangeEvent, type FormEvent } from 'react';
import { problem, type QueryOf, type Schemas } from '../api/contract';
import { apiClientRef, useApi } from '../api/context';
import { FINDING_GROUP_BYS, FINDING_STATUSES, SEVERITIES } from '../api/vocabulary';
import { useLoad, type Live } from '../data';
import { Link, navigate, useLocation } from '../router';
import { JustificationFields, justified, type Justified } from '../triage';
import { DueDate, Notice, Options, Page, Pager, Problem, Severity, Status, queryString, when } from '../ui';

type Query = QueryOf<'listFindings'>;
type Sort = NonNullable<Query['sort']>;

/** The filters, sorting and page of the findings table: all of them live in the URL. */
const KEYS = [
  'q',
  'severity',
  'status',
  'target',
  'scan_id',
  'asset_id',
  'template_id',
  'tool',
  'cve',
  'kev',
  'overdue',
  'assignee',
  'from_date',
  'to_date',
  'resolved_from',
  'resolved_to',
  'group',
  'sort',
  'order',
  'page',
] as const;

type View = Record<(typeof KEYS)[number], string>;

function viewOf(query: URLSearchParams): View {
  const view = {} as View;
  for (const key of KEYS) view[key] = query.get(key) ?? '';
  return view;
}

function apiQuery(view: View): Query {
  const q: Query = { per_page: 25, page: Number(view.page) || 1 };
  if (view.q) q.q = view.q;
  if (view.severity) q.severity = view.severity as Query['severity'];
  if (view.status) q.status = view.status as Query['status'];
  if (view.target) q.target = view.target;
  if (view.scan_id) q.scan_id = view.scan_id;
  if (view.asset_id) q.asset_id = view.asset_id;
  if (view.template_id) q.template_id = view.template_id;
  if (view.tool) q.tool = view.tool;
  if (view.cve) q.cve = view.cve;
  if (view.kev === 'true' || view.kev === 'false') q.kev = view.kev;
  if (view.overdue === 'true') q.overdue = 'true';
  if (view.assignee) q.assignee = view.assignee;
  if (view.from_date) q.from_date = view.from_date;
  if (view.to_date) q.to_date = view.to_date;
  if (view.resolved_from) q.resolved_from = view.resolved_from;
  if (view.resolved_to) q.resolved_to = view.resolved_to;
  if (view.sort) q.sort = view.sort as Sort;
  if (view.order) q.order = view.order as Query['order'];
  return q;
}

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

function Filters({ view }: { view: View }) {
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

function SortHeader(props: { view: View; sort: Sort; children: string }) {
  const { view, sort } = props;
  const active = (view.sort || 'severity') === sort;
  const order = view.order || 'desc';
  const next = active && order === 'desc' ? 'asc' : 'desc';
  return (
    <th scope="col" aria-sort={active ? (order === 'asc' ? 'ascending' : 'descending') : undefined}>
      <Link href={`/findings${queryString({ ...view, sort, order: next, page: '' })}`}>
        {props.children}
        {active ? (order === 'asc' ? ' ▲' : ' ▼') : ''}
      </Link>
    </th>
  );
}

function exportHref(view: View, format: string): string {
  const { page: _page, ...filters } = view;
  return `/api/v1/findings/export${queryString({ ...filters, format })}`;
}

/** The list is read again when a scan finds a finding, or someone triages one it shows. */
const liveFindings: Live<Schemas['FindingList']> = {
  on(event, list) {
    if (event.type === 'vulnerability.found') return 'reload';
    if (event.type === 'finding.updated' && list.items.some((f) => f.id === event.data.id)) return 'reload';
    return undefined;
  },
};

/** The findings list, or its groups when `group` is chosen. */
export function FindingList() {
  const { query, href } = useLocation();
  const view = viewOf(query);
  return view.group ? <GroupedFindings key={href} view={view} href={href} /> : <UngroupedFindings />;
}

/** Which list filter shows a group's findings. */
const GROUP_FILTER = { asset: 'asset_id', cve: 'cve', check: 'template_id' } as const;

/** Groups are counted again when a scan finds a finding or someone triages one. */
const liveGroups: Live<Schemas['FindingGroupList']> = {
  on: (event) =>
    event.type === 'vulnerability.found' || event.type === 'finding.updated' ? 'reload' : undefined,
};

function GroupedFindings({ view, href }: { view: ReturnType<typeof viewOf>; href: string }) {
  const api = useApi(apiClientRef);
  const by = (FINDING_GROUP_BYS.values as readonly string[]).includes(view.group)
    ? (view.group as Schemas['FindingGroupBy'])
    : 'asset';
  const { group: _group, sort: _sort, order: _order, ...filters } = view;
  const groups = useLoad(
    () => api.GET('/api/v1/findings/groups', { params: { query: { ...apiQuery(view), by } } }),
    href,
    liveGroups,
  );
  const items = groups.data?.items ?? [];
  const hrefOf = (key: string) =>
    `/findings${queryString({ ...filters, page: '', [GROUP_FILTER[by]]: key })}`;
  return (
    <Page title="Findings">
      <Filters key={href} view={view} />
      <Problem message={groups.error} />
      {groups.data && (
        <>
          <div
            className="table-wrap"
            tabIndex={0}
            role="region"
            aria-label={`Findings by ${FINDING_GROUP_BYS.label(by)}`}
          >
            <table>
              <thead>
                <tr>
                  <th scope="col">{FINDING_GROUP_BYS.label(by)}</th>
                  {SEVERITIES.values.map((s) => (
                    <th scope="col" key={s}>
                      {SEVERITIES.label(s)}
                    </th>
                  ))}
                  <th scope="col">Total</th>
                </tr>
              </thead>
              <tbody>
                {items.map((g) => (
                  <tr key={g.key ?? ''}>
                    <td>
                      {g.key === null ? g.label : <Link href={hrefOf(g.key)}>{g.label}</Link>}
                      {g.detail && <div className="sub names">{g.detail}</div>}
                    </td>
                    {SEVERITIES.values.map((s) => (
                      <td key={s}>{g.by_severity[s]}</td>
                    ))}
                    <td>{g.total}</td>
                  </tr>
                ))}
                {items.length === 0 && (
                  <tr>
                    <td colSpan={SEVERITIES.values.length + 2}>No findings match these filters.</td>
                  </tr>
                )}
              </tbody>
            </table>
          </div>
          <Pager
            page={groups.data.page}
            pages={groups.data.pages}
            total={groups.data.total}
            hrefOf={(p) => `/findings${queryString({ ...view, page: p })}`}
          />
        </>
      )}
    </Page>
  );
}

function UngroupedFindings() {
  const api = useApi(apiClientRef);
  const { query, href } = useLocation();
  const view = viewOf(query);
  const list = useLoad(
    () => api.GET('/api/v1/findings', { params: { query: apiQuery(view) } }),
    href,
    liveFindings,
  );
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [bulkStatus, setBulkStatus] = useState<Schemas['FindingStatus']>('in_progress');
  const [bulkNote, setBulkNote] = useState('');
  const [bulkReason, setBulkReason] = useState<Justified>({ justification: '', expiresOn: '' });
  const [note, setNote] = useState<string>();
  const [error, setError] = useState<string>();

  const items = list.data?.items ?? [];
  const allSelected = items.length > 0 && items.every((f) => selected.has(f.id));
  const toggle = (id: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const applyBulk = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    setNote(undefined);
    const { data, error: failure } = await api.POST('/api/v1/findings/bulk', {
      body: {
        finding_ids: [...selected],
        update: {
          status: bulkStatus,
          ...(bulkNote.trim() ? { notes: bulkNote.trim() } : {}),
          ...justified(bulkStatus, bulkReason),
        },
      },
    });
    if (!data) return setError(problem(failure));
    setNote(
      `${data.updated} finding${data.updated === 1 ? '' : 's'} set to ${FINDING_STATUSES.label(bulkStatus)}` +
        (data.failed.length ? `; ${data.failed.length} not changed` : '') +
        '.',
    );
    setSelected(new Set());
    setBulkNote('');
    setBulkReason({ justification: '', expiresOn: '' });
    await list.reload();
  };

  return (
    <Page
      title="Findings"
      actions={
        <span className="exports">
          Export this view:{' '}
          <a href={exportHref(view, 'csv')} download>
            CSV
          </a>{' '}
          <a href={exportHref(view, 'json')} download>
            JSON
          </a>{' '}
          <a href={exportHref(view, 'pdf')} download>
            PDF
          </a>
        </span>
      }
    >
      <Filters key={href} view={view} />
      <Problem message={list.error ?? error} />
      <Notice message={note} />
      <form className="bulk card" onSubmit={(e) => void applyBulk(e)} aria-label="Change selected findings">
        <span>{selected.size} selected</span>
        <label>
          New status
          <select
            name="bulk_status"
            value={bulkStatus}
            onChange={(e) => setBulkStatus(e.target.value as Schemas['FindingStatus'])}
          >
            <Options of={FINDING_STATUSES} />
          </select>
        </label>
        <JustificationFields status={bulkStatus} value={bulkReason} onChange={setBulkReason} />
        <label>
          Note (optional)
          <input name="bulk_note" value={bulkNote} onChange={(e) => setBulkNote(e.target.value)} />
        </label>
        <button type="submit" disabled={selected.size === 0}>
          Change status of selected
        </button>
      </form>
      {list.data && (
        <>
          <div className="table-wrap" tabIndex={0}>
            <table>
              <thead>
                <tr>
                  <th scope="col">
                    <input
                      type="checkbox"
                      aria-label="Select all on this page"
                      checked={allSelected}
                      onChange={() => setSelected(allSelected ? new Set() : new Set(items.map((f) => f.id)))}
                    />
                  </th>
                  <SortHeader view={view} sort="severity">
                    Severity
                  </SortHeader>
                  <th scope="col">Title</th>
                  <th scope="col">Target</th>
                  <th scope="col">Status</th>
                  <SortHeader view={view} sort="cvss_score">
                    CVSS
                  </SortHeader>
                  <SortHeader view={view} sort="created_at">
                    Detected
                  </SortHeader>
                  <th scope="col">Due</th>
                </tr>
              </thead>
              <tbody>
                {items.map((f) => (
                  <tr key={f.id}>
                    <td>
                      <input
                        type="checkbox"
                        aria-label={`Select ${f.title} on ${f.affected_component}`}
                        checked={selected.has(f.id)}
                        onChange={() => toggle(f.id)}
                      />
                    </td>
                    <td>
                      <Severity value={f.severity} />
                    </td>
                    <td>
                      <Link href={`/findings/${f.id}`}>{f.title}</Link>
                      <div className="sub">{f.affected_component}</div>
                    </td>
                    <td>{f.target}</td>
                    <td>
                      <Status value={f.status} />
                    </td>
                    <td>{f.cvss_score.toFixed(1)}</td>
                    <td>{when(f.detected_at)}</td>
                    <td>
                      <DueDate due={f.due_date} overdue={f.overdue} />
                    </td>
                  </tr>
                ))}
                {items.length === 0 && (
                  <tr>
                    <td colSpan={8}>No findings match these filters.</td>
                  </tr>
                )}
              </tbody>
            </table>
          </div>
          <Pager
            page={list.data.page}
            pages={list.data.pages}
            total={list.data.total}
            hrefOf={(p) => `/findings${queryString({ ...view, page: p })}`}
          />
        </>
      )}
    </Page>
  );
}
