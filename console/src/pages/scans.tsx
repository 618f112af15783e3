import { useState, type FormEvent } from 'react';
import type { Schemas } from '../api/contract';
import { apiClientRef, useApi } from '../api/context';
import { SCAN_TYPES } from '../api/vocabulary';
import type { LiveEvent } from '../api/events';
import { useAction, useLoad, type Live } from '../data';
import { Link, navigate, useLocation } from '../router';
import { useMayChange } from '../session';
import { Page, Pager, Problem, queryString, Status, when } from '../ui';
import { DEFAULT_SCAN_OPTIONS, NOT_AUTHORIZED, scanRequestOf, ScanOptionsFields } from './scan-options';

export const isActive = (status: Schemas['ScanStatus']) => status === 'pending' || status === 'running';

/**
 * Every finding of a scan, informational ones included: the sum of the five counts. (The
 * API's `vulnerabilities_found` leaves out `info`; the scan's changes and findings list count
 * them, so the console shows this number beside them.)
 */
export const findingsOf = (scan: Schemas['ScanListItem']) =>
  scan.critical_count + scan.high_count + scan.medium_count + scan.low_count + scan.info_count;

/** The five severity counts of a scan, as text. */
export function Counts({ scan }: { scan: Schemas['ScanListItem'] }) {
  return (
    <span className="counts">
      <abbr title="critical">C</abbr> {scan.critical_count} · <abbr title="high">H</abbr> {scan.high_count} ·{' '}
      <abbr title="medium">M</abbr> {scan.medium_count} · <abbr title="low">L</abbr> {scan.low_count} ·{' '}
      <abbr title="informational">I</abbr> {scan.info_count}
    </span>
  );
}

/** A scan's progress as `scan.progress` says it (its list view's part of it). */
export function withProgress<S extends Schemas['ScanListItem']>(
  scan: S,
  event: Extract<LiveEvent, { type: 'scan.progress' }>,
): S {
  const { status, progress, phase } = event.data;
  return { ...scan, status, progress, phase };
}

/** The scans list follows the stream: progress in place; a new, started or finished scan as the event gives it. */
const liveScans: Live<Schemas['ScanList']> = {
  on(event, list) {
    if (event.type === 'scan.queued') return 'reload';
    if (!event.type.startsWith('scan.')) return undefined;
    const id = (event.data as { id: string }).id;
    if (!list.items.some((s) => s.id === id)) return undefined;
    const items = list.items.map((s) => {
      if (s.id !== id) return s;
      if (event.type === 'scan.progress') return withProgress(s, event);
      return { ...s, ...(event.data as Schemas['ScanListItem']) };
    });
    return { ...list, items };
  },
};

export function Progress({ value, label }: { value: number; label: string }) {
  return (
    <span className="progress">
      <progress max={100} value={value} aria-label={label} /> {value}%
    </span>
  );
}

function StartScan() {
  const api = useApi(apiClientRef);
  const [target, setTarget] = useState('');
  const [options, setOptions] = useState(DEFAULT_SCAN_OPTIONS);
  const action = useAction();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!options.authorized) return action.fail(NOT_AUTHORIZED);
    setBusy(true);
    const started = await action.act(
      api.POST('/api/v1/scans', { body: { target: target.trim(), ...scanRequestOf(options) } }),
      (data) => navigate(`/scans/${data.id}`),
    );
    if (!started) setBusy(false);
  };

  return (
    <form className="card start-scan" onSubmit={(e) => void submit(e)} aria-labelledby="start-scan">
      <h2 id="start-scan">Start a scan</h2>
      <ScanOptionsFields value={options} onChange={setOptions}>
        <label>
          Target
          <input
            name="target"
            required
            placeholder="example.com, 203.0.113.7 or 203.0.113.0/28"
            value={target}
            onChange={(e) => setTarget(e.target.value)}
          />
        </label>
      </ScanOptionsFields>
      <Problem message={action.error} />
      <button type="submit" disabled={busy}>
        Start scan
      </button>
    </form>
  );
}

export function ScanList() {
  const api = useApi(apiClientRef);
  // A viewer reads scans and starts none (the API's policy); the form is not offered.
  const mayStart = useMayChange('scans');
  const { query } = useLocation();
  const page = Number(query.get('page') ?? '1') || 1;
  const { data, error } = useLoad(
    () => api.GET('/api/v1/scans', { params: { query: { page, per_page: 20 } } }),
    `scans?page=${page}`,
    liveScans,
  );

  return (
    <Page title="Scans">
      {mayStart && <StartScan />}
      <Problem message={error} />
      {data && (
        <>
          <div className="table-wrap" tabIndex={0}>
            <table>
              <caption className="visually-hidden">Scans, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Target</th>
                  <th scope="col">Type</th>
                  <th scope="col">Status</th>
                  <th scope="col">Progress</th>
                  <th scope="col">Findings</th>
                  <th scope="col">Started</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((scan) => (
                  <tr key={scan.id}>
                    <td>
                      <Link href={`/scans/${scan.id}`}>{scan.target}</Link>
                    </td>
                    <td>{scan.source === 'import' ? scan.label : SCAN_TYPES.label(scan.scan_type)}</td>
                    <td>
                      <Status value={scan.status} />
                    </td>
                    <td>
                      <Progress value={scan.progress} label={`Progress of ${scan.target}`} />
                    </td>
                    <td>
                      <Counts scan={scan} />
                    </td>
                    <td>{when(scan.created_at)}</td>
                  </tr>
                ))}
                {data.items.length === 0 && (
                  <tr>
                    <td colSpan={6}>No scans yet: start one above.</td>
                  </tr>
                )}
              </tbody>
            </table>
          </div>
          <Pager
            page={data.page}
            pages={data.pages}
            total={data.total}
            hrefOf={(p) => `/scans${queryString({ page: p })}`}
          />
        </>
      )}
    </Page>
  );
}
