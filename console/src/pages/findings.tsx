import { useState, type FormEvent } from 'react';
import { problem, type QueryOf, type Schemas } from '../api/contract';
import { apiClientRef, useApi } from '../api/context';
import { FINDING_STATUSES, SEVERITIES } from '../api/vocabulary';
import { useLoad, type Live } from '../data';
import { Link, navigate, useLocation } from '../router';
import { JustificationFields, justified, type Justified } from '../triage';
import { Notice, Options, Page, Pager, Problem, Severity, Status, queryString, when } from '../ui';

type Query = QueryOf<'listFindings'>;
type Sort = NonNullable<Query['sort']>;

/** The filters, sorting and page of the findings table: all of them live in the URL. */
const KEYS = ['severity', 'status', 'target', 'scan_id', 'tool', 'cve', 'sort', 'order', 'page'] as const;

function viewOf(query: URLSearchParams): Record<(typeof KEYS)[number], string> {
  const view = {} as Record<(typeof KEYS)[number], string>;
  for (const key of KEYS) view[key] = query.get(key) ?? '';
  return view;
}

function apiQuery(view: ReturnType<typeof viewOf>): Query {
  const q: Query = { per_page: 25, page: Number(view.page) || 1 };
  if (view.severity) q.severity = view.severity as Query['severity'];
  if (view.status) q.status = view.status as Query['status'];
  if (view.target) q.target = view.target;
  if (view.scan_id) q.scan_id = view.scan_id;
  if (view.tool) q.tool = view.tool;
  if (view.cve) q.cve = view.cve;
  if (view.sort) q.sort = view.sort as Sort;
  if (view.order) q.order = view.order as Query['order'];
  return q;
}

function Filters({ view }: { view: ReturnType<typeof viewOf> }) {
  const [target, setTarget] = useState(view.target);
  const [cve, setCve] = useState(view.cve);
  const go = (changes: Partial<ReturnType<typeof viewOf>>) =>
    navigate(`/findings${queryString({ ...view, ...changes, page: '' })}`);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    go({ target: target.trim(), cve: cve.trim() });
  };
  return (
    <form className="filters card" onSubmit={submit} aria-label="Filters">
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
          <Options of={FINDING_STATUSES} />
        </select>
      </label>
      <label>
        Target
        <input name="target" value={target} onChange={(e) => setTarget(e.target.value)} />
      </label>
      <label>
        CVE
        <input name="cve" value={cve} placeholder="CVE-2024-…" onChange={(e) => setCve(e.target.value)} />
      </label>
      <button type="submit">Apply filters</button>
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

function SortHeader(props: { view: ReturnType<typeof viewOf>; sort: Sort; children: string }) {
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

function exportHref(view: ReturnType<typeof viewOf>, format: string): string {
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

export function FindingList() {
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
                  </tr>
                ))}
                {items.length === 0 && (
                  <tr>
                    <td colSpan={7}>No findings match these filters.</td>
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
