import { useState, type FormEvent } from 'react';
import type { QueryOf } from '../api/contract';
import { apiClientRef, useApi } from '../api/context';
import { SEVERITIES } from '../api/vocabulary';
import { useLoad } from '../data';
import { Link, navigate, useLocation } from '../router';
import { Options, Page, Pager, Problem, queryString, when } from '../ui';
import { OpenFindings } from './asset-parts';

type Query = QueryOf<'listAssets'>;

/** The filters and page of the assets table: all of them live in the URL. */
const KEYS = ['q', 'has_open_findings', 'severity', 'eol', 'page'] as const;
type View = Record<(typeof KEYS)[number], string>;

function viewOf(query: URLSearchParams): View {
  const view = {} as View;
  for (const key of KEYS) view[key] = query.get(key) ?? '';
  return view;
}

function apiQuery(view: View): Query {
  const q: Query = { per_page: 25, page: Number(view.page) || 1 };
  if (view.q) q.q = view.q;
  if (view.has_open_findings === 'true' || view.has_open_findings === 'false')
    q.has_open_findings = view.has_open_findings;
  if (view.severity) q.severity = view.severity as Query['severity'];
  if (view.eol === 'true' || view.eol === 'false') q.eol = view.eol;
  return q;
}

function Filters({ view }: { view: View }) {
  const [q, setQ] = useState(view.q);
  const go = (changes: Partial<View>) =>
    navigate(`/inventory${queryString({ ...view, ...changes, page: '' })}`);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    go({ q: q.trim() });
  };
  return (
    <form className="filters card" onSubmit={submit} aria-label="Filters">
      <label>
        Address or name
        <input name="q" value={q} placeholder="127.0.0." onChange={(e) => setQ(e.target.value)} />
      </label>
      <label>
        Open findings
        <select
          name="has_open_findings"
          value={view.has_open_findings}
          onChange={(e) => go({ has_open_findings: e.target.value })}
        >
          <option value="">Any</option>
          <option value="true">Some open</option>
          <option value="false">None open</option>
        </select>
      </label>
      <label>
        With open of severity
        <select name="severity" value={view.severity} onChange={(e) => go({ severity: e.target.value })}>
          <option value="">Any</option>
          <Options of={SEVERITIES} />
        </select>
      </label>
      <label>
        End of life
        <select name="eol" value={view.eol} onChange={(e) => go({ eol: e.target.value })}>
          <option value="">Any</option>
          <option value="true">Runs end-of-life software</option>
          <option value="false">No end-of-life software</option>
        </select>
      </label>
      <button type="submit">Apply filters</button>
    </form>
  );
}

/** The asset inventory: every host the organization's scans and imports saw. */
export function AssetList() {
  const api = useApi(apiClientRef);
  const { query, href } = useLocation();
  const view = viewOf(query);
  const list = useLoad(() => api.GET('/api/v1/assets', { params: { query: apiQuery(view) } }), href);
  const items = list.data?.items ?? [];
  return (
    <Page title="Assets">
      <Filters key={href} view={view} />
      <Problem message={list.error} />
      {list.data && (
        <>
          <div className="table-wrap" tabIndex={0} role="region" aria-label="Assets">
            <table>
              <thead>
                <tr>
                  <th scope="col">Host</th>
                  <th scope="col">Services</th>
                  <th scope="col">End of life</th>
                  <th scope="col">Open findings</th>
                  <th scope="col">Last seen</th>
                </tr>
              </thead>
              <tbody>
                {items.map((a) => (
                  <tr key={a.id}>
                    <td>
                      <Link href={`/inventory/${a.id}`}>{a.address}</Link>
                      {a.names.length > 0 && <div className="sub names">{a.names.join(', ')}</div>}
                    </td>
                    <td>{a.service_count}</td>
                    <td>{a.end_of_life ? <span className="eol eol-end_of_life">End of life</span> : '—'}</td>
                    <td>
                      <OpenFindings assetId={a.id} open={a.open_findings} />
                    </td>
                    <td>{when(a.last_seen_at)}</td>
                  </tr>
                ))}
                {items.length === 0 && (
                  <tr>
                    <td colSpan={5}>
                      No assets match these filters. Assets appear when a scan or an imported report
                      completes.
                    </td>
                  </tr>
                )}
              </tbody>
            </table>
          </div>
          <Pager
            page={list.data.page}
            pages={list.data.pages}
            total={list.data.total}
            hrefOf={(p) => `/inventory${queryString({ ...view, page: p })}`}
          />
        </>
      )}
    </Page>
  );
}
