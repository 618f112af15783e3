import { useState } from 'react';
import { problem } from '../api/contract';
import { apiClientRef, useApi } from '../api/context';
import type { Schemas } from '../api/contract';
import { FRAMEWORKS, SCAN_PHASES, SCAN_TYPES } from '../api/vocabulary';
import { useLoad, type Live } from '../data';
import { Link } from '../router';
import { confirmed, DueDate, Page, Problem, Severity, Status, queryString, when } from '../ui';
import { WebOptionsFacts } from './web-application-fields';
import { Counts, findingsOf, isActive, Progress, withProgress } from './scans';

type Scan = Schemas['ScanDetail'];
type ScanFindings = Schemas['ScanFindingList'];

/** The scan follows the stream: progress in place, a start or an end read again (counts, changes, timings). */
function liveScan(id: string): Live<Scan> {
  return {
    on(event, scan) {
      if (!event.type.startsWith('scan.') || (event.data as { id: string }).id !== id) return undefined;
      if (event.type !== 'scan.progress') return 'reload';
      const { phases_completed, current_tool } = event.data;
      const order = [...scan.phases_completed, ...scan.phases_remaining];
      return {
        ...withProgress(scan, event),
        phases_completed,
        phases_remaining: order.filter((p) => !phases_completed.includes(p)),
        ...(current_tool ? { current_tool } : { current_tool: undefined }),
      };
    },
  };
}

/** The scan's findings are read again when it finds, or someone triages, one of them, and when it ends. */
function liveScanFindings(id: string): Live<ScanFindings> {
  return {
    on(event, list) {
      switch (event.type) {
        case 'vulnerability.found':
          return event.data.scan_id === id ? 'reload' : undefined;
        case 'finding.updated':
          return list.items.some((f) => f.id === event.data.id) ? 'reload' : undefined;
        case 'scan.completed':
        case 'scan.failed':
          return event.data.id === id ? 'reload' : undefined;
        default:
          return undefined;
      }
    },
  };
}

/** Milliseconds as seconds with one decimal (`4.2 s`), minutes past a minute (`2 min 05 s`). */
export function duration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
}

/** Where the scan's time went: the wait for a runner, each phase done, the final step. */
function PhaseTimings({ scan }: { scan: Scan }) {
  const t = scan.phase_timings;
  const rows: Array<[string, number]> = [];
  if (t.queue_wait !== undefined) rows.push(['Waiting for a runner', t.queue_wait]);
  for (const phase of [...scan.phases_completed, ...scan.phases_remaining]) {
    const ms = phase === 'complete' ? undefined : t.phases[phase];
    if (ms !== undefined) rows.push([SCAN_PHASES.label(phase), ms]);
  }
  if (t.completion !== undefined) rows.push(['Completing', t.completion]);
  if (rows.length === 0) return null;
  return (
    <>
      <h2 id="timings">Phase timings</h2>
      <div className="table-wrap" tabIndex={0}>
        <table aria-labelledby="timings" data-testid="phase-timings">
          <thead>
            <tr>
              <th scope="col">Step</th>
              <th scope="col">Took</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(([name, ms]) => (
              <tr key={name}>
                <td>{name}</td>
                <td>{duration(ms)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** One scan: live status, phases, current tool, counts, changes since the previous scan, its findings. */
export function ScanDetail({ id }: { id: string }) {
  const api = useApi(apiClientRef);
  const scan = useLoad(
    () => api.GET('/api/v1/scans/{scan_id}', { params: { path: { scan_id: id } } }),
    `scan/${id}`,
    liveScan(id),
  );
  const s = scan.data;
  const findings = useLoad(
    () =>
      api.GET('/api/v1/scans/{scan_id}/findings', {
        params: { path: { scan_id: id }, query: { per_page: 50 } },
      }),
    `scan/${id}/findings`,
    liveScanFindings(id),
  );
  const [error, setError] = useState<string>();

  const cancel = async () => {
    if (!confirmed(`Cancel the scan of ${s?.target ?? 'this target'}? Its findings so far are kept.`)) return;
    setError(undefined);
    // The answer's message is the scan's: it shows once, from the scan read again.
    const { error: failure, response } = await api.DELETE('/api/v1/scans/{scan_id}', {
      params: { path: { scan_id: id } },
    });
    if (!response.ok) setError(problem(failure));
    await scan.reload();
  };

  return (
    <Page
      title={s ? `Scan of ${s.target}` : 'Scan'}
      actions={
        s && isActive(s.status) ? (
          <button type="button" className="danger" onClick={() => void cancel()}>
            Cancel scan
          </button>
        ) : undefined
      }
    >
      <p>
        <Link href="/scans">All scans</Link>
      </p>
      <Problem message={scan.error ?? error} />
      {s && (
        <>
          <dl className="facts">
            <dt>Status</dt>
            <dd data-testid="scan-status">
              <Status value={s.status} />
            </dd>
            <dt>Progress</dt>
            <dd>
              <Progress value={s.progress} label="Scan progress" />
            </dd>
            <dt>Phase</dt>
            <dd>{SCAN_PHASES.label(s.phase)}</dd>
            <dt>Current tool</dt>
            <dd>{s.current_tool ?? '—'}</dd>
            <dt>Type</dt>
            <dd data-testid="scan-label">
              {s.source === 'import' ? s.label : SCAN_TYPES.label(s.scan_type)}
            </dd>
            <dt>Ports</dt>
            <dd>{s.ports ?? 'default'}</dd>
            <dt>Frameworks</dt>
            <dd>{s.frameworks.length ? s.frameworks.map((f) => FRAMEWORKS.label(f)).join(', ') : '—'}</dd>
            <WebOptionsFacts web={s.web} />
            <dt>Started</dt>
            <dd>{when(s.started_at ?? s.created_at)}</dd>
            <dt>Completed</dt>
            <dd>{when(s.completed_at)}</dd>
            <dt>Findings</dt>
            <dd data-testid="scan-findings">
              {findingsOf(s)} (<Counts scan={s} />)
            </dd>
          </dl>
          {s.message && <p data-testid="scan-message">{s.message}</p>}
          {s.error && <Problem message={s.error} />}
          {s.source === 'import' ? (
            <p data-testid="scan-imported">
              Nothing ran here: {s.tool ?? 'another tool'} produced the report, and Scanward recorded its
              results.
            </p>
          ) : (
            <>
              <h2>Phases</h2>
              <ol className="phases">
                {[...s.phases_completed, ...s.phases_remaining].map((phase) => {
                  const skipped = phase === 'complete' ? undefined : s.phase_timings.skipped?.[phase];
                  const done = s.status === 'completed' || s.phases_completed.includes(phase);
                  const current = !done && phase === s.phase && isActive(s.status);
                  return (
                    <li
                      key={phase}
                      className={skipped ? 'skipped' : done ? 'done' : current ? 'current' : ''}
                    >
                      {SCAN_PHASES.label(phase)} —{' '}
                      {skipped ? `skipped: ${skipped}` : done ? 'done' : current ? 'running' : 'to do'}
                    </li>
                  );
                })}
              </ol>
            </>
          )}
          {s.changes && (
            <>
              <h2>Changes since the previous scan</h2>
              <p className="changes" data-testid="scan-changes">
                Of the {findingsOf(s)} findings: {s.changes.new} new · {s.changes.reopened} reopened ·{' '}
                {s.changes.unchanged} unchanged. {s.changes.resolved} resolved (not seen again).
              </p>
            </>
          )}
          <PhaseTimings scan={s} />
        </>
      )}
      <h2>Findings of this scan</h2>
      <Problem message={findings.error} />
      {findings.data && (
        <div className="table-wrap stacked" tabIndex={0}>
          <table aria-label="Findings of this scan">
            <thead>
              <tr>
                <th scope="col">Severity</th>
                <th scope="col">Title</th>
                <th scope="col">Component</th>
                <th scope="col">Status</th>
                <th scope="col">Due</th>
              </tr>
            </thead>
            <tbody>
              {findings.data.items.map((f) => (
                <tr key={f.id}>
                  <td data-label="Severity">
                    <Severity value={f.severity} />
                  </td>
                  <td data-label="Title">
                    <Link href={`/findings/${f.id}`}>{f.title}</Link>
                  </td>
                  <td data-label="Component">{f.affected_component}</td>
                  <td data-label="Status">
                    <Status value={f.status} />
                  </td>
                  <td data-label="Due">
                    <DueDate due={f.due_date} overdue={f.overdue} />
                  </td>
                </tr>
              ))}
              {findings.data.items.length === 0 && (
                <tr>
                  <td colSpan={5}>No findings (yet).</td>
                </tr>
              )}
            </tbody>
          </table>
          {findings.data.total > findings.data.items.length && (
            <p>
              <Link href={`/findings${queryString({ scan_id: id })}`}>
                All {findings.data.total} findings of this scan
              </Link>
            </p>
          )}
        </div>
      )}
    </Page>
  );
}
