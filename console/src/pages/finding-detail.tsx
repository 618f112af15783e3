import { useState, type FormEvent } from 'react';
import { problem, type Schemas } from '../api/contract';
import { apiClientRef, useApi } from '../api/context';
import { FINDING_PRIORITIES, FINDING_STATUSES, FRAMEWORKS, REMEDIATION_PRIORITIES } from '../api/vocabulary';
import { useLoad, type Live } from '../data';
import { Markdown } from '../markdown';
import { Link } from '../router';
import { JustificationFields, justified, type Justified } from '../triage';
import { DueDate, Notice, Options, Page, Problem, Severity, Status, label, when } from '../ui';
import { AssetLink } from './asset-parts';
import { FindingTickets } from './finding-tickets';
import { SeenBy } from './finding-sources';

const cveLink = (id: string) => `https://nvd.nist.gov/vuln/detail/${encodeURIComponent(id)}`;
const cweLink = (id: string) => `https://cwe.mitre.org/data/definitions/${id.replace(/^CWE-/i, '')}.html`;

/**
 * The status form. It starts at the finding's status and follows it when someone else changes
 * it (another person, or the timer reopening a lapsed acceptance, seen through the event
 * stream): the choice, the reason and the last notice are reset then, so the form never offers
 * or reports a status the finding has left. The form's own change is not such a change.
 */
function ChangeStatus({ finding, onChanged }: { finding: Schemas['FindingDetail']; onChanged: () => void }) {
  const api = useApi(apiClientRef);
  const [status, setStatus] = useState<Schemas['FindingStatus']>(finding.status);
  const [notes, setNotes] = useState('');
  const [reason, setReason] = useState<Justified>({ justification: '', expiresOn: '' });
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<string>();
  // The finding's status at the last render, and the status this form saved last: a new status
  // that is not the saved one came from elsewhere. Adjusted while rendering, as React advises
  // for state that follows a prop.
  const [seen, setSeen] = useState(finding.status);
  const [saved, setSaved] = useState<Schemas['FindingStatus']>();
  if (finding.status !== seen) {
    setSeen(finding.status);
    setSaved(undefined);
    if (finding.status !== saved) {
      setStatus(finding.status);
      setReason({ justification: '', expiresOn: '' });
      setDone(undefined);
    }
  }
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    setDone(undefined);
    const { data, error: failure } = await api.PATCH('/api/v1/findings/{finding_id}', {
      params: { path: { finding_id: finding.id } },
      body: { status, ...(notes.trim() ? { notes: notes.trim() } : {}), ...justified(status, reason) },
    });
    if (!data) return setError(problem(failure));
    setSaved(data.status);
    setDone(`Status is now ${FINDING_STATUSES.label(data.status)}.`);
    setNotes('');
    setReason({ justification: '', expiresOn: '' });
    onChanged();
  };
  return (
    <form className="card" onSubmit={(e) => void submit(e)} aria-labelledby="change-status">
      <h2 id="change-status">Change status</h2>
      <label>
        Status
        <select
          name="status"
          value={status}
          onChange={(e) => setStatus(e.target.value as Schemas['FindingStatus'])}
        >
          <Options of={FINDING_STATUSES} />
        </select>
      </label>
      <JustificationFields status={status} value={reason} onChange={setReason} />
      <label>
        Note (optional)
        <textarea name="notes" rows={2} value={notes} onChange={(e) => setNotes(e.target.value)} />
      </label>
      <Problem message={error} />
      <Notice message={done} />
      <button type="submit">Save status</button>
    </form>
  );
}

/** `YYYY-MM-DD` of an ISO time in UTC, for a date box; empty when there is none. */
const dayOf = (iso: string | null) => (iso ? iso.slice(0, 10) : '');

/**
 * Who works on the finding, how urgent it is and by when: a person's due date replaces the one
 * the SLA set at detection (an empty box clears it, and the SLA does not set it again). The
 * assignee box suggests the organization's people as you type (a datalist over
 * `GET /findings/assignees`) and still takes any address the API accepts.
 */
export function Assignment({
  finding,
  onChanged,
}: {
  finding: Schemas['FindingDetail'];
  onChanged: () => void;
}) {
  const api = useApi(apiClientRef);
  const people = useLoad(() => api.GET('/api/v1/findings/assignees'), 'findings/assignees');
  const [assignee, setAssignee] = useState(finding.assignee ?? '');
  const [priority, setPriority] = useState<NonNullable<Schemas['FindingPriority']> | ''>(
    finding.priority ?? '',
  );
  const [due, setDue] = useState(dayOf(finding.due_date));
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<string>();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    setDone(undefined);
    const { data, error: failure } = await api.PATCH('/api/v1/findings/{finding_id}', {
      params: { path: { finding_id: finding.id } },
      body: {
        assignee: assignee.trim() || null,
        priority: priority || null,
        // The end of the chosen day, in UTC: due on that day means overdue after it.
        due_date: due ? `${due}T23:59:59.000Z` : null,
      },
    });
    if (!data) return setError(problem(failure));
    setDone('Assignment saved.');
    onChanged();
  };
  return (
    <form className="card" onSubmit={(e) => void submit(e)} aria-labelledby="assignment">
      <h2 id="assignment">Assignment</h2>
      <label>
        Assignee
        <input
          type="email"
          name="assignee"
          placeholder="e-mail"
          list="assignee-people"
          autoComplete="off"
          value={assignee}
          onChange={(e) => setAssignee(e.target.value)}
        />
      </label>
      <datalist id="assignee-people" data-testid="assignee-people">
        {(people.data?.items ?? []).map((person) => (
          <option key={person.email} value={person.email} />
        ))}
      </datalist>
      <label>
        Priority
        <select
          name="priority"
          value={priority}
          onChange={(e) => setPriority(e.target.value as NonNullable<Schemas['FindingPriority']> | '')}
        >
          <option value="">None</option>
          <Options of={FINDING_PRIORITIES} />
        </select>
      </label>
      <label>
        Due date
        <input type="date" name="due_date" value={due} onChange={(e) => setDue(e.target.value)} />
      </label>
      <Problem message={error} />
      <Notice message={done} />
      <button type="submit">Save assignment</button>
    </form>
  );
}

function Comments({ finding, onAdded }: { finding: Schemas['FindingDetail']; onAdded: () => void }) {
  const api = useApi(apiClientRef);
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    const { data, error: failure } = await api.POST('/api/v1/findings/{finding_id}/comments', {
      params: { path: { finding_id: finding.id } },
      body: { text: text.trim() },
    });
    if (!data) return setError(problem(failure));
    setText('');
    setError(undefined);
    onAdded();
  };
  return (
    <section aria-labelledby="comments">
      <h2 id="comments">Comments</h2>
      {finding.comments.length === 0 ? (
        <p>No comments yet.</p>
      ) : (
        <ul className="comments">
          {finding.comments.map((c) => (
            <li key={c.id}>
              <p>{c.text}</p>
              <p className="sub">
                {c.user}, {when(c.created_at)}
              </p>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={(e) => void submit(e)}>
        <label>
          Add a comment
          <textarea name="comment" rows={2} required value={text} onChange={(e) => setText(e.target.value)} />
        </label>
        <Problem message={error} />
        <button type="submit">Add comment</button>
      </form>
    </section>
  );
}

function AiAnalysis({ id }: { id: string }) {
  const api = useApi(apiClientRef);
  const [result, setResult] = useState<Schemas['AiAnalysisResponse']>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const ask = async () => {
    setError(undefined);
    setBusy(true);
    const { data, error: failure } = await api.GET('/api/v1/findings/{finding_id}/ai-analysis', {
      params: { path: { finding_id: id } },
    });
    setBusy(false);
    if (data) setResult(data);
    else setError(problem(failure));
  };
  return (
    <section aria-labelledby="ai">
      <h2 id="ai">AI analysis</h2>
      {!result ? (
        <>
          <p>
            A first analysis costs 1 AI credit of this month&apos;s allowance; asking again for the same
            finding is free.
          </p>
          <button type="button" onClick={() => void ask()} disabled={busy}>
            {busy ? 'Analysing…' : 'Analyse (1 credit)'}
          </button>
          <Problem message={error} />
        </>
      ) : (
        <div className="card">
          <p className="sub">
            {result.ai_credits_used} credit{result.ai_credits_used === 1 ? '' : 's'} used · source{' '}
            {result.source === 'builtin' ? 'built-in guidance' : result.source} · priority{' '}
            {REMEDIATION_PRIORITIES.label(result.ai_analysis.remediation_priority)}
          </p>
          <p>{result.ai_analysis.risk_assessment}</p>
          <h3>Attack scenarios</h3>
          <ul>
            {result.ai_analysis.attack_scenarios.map((s) => (
              <li key={s}>{s}</li>
            ))}
          </ul>
          <h3>Recommended actions</h3>
          <ol>
            {result.ai_analysis.recommended_actions.map((s) => (
              <li key={s}>{s}</li>
            ))}
          </ol>
        </div>
      )}
    </section>
  );
}

type Finding = Schemas['FindingDetail'];

/** The finding is read again when someone triages it or a scan finds it again. */
function liveFinding(id: string): Live<Finding> {
  return {
    on: (event) =>
      (event.type === 'finding.updated' || event.type === 'vulnerability.found') && event.data.id === id
        ? 'reload'
        : undefined,
  };
}

/** A history entry's statuses in words: `Open → In progress`. */
function statusWords(value: string | null): string {
  if (value === null) return '';
  return (FINDING_STATUSES.words as Record<string, string>)[value] ?? label(value);
}

/** The framework's name as people write it (`PCI DSS 4.0`), for a mapping's `name`. */
function frameworkName(name: string): string {
  return (FRAMEWORKS.words as Record<string, string>)[name] ?? name;
}

/** A finding: what, where, proof, how to fix, compliance, triage, comments, history. */
export function FindingDetail({ id }: { id: string }) {
  const api = useApi(apiClientRef);
  const {
    data: f,
    error,
    reload,
  } = useLoad(
    () => api.GET('/api/v1/findings/{finding_id}', { params: { path: { finding_id: id } } }),
    `finding/${id}`,
    liveFinding(id),
  );
  return (
    <Page title={f ? f.title : 'Finding'}>
      <p>
        <Link href="/findings">All findings</Link>
      </p>
      <Problem message={error} />
      {f && (
        <div className="detail">
          <div className="main-col">
            <dl className="facts">
              <dt>Severity</dt>
              <dd>
                <Severity value={f.severity} /> (CVSS {f.cvss_score.toFixed(1)}
                {f.cvss_vector ? `, ${f.cvss_vector}` : ''})
              </dd>
              <dt>Status</dt>
              <dd data-testid="finding-status">
                <Status value={f.status} />
              </dd>
              <dt>Due</dt>
              <dd data-testid="finding-due">
                <DueDate due={f.due_date} overdue={f.overdue} />
              </dd>
              <dt>Assignee</dt>
              <dd data-testid="finding-assignee">{f.assignee ?? 'Nobody'}</dd>
              <dt>Priority</dt>
              <dd data-testid="finding-priority">
                {f.priority ? FINDING_PRIORITIES.label(f.priority) : 'None'}
              </dd>
              <dt>Target</dt>
              <dd>{f.target}</dd>
              <dt>Component</dt>
              <dd>{f.affected_component}</dd>
              <dt>Asset</dt>
              <dd data-testid="finding-asset">
                {f.asset_id ? <AssetLink key={f.asset_id} id={f.asset_id} /> : 'None known yet'}
              </dd>
              <dt>Scan</dt>
              <dd>
                <Link href={`/scans/${f.scan_id}`}>{f.scan_id}</Link>
              </dd>
              <dt>Seen</dt>
              <dd>
                {f.times_seen}× · first {when(f.first_seen_at)} · last {when(f.last_seen_at)}
              </dd>
              <dt>CVE</dt>
              <dd>
                {f.cve_ids.length
                  ? f.cve_ids.map((c) => (
                      <a key={c} href={cveLink(c)} rel="noreferrer" target="_blank">
                        {c}
                      </a>
                    ))
                  : '—'}
              </dd>
              <dt>CWE</dt>
              <dd>
                {f.cwe_ids.length
                  ? f.cwe_ids.map((c) => (
                      <a key={c} href={cweLink(c)} rel="noreferrer" target="_blank">
                        {c}
                      </a>
                    ))
                  : '—'}
              </dd>
              {f.justification !== null && (
                <>
                  <dt>Justification</dt>
                  <dd data-testid="finding-justification">
                    {f.justification} ({f.justified_by ?? 'unknown'}, {when(f.justified_at)}
                    {f.acceptance_expires_at ? `; accepted until ${when(f.acceptance_expires_at)}` : ''})
                  </dd>
                </>
              )}
              <dt>EPSS</dt>
              <dd data-testid="finding-epss">
                {f.epss_score === null
                  ? '—'
                  : `${(f.epss_score * 100).toFixed(1)}% probability of exploitation in the next 30 days (FIRST EPSS, ${f.epss_snapshot_date ?? 'date unknown'})`}
              </dd>
              <dt>Established</dt>
              <dd>
                {f.evidence.established === 'inferred from version'
                  ? 'Inferred from the announced version'
                  : f.evidence.established === 'confirmed'
                    ? 'Confirmed by a probe'
                    : '—'}
              </dd>
            </dl>
            <h2>Description</h2>
            <Markdown text={f.description} />
            {f.impact && (
              <>
                <h2>Impact</h2>
                <p>{f.impact}</p>
              </>
            )}
            <h2>Evidence</h2>
            <h3>Request</h3>
            <pre tabIndex={0}>{f.evidence.request || '—'}</pre>
            <h3>Response</h3>
            <pre tabIndex={0}>{f.evidence.response || '—'}</pre>
            <h2>Remediation</h2>
            <div data-testid="remediation">
              <Markdown text={f.remediation.summary} />
              {f.remediation.steps.length > 0 && (
                <ol>
                  {f.remediation.steps.map((s) => (
                    <li key={s}>
                      <Markdown text={s} inline />
                    </li>
                  ))}
                </ol>
              )}
            </div>
            {f.remediation.code_example && (
              <>
                <h3>Example</h3>
                <pre tabIndex={0}>
                  <code>{f.remediation.code_example}</code>
                </pre>
              </>
            )}
            {f.remediation.references.length > 0 && (
              <ul className="references">
                {f.remediation.references.map((r) => (
                  <li key={r}>
                    <a href={r} rel="noreferrer" target="_blank">
                      {r}
                    </a>
                  </li>
                ))}
              </ul>
            )}
            <h2>Frameworks and controls</h2>
            {f.frameworks.length ? (
              <ul>
                {f.frameworks.map((m) => (
                  <li key={m.name}>
                    {frameworkName(m.name)}:{' '}
                    {m.control_details.map((c, i) => (
                      <span key={c.id}>
                        {i > 0 && ', '}
                        <Link href={`/compliance/${encodeURIComponent(c.id)}`}>
                          {c.reference} {c.name}
                        </Link>
                      </span>
                    ))}
                  </li>
                ))}
              </ul>
            ) : (
              <p>Not mapped to a control.</p>
            )}
            <AiAnalysis id={f.id} />
          </div>
          <div className="side-col">
            <ChangeStatus finding={f} onChanged={() => void reload()} />
            <Assignment key={f.updated_at} finding={f} onChanged={() => void reload()} />
            <FindingTickets finding={f} onChanged={() => void reload()} />
            <SeenBy sources={f.sources} />
            <Comments finding={f} onAdded={() => void reload()} />
            <section aria-labelledby="history">
              <h2 id="history">History</h2>
              <ol className="history">
                {f.history.map((h, i) => (
                  <li key={i}>
                    {label(h.action)}: {h.from ? `${statusWords(h.from)} → ` : ''}
                    {statusWords(h.to)}{' '}
                    <span className="sub">
                      by {h.user}, {when(h.timestamp)}
                    </span>
                    {h.justification && <p className="history-text">Justification: {h.justification}</p>}
                    {h.note && <p className="history-text">Note: {h.note}</p>}
                  </li>
                ))}
              </ol>
            </section>
          </div>
        </div>
      )}
    </Page>
  );
}
