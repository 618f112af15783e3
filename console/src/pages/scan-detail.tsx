import { useState } from 'react';
import { problem } from '../api/contract';
import { apiClientRef, useApi } from '../api/context';
import { SCAN_PHASES } from '../api/vocabulary';
import { useLoad } from '../data';
import { Link } from '../router';
import { DueDate, Notice, Page, Problem, Severity, Status, queryString, when } from '../ui';
import { Counts, isActive, Progress } from './scans';

/** One scan: live status, phases, current tool, counts, changes since the previous scan, its findings. */
export function ScanDetail({ id }: { id: string }) {
  const api = useApi(apiClientRef);
  const scan = useLoad(
    () => api.GET('/api/v1/scans/{scan_id}', { params: { path: { scan_id: id } } }),
    `scan/${id}`,
    (s) => (isActive(s.status) ? 2000 : undefined),
  );
  const s = scan.data;
  // The findings reload whenever the scan's status or count changes.
  const findings = useLoad(
    () =>
      api.GET('/api/v1/scans/{scan_id}/findings', {
        params: { path: { scan_id: id }, query: { per_page: 50 } },
      }),
    `scan/${id}/findings?status=${s?.status}&found=${s?.vulnerabilities_found}`,
  );
  const [note, setNote] = useState<string>();
  const [error, setError] = useState<string>();

  const cancel = async () => {
    const { data, error: failure } = await api.DELETE('/api/v1/scans/{scan_id}', {
      params: { path: { scan_id: id } },
    });
    if (data) setNote(data.message);
    else setError(problem(failure));
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
      <Notice message={note} />
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
            <dd>{s.scan_type}</dd>
            <dt>Ports</dt>
            <dd>{s.ports ?? 'default'}</dd>
            <dt>Frameworks</dt>
            <dd>{s.frameworks.length ? s.frameworks.join(', ') : '—'}</dd>
            <dt>Started</dt>
            <dd>{when(s.started_at ?? s.created_at)}</dd>
            <dt>Completed</dt>
            <dd>{when(s.completed_at)}</dd>
            <dt>Findings</dt>
            <dd>
              {s.vulnerabilities_found} (<Counts scan={s} />)
            </dd>
          </dl>
          {s.message && <p>{s.message}</p>}
          {s.error && <Problem message={s.error} />}
          <h2>Phases</h2>
          <ol className="phases">
            {[...s.phases_completed, ...s.phases_remaining].map((phase) => {
              const done = s.status === 'completed' || s.phases_completed.includes(phase);
              const current = !done && phase === s.phase && isActive(s.status);
              return (
                <li key={phase} className={done ? 'done' : current ? 'current' : ''}>
                  {SCAN_PHASES.label(phase)} — {done ? 'done' : current ? 'running' : 'to do'}
                </li>
              );
            })}
          </ol>
          {s.changes && (
            <>
              <h2>Changes since the previous scan</h2>
              <p className="changes">
                {s.changes.new} new · {s.changes.reopened} reopened · {s.changes.resolved} resolved ·{' '}
                {s.changes.unchanged} unchanged
              </p>
            </>
          )}
        </>
      )}
      <h2>Findings of this scan</h2>
      <Problem message={findings.error} />
      {findings.data && (
        <div className="table-wrap" tabIndex={0}>
          <table>
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
                  <td>
                    <Severity value={f.severity} />
                  </td>
                  <td>
                    <Link href={`/findings/${f.id}`}>{f.title}</Link>
                  </td>
                  <td>{f.affected_component}</td>
                  <td>
                    <Status value={f.status} />
                  </td>
                  <td>
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
