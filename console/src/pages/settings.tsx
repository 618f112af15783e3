import { useState, type FormEvent, type ReactNode } from 'react';
import { api, problem, type Schemas } from '../api/client';
import { useSession } from '../session';
import { Notice, Page, Problem, label, useLoad, when } from '../ui';

/** One section of the settings page: a heading and what belongs under it. */
function Section(props: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="card settings-section" aria-labelledby={props.id}>
      <h2 id={props.id}>{props.title}</h2>
      {props.children}
    </section>
  );
}

/** The shown-once secret of a new API key or webhook. */
function Secret({ what, value }: { what: string; value: string | undefined }) {
  if (!value) return null;
  return (
    <div className="secret" role="status">
      <p>The {what} is shown only now; copy it somewhere safe:</p>
      <code data-testid="secret">{value}</code>
    </div>
  );
}

function Quota() {
  const { session } = useSession();
  const quota = useLoad(async () => {
    const result = await api.GET('/api/v1/scans/quota');
    const h = result.response.headers;
    return result.data
      ? {
          data: {
            quota: result.data,
            limit: h.get('X-RateLimit-Limit'),
            remaining: h.get('X-RateLimit-Remaining'),
            reset: h.get('X-RateLimit-Reset'),
          },
        }
      : { error: result.error };
  }, 'quota');
  const q = quota.data;
  return (
    <Section id="quota" title="Organization, quota and rate limit">
      <Problem message={quota.error} />
      <dl className="facts">
        <dt>Organization</dt>
        <dd>
          {session.organization.name} ({session.organization.plan} plan)
        </dd>
        <dt>Signed in as</dt>
        <dd>
          {session.user.email} ({session.user.role})
        </dd>
        {q && (
          <>
            <dt>Scans this month</dt>
            <dd>
              {q.quota.used_this_month} of {q.quota.monthly_limit < 0 ? 'unlimited' : q.quota.monthly_limit} (
              {q.quota.remaining < 0 ? 'unlimited' : q.quota.remaining} left, resets {when(q.quota.resets_at)}
              )
            </dd>
            <dt>API requests</dt>
            <dd>
              {q.limit
                ? `${q.remaining} of ${q.limit} left in this window (resets ${when(
                    new Date(Number(q.reset) * 1000).toISOString(),
                  )})`
                : 'unlimited'}
            </dd>
          </>
        )}
      </dl>
    </Section>
  );
}

function Schedules() {
  const list = useLoad(
    () => api.GET('/api/v1/scans/schedules', { params: { query: { per_page: 100 } } }),
    's',
  );
  const [target, setTarget] = useState('');
  const [frequency, setFrequency] = useState<Schemas['ScheduleFrequency']>('weekly');
  const [hour, setHour] = useState('3');
  const [authorized, setAuthorized] = useState(false);
  const [error, setError] = useState<string>();
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

  const create = async (event: FormEvent) => {
    event.preventDefault();
    if (!authorized) return setError('Confirm that you are authorized to scan this target.');
    const { data, error: failure } = await api.POST('/api/v1/scans/schedules', {
      body: {
        target: target.trim(),
        frequency,
        hour: Number(hour),
        timezone: zone,
        authorized: true,
        ...(frequency === 'weekly' ? { day_of_week: 1 } : {}),
        ...(frequency === 'monthly' ? { day_of_month: 1 } : {}),
      },
    });
    if (!data) return setError(problem(failure));
    setError(undefined);
    setTarget('');
    await list.reload();
  };
  const remove = async (id: string) => {
    const { error: failure } = await api.DELETE('/api/v1/scans/schedules/{schedule_id}', {
      params: { path: { schedule_id: id } },
    });
    if (failure) setError(problem(failure));
    await list.reload();
  };

  return (
    <Section id="schedules" title="Scheduled scans">
      <Problem message={list.error ?? error} />
      {list.data && (
        <div className="table-wrap" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Target</th>
                <th scope="col">When</th>
                <th scope="col">Next run</th>
                <th scope="col">Last run</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((s) => (
                <tr key={s.id}>
                  <td>
                    {s.target} ({s.scan_type})
                  </td>
                  <td>
                    {label(s.frequency)} at {s.hour}:00 {s.timezone}
                  </td>
                  <td>{when(s.next_run_at)}</td>
                  <td>
                    {when(s.last_run_at)}
                    {s.last_error ? ` — ${s.last_error}` : ''}
                  </td>
                  <td>
                    <button type="button" className="link" onClick={() => void remove(s.id)}>
                      Delete schedule of {s.target}
                    </button>
                  </td>
                </tr>
              ))}
              {list.data.items.length === 0 && (
                <tr>
                  <td colSpan={5}>No schedules.</td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      )}
      <form onSubmit={(e) => void create(e)} className="row">
        <label>
          Schedule target
          <input name="schedule_target" required value={target} onChange={(e) => setTarget(e.target.value)} />
        </label>
        <label>
          Frequency
          <select
            name="frequency"
            value={frequency}
            onChange={(e) => setFrequency(e.target.value as Schemas['ScheduleFrequency'])}
          >
            <option value="daily">Daily</option>
            <option value="weekly">Weekly (Mondays)</option>
            <option value="monthly">Monthly (the 1st)</option>
          </select>
        </label>
        <label>
          Hour ({zone})
          <input
            name="hour"
            type="number"
            min={0}
            max={23}
            required
            value={hour}
            onChange={(e) => setHour(e.target.value)}
          />
        </label>
        <label className="inline">
          <input type="checkbox" checked={authorized} onChange={(e) => setAuthorized(e.target.checked)} /> I
          am authorized to scan this target
        </label>
        <button type="submit">Add schedule</button>
      </form>
    </Section>
  );
}

const EVENTS: Schemas['CreateWebhookRequest']['events'] = [
  'scan.started',
  'scan.completed',
  'scan.failed',
  'vulnerability.critical',
  'vulnerability.found',
];

function Deliveries({ webhookId }: { webhookId: string }) {
  const list = useLoad(
    () =>
      api.GET('/api/v1/webhooks/{webhook_id}/deliveries', {
        params: { path: { webhook_id: webhookId }, query: { per_page: 20 } },
      }),
    webhookId,
  );
  const [note, setNote] = useState<string>();
  const redeliver = async (id: string) => {
    const { data, error } = await api.POST(
      '/api/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver',
      {
        params: { path: { webhook_id: webhookId, delivery_id: id } },
      },
    );
    setNote(data ? 'Queued for redelivery.' : problem(error));
    await list.reload();
  };
  if (list.error) return <Problem message={list.error} />;
  if (!list.data) return null;
  if (list.data.items.length === 0) return <p>No deliveries yet.</p>;
  return (
    <>
      <Notice message={note} />
      <table>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Status</th>
            <th scope="col">Answer</th>
            <th scope="col">Attempts</th>
            <th scope="col">When</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {list.data.items.map((d) => (
            <tr key={d.id}>
              <td>{d.event}</td>
              <td>{label(d.status)}</td>
              <td>{d.status_code ?? d.error ?? '—'}</td>
              <td>{d.attempts}</td>
              <td>{when(d.created_at)}</td>
              <td>
                <button type="button" className="link" onClick={() => void redeliver(d.id)}>
                  Redeliver
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function Webhooks() {
  const list = useLoad(() => api.GET('/api/v1/webhooks', { params: { query: { per_page: 100 } } }), 'w');
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<typeof EVENTS>(['scan.completed']);
  const [secret, setSecret] = useState<string>();
  const [open, setOpen] = useState<string>();
  const [error, setError] = useState<string>();
  const create = async (event: FormEvent) => {
    event.preventDefault();
    const { data, error: failure } = await api.POST('/api/v1/webhooks', {
      body: { url: url.trim(), events },
    });
    if (!data) return setError(problem(failure));
    setError(undefined);
    setSecret(data.secret);
    setUrl('');
    await list.reload();
  };
  const remove = async (id: string) => {
    const { error: failure } = await api.DELETE('/api/v1/webhooks/{webhook_id}', {
      params: { path: { webhook_id: id } },
    });
    if (failure) setError(problem(failure));
    await list.reload();
  };
  return (
    <Section id="webhooks" title="Webhooks">
      <Problem message={list.error ?? error} />
      <Secret what="signing secret" value={secret} />
      {list.data?.items.map((w) => (
        <div key={w.id} className="webhook">
          <p>
            <strong>{w.url}</strong> — {w.events.join(', ')} —{' '}
            {w.active ? 'active' : `off (${w.disabled_reason})`}
          </p>
          <button type="button" className="link" onClick={() => setOpen(open === w.id ? undefined : w.id)}>
            {open === w.id ? 'Hide deliveries' : 'Show deliveries'}
          </button>{' '}
          <button type="button" className="link" onClick={() => void remove(w.id)}>
            Delete webhook
          </button>
          {open === w.id && <Deliveries webhookId={w.id} />}
        </div>
      ))}
      {list.data?.items.length === 0 && <p>No webhooks.</p>}
      <form onSubmit={(e) => void create(e)}>
        <label>
          Webhook URL
          <input
            name="webhook_url"
            type="url"
            required
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
        </label>
        <fieldset>
          <legend>Events</legend>
          {EVENTS.map((e) => (
            <label key={e} className="inline">
              <input
                type="checkbox"
                checked={events.includes(e)}
                onChange={() => setEvents((l) => (l.includes(e) ? l.filter((x) => x !== e) : [...l, e]))}
              />{' '}
              {e}
            </label>
          ))}
        </fieldset>
        <button type="submit">Add webhook</button>
      </form>
    </Section>
  );
}

const PERMISSIONS: Schemas['ApiKeyCreate']['permissions'] = [
  'read:scans',
  'write:scans',
  'read:findings',
  'write:findings',
  'read:grc',
  'write:grc',
];

function ApiKeys() {
  const list = useLoad(() => api.GET('/api/v1/api-keys', { params: { query: { per_page: 100 } } }), 'k');
  const [name, setName] = useState('');
  const [permissions, setPermissions] = useState<typeof PERMISSIONS>(['read:scans', 'read:findings']);
  const [secret, setSecret] = useState<string>();
  const [error, setError] = useState<string>();
  const create = async (event: FormEvent) => {
    event.preventDefault();
    const { data, error: failure } = await api.POST('/api/v1/api-keys', {
      body: { name: name.trim(), permissions },
    });
    if (!data) return setError(problem(failure));
    setError(undefined);
    setSecret(data.key);
    setName('');
    await list.reload();
  };
  const revoke = async (id: string) => {
    const { error: failure } = await api.DELETE('/api/v1/api-keys/{key_id}', {
      params: { path: { key_id: id } },
    });
    if (failure) setError(problem(failure));
    setSecret(undefined);
    await list.reload();
  };
  return (
    <Section id="api-keys" title="API keys">
      <Problem message={list.error ?? error} />
      <Secret what="API key" value={secret} />
      {list.data && (
        <div className="table-wrap" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Permissions</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((k) => (
                <tr key={k.id}>
                  <td>{k.name}</td>
                  <td>
                    <code>{k.prefix}…</code>
                  </td>
                  <td>{k.permissions.join(', ')}</td>
                  <td>{when(k.last_used_at)}</td>
                  <td>
                    <button type="button" className="link" onClick={() => void revoke(k.id)}>
                      Revoke {k.name}
                    </button>
                  </td>
                </tr>
              ))}
              {list.data.items.length === 0 && (
                <tr>
                  <td colSpan={5}>No API keys.</td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      )}
      <form onSubmit={(e) => void create(e)}>
        <label>
          Key name
          <input name="key_name" required value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <fieldset>
          <legend>Permissions</legend>
          {PERMISSIONS.map((p) => (
            <label key={p} className="inline">
              <input
                type="checkbox"
                checked={permissions.includes(p)}
                onChange={() => setPermissions((l) => (l.includes(p) ? l.filter((x) => x !== p) : [...l, p]))}
              />{' '}
              {p}
            </label>
          ))}
        </fieldset>
        <button type="submit">Create API key</button>
      </form>
    </Section>
  );
}

function Sessions() {
  const list = useLoad(() => api.GET('/api/v1/auth/sessions', { params: { query: { per_page: 100 } } }), 'x');
  const [error, setError] = useState<string>();
  const revoke = async (id: string) => {
    const { error: failure } = await api.DELETE('/api/v1/auth/sessions/{session_id}', {
      params: { path: { session_id: id } },
    });
    if (failure) setError(problem(failure));
    await list.reload();
  };
  return (
    <Section id="sessions" title="Sessions">
      <Problem message={list.error ?? error} />
      {list.data && (
        <div className="table-wrap" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Signed in</th>
                <th scope="col">From</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((s) => (
                <tr key={s.id}>
                  <td>{when(s.created_at)}</td>
                  <td>
                    {s.ip_address ?? '—'} <span className="sub">{s.user_agent?.slice(0, 60)}</span>
                  </td>
                  <td>{when(s.last_used_at)}</td>
                  <td>
                    {s.current ? (
                      'This session'
                    ) : (
                      <button type="button" className="link" onClick={() => void revoke(s.id)}>
                        Revoke session
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Section>
  );
}

function Mfa() {
  const { session, refresh } = useSession();
  const [setup, setSetup] = useState<Schemas['MfaSetup']>();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [note, setNote] = useState<string>();
  const start = async () => {
    const { data, error: failure } = await api.POST('/api/v1/auth/mfa/setup');
    if (data) setSetup(data);
    else setError(problem(failure));
  };
  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    const call = session.user.mfa_enabled
      ? api.DELETE('/api/v1/auth/mfa', { body: { code } })
      : api.POST('/api/v1/auth/mfa/verify', { body: { code } });
    const { data, error: failure } = await call;
    if (!data) return setError(problem(failure));
    setError(undefined);
    setSetup(undefined);
    setCode('');
    setNote(data.mfa_enabled ? 'MFA is on.' : 'MFA is off.');
    await refresh();
  };
  return (
    <Section id="mfa" title="Two-factor authentication (MFA)">
      <p>MFA is {session.user.mfa_enabled ? 'on' : 'off'} for your account.</p>
      <Notice message={note} />
      <Problem message={error} />
      {!session.user.mfa_enabled && !setup && (
        <button type="button" onClick={() => void start()}>
          Set up MFA
        </button>
      )}
      {setup && (
        <div className="secret">
          <p>Add this secret to your authenticator app, then enter the code it shows:</p>
          <code>{setup.secret}</code>
          <p className="sub">{setup.otpauth_uri}</p>
        </div>
      )}
      {(setup || session.user.mfa_enabled) && (
        <form onSubmit={(e) => void confirm(e)} className="row">
          <label>
            {session.user.mfa_enabled ? 'Current code, to turn MFA off' : 'Code from the app'}
            <input
              name="mfa_code"
              inputMode="numeric"
              pattern="[0-9]{6}"
              required
              value={code}
              onChange={(e) => setCode(e.target.value.trim())}
            />
          </label>
          <button type="submit">{session.user.mfa_enabled ? 'Turn MFA off' : 'Turn MFA on'}</button>
        </form>
      )}
    </Section>
  );
}

export function Settings() {
  return (
    <Page title="Settings">
      <Quota />
      <Schedules />
      <Webhooks />
      <ApiKeys />
      <Sessions />
      <Mfa />
    </Page>
  );
}
