import { useState, type FormEvent } from 'react';
import { problem, type Schemas } from '../api/contract';
import { apiClientRef, useApi } from '../api/context';
import { FRAMEWORKS, SCAN_TYPES } from '../api/vocabulary';
import type { LiveEvent } from '../api/events';
import { useLoad, type Live } from '../data';
import { Link, navigate, useLocation } from '../router';
import { useSession } from '../session';
import { Choices, Options, Page, Pager, Problem, queryString, Status, when } from '../ui';

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
  const [scanType, setScanType] = useState<Schemas['ScanType']>('quick');
  const [ports, setPorts] = useState('');
  const [frameworks, setFrameworks] = useState<Schemas['Framework'][]>([]);
  const [authorized, setAuthorized] = useState(false);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!authorized) return setError('Confirm that you are authorized to scan this target.');
    setError(undefined);
    setBusy(true);
    const { data, error: failure } = await api.POST('/api/v1/scans', {
      body: {
        target: target.trim(),
        scan_type: scanType,
        authorized: true,
        ...(ports.trim() ? { ports: ports.trim() } : {}),
        ...(frameworks.length ? { frameworks } : {}),
      },
    });
    setBusy(false);
    if (data) return navigate(`/scans/${data.id}`);
    setError(problem(failure));
  };

  return (
    <form className="card start-scan" onSubmit={(e) => void submit(e)} aria-labelledby="start-scan">
      <h2 id="start-scan">Start a scan</h2>
      <div className="row">
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
        <label>
          Scan type
          <select
            name="scan_type"
            value={scanType}
            onChange={(e) => setScanType(e.target.value as Schemas['ScanType'])}
          >
            <Options of={SCAN_TYPES} />
          </select>
        </label>
        <label>
          Ports (optional)
          <input
            name="ports"
            placeholder="22,80,443 or 1-1024"
            value={ports}
            onChange={(e) => setPorts(e.target.value)}
          />
        </label>
      </div>
      <Choices legend="Frameworks" of={FRAMEWORKS} chosen={frameworks} onChange={setFrameworks} />
      <label className="inline">
        <input type="checkbox" checked={authorized} onChange={(e) => setAuthorized(e.target.checked)} /> I am
        authorized to scan this target
      </label>
      <Problem message={error} />
      <button type="submit" disabled={busy}>
        Start scan
      </button>
    </form>
  );
}

export function ScanList() {
  const api = useApi(apiClientRef);
  // A viewer reads scans and starts none (the API's policy); the form is not offered.
  const { session } = useSession();
  const { query } = useLocation();
  const page = Number(query.get('page') ?? '1') || 1;
  const { data, error } = useLoad(
    () => api.GET('/api/v1/scans', { params: { query: { page, per_page: 20 } } }),
    `scans?page=${page}`,
    liveScans,
  );

  return (
    <Page title="Scans">
      {session.user.role !== 'viewer' && <StartScan />}
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
                    <td>{SCAN_TYPES.label(scan.scan_type)}</td>
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
