import { useState, type FormEvent } from 'react';
import { apiClientRef, useApi } from '../api/context';
import { EVIDENCE_KINDS, FRAMEWORKS } from '../api/vocabulary';
import { useAction, useLoad } from '../data';
import { useMayChange } from '../session';
import { Link } from '../router';
import { Notice, Page, Problem, Severity, Status, when } from '../ui';
import { ControlStatus } from './compliance';

function AddEvidence({ id, onAdded }: { id: string; onAdded: () => void }) {
  const api = useApi(apiClientRef);
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [url, setUrl] = useState('');
  const action = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await action.act(
      api.POST('/api/v1/controls/{control_id}/evidence', {
        params: { path: { control_id: id } },
        body: {
          title: title.trim(),
          description: description.trim(),
          ...(url.trim() ? { url: url.trim() } : {}),
        },
      }),
      (data) => {
        setTitle('');
        setDescription('');
        setUrl('');
        onAdded();
        return `Evidence “${data.title}” added.`;
      },
    );
  };
  return (
    <form className="card" onSubmit={(e) => void submit(e)} aria-labelledby="add-evidence">
      <h2 id="add-evidence">Add evidence</h2>
      <label>
        Title
        <input name="title" required value={title} onChange={(e) => setTitle(e.target.value)} />
      </label>
      <label>
        Description
        <textarea
          name="description"
          rows={3}
          required
          value={description}
          onChange={(e) => setDescription(e.target.value)}
        />
      </label>
      <label>
        Link (optional)
        <input name="url" type="url" value={url} onChange={(e) => setUrl(e.target.value)} />
      </label>
      <Problem message={action.error} />
      <Notice message={action.notice} />
      <button type="submit">Add evidence</button>
    </form>
  );
}

/** A control: its status, its failing findings and its evidence (added by a member or an admin, docs/roles.md). */
export function ControlDetail({ id }: { id: string }) {
  const api = useApi(apiClientRef);
  const mayAddEvidence = useMayChange('evidence');
  const {
    data: c,
    error,
    reload,
  } = useLoad(
    () => api.GET('/api/v1/controls/{control_id}', { params: { path: { control_id: id } } }),
    `control/${id}`,
  );
  return (
    <Page title={c ? `${c.reference} ${c.name}` : 'Control'}>
      <p>
        <Link href="/compliance">All controls</Link>
      </p>
      <Problem message={error} />
      {c && (
        <div className="detail">
          <div className="main-col">
            <dl className="facts">
              <dt>Status</dt>
              <dd>
                <ControlStatus value={c.status} />
              </dd>
              <dt>Frameworks</dt>
              <dd>{c.frameworks.map((f) => FRAMEWORKS.label(f)).join(', ')}</dd>
              <dt>Evidence</dt>
              <dd>{c.evidence_count}</dd>
            </dl>
            <p>{c.description}</p>
            <h2>Failing findings ({c.findings_total})</h2>
            <div className="table-wrap" tabIndex={0}>
              <table>
                <thead>
                  <tr>
                    <th scope="col">Severity</th>
                    <th scope="col">Title</th>
                    <th scope="col">Target</th>
                    <th scope="col">Status</th>
                  </tr>
                </thead>
                <tbody>
                  {c.findings.map((f) => (
                    <tr key={f.id}>
                      <td>
                        <Severity value={f.severity} />
                      </td>
                      <td>
                        <Link href={`/findings/${f.id}`}>{f.title}</Link>
                      </td>
                      <td>{f.target}</td>
                      <td>
                        <Status value={f.status} />
                      </td>
                    </tr>
                  ))}
                  {c.findings.length === 0 && (
                    <tr>
                      <td colSpan={4}>No open finding fails this control.</td>
                    </tr>
                  )}
                </tbody>
              </table>
            </div>
            <h2>Evidence</h2>
            {c.evidence.length === 0 ? (
              <p>No evidence yet.</p>
            ) : (
              <ul className="evidence">
                {c.evidence.map((e) => (
                  <li key={e.id}>
                    <strong>{e.title}</strong> ({EVIDENCE_KINDS.label(e.kind)}, {when(e.created_at)})
                    {e.description && <p>{e.description}</p>}
                    {e.url && (
                      <a href={e.url} rel="noreferrer" target="_blank">
                        {e.url}
                      </a>
                    )}
                    {e.scan_id && <Link href={`/scans/${e.scan_id}`}>Scan {e.scan_id}</Link>}
                  </li>
                ))}
              </ul>
            )}
          </div>
          <div className="side-col">
            {mayAddEvidence && <AddEvidence id={c.id} onAdded={() => void reload()} />}
          </div>
        </div>
      )}
    </Page>
  );
}
