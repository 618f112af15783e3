import { useState, type FormEvent } from 'react';
import { apiClientRef, useApi } from '../../api/context';
import { useAction, useCollection } from '../../data';
import { confirmed, Problem, when } from '../../ui';
import { ItemTable, Secret, Section } from './section';

/**
 * Settings → Integrations (docs/integrations.md): the organization's Slack, Teams, GitHub,
 * Jira and e-mail integrations (secrets write-only; a tracker's receiver secret shown once),
 * a test for each, the notification rules, and the deliveries that died (dead letters) with
 * a retry.
 */

type IntegrationType = 'slack' | 'teams' | 'github' | 'jira' | 'email';
type NotificationEvent = 'vulnerability.found' | 'scan.failed' | 'sla.breached';

const FIELDS: Record<
  IntegrationType,
  ReadonlyArray<{ name: string; label: string; secret?: boolean; optional?: boolean }>
> = {
  slack: [{ name: 'webhook_url', label: 'Incoming webhook URL', secret: true }],
  teams: [{ name: 'webhook_url', label: 'Incoming webhook URL', secret: true }],
  github: [
    { name: 'repository', label: 'Repository (owner/name)' },
    { name: 'token', label: 'Token (issues: write)', secret: true },
    { name: 'api_url', label: 'API URL (GitHub Enterprise Server only)', optional: true },
  ],
  jira: [
    { name: 'base_url', label: 'Jira URL' },
    { name: 'email', label: 'Account e-mail (Jira Cloud; empty for Server/Data Center)', optional: true },
    { name: 'api_token', label: 'API token or personal access token', secret: true },
    { name: 'project_key', label: 'Project key' },
    { name: 'issue_type', label: 'Issue type (default Task)', optional: true },
  ],
  email: [{ name: 'to', label: 'Recipients (comma-separated)' }],
};

export function Integrations() {
  const api = useApi(apiClientRef);
  const integrations = useCollection('settings/integrations', () =>
    api.GET('/api/v1/integrations', { params: { query: { per_page: 100 } } }),
  );
  const rules = useCollection('settings/notification-rules', () =>
    api.GET('/api/v1/notification-rules', { params: { query: { per_page: 100 } } }),
  );
  const dead = useCollection('settings/notification-dead', () =>
    api.GET('/api/v1/notification-deliveries', { params: { query: { status: 'dead', per_page: 50 } } }),
  );
  const [type, setType] = useState<IntegrationType>('slack');
  const [name, setName] = useState('');
  const [values, setValues] = useState<Record<string, string>>({});
  const [secret, setSecret] = useState<string>();
  const [ruleFor, setRuleFor] = useState('');
  const [ruleEvents, setRuleEvents] = useState<NotificationEvent[]>(['vulnerability.found']);
  const [minSeverity, setMinSeverity] = useState<'info' | 'low' | 'medium' | 'high' | 'critical'>('critical');
  const tested = useAction();

  const create = (event: FormEvent) => {
    event.preventDefault();
    const config: Record<string, unknown> = {};
    for (const field of FIELDS[type]) {
      const value = (values[field.name] ?? '').trim();
      if (!value) continue;
      config[field.name] = field.name === 'to' ? value.split(',').map((s) => s.trim()) : value;
    }
    void integrations.act(
      api.POST('/api/v1/integrations', { body: { type, name: name.trim(), config } }),
      (made) => {
        setSecret(made.receiver_secret ?? undefined);
        setName('');
        setValues({});
      },
    );
  };
  const remove = (id: string, label: string) => {
    if (!confirmed(`Remove the integration ${label}? Its rules go with it.`)) return;
    void integrations.act(
      api.DELETE('/api/v1/integrations/{integration_id}', { params: { path: { integration_id: id } } }),
    );
  };
  const test = async (id: string) => {
    await tested.act(
      api.POST('/api/v1/integrations/{integration_id}/test', { params: { path: { integration_id: id } } }),
      (data) => `Test ${data.status}${data.error ? `: ${data.error}` : ''}`,
    );
    await dead.reload();
  };
  const tracker = (id: string) =>
    integrations.items?.find((i) => i.id === id && (i.type === 'github' || i.type === 'jira'));
  const addRule = (event: FormEvent) => {
    event.preventDefault();
    void rules.act(
      api.POST('/api/v1/notification-rules', {
        body: {
          integration_id: ruleFor,
          events: ruleEvents,
          min_severity: minSeverity,
          action: tracker(ruleFor) ? 'ticket' : 'message',
        },
      }),
    );
  };

  return (
    <Section id="integrations" title="Integrations">
      <Problem message={integrations.error ?? rules.error ?? dead.error} />
      <Secret what="receiver secret (set it as the secret of the tracker's webhook)" value={secret} />
      {tested.error && <p role="status">Test could not be sent: {tested.error}</p>}
      {tested.notice && <p role="status">{tested.notice}</p>}
      <ItemTable
        items={integrations.items ?? []}
        empty="No integrations."
        columns={[
          { header: 'Name', cell: (i) => i.name },
          { header: 'Type', cell: (i) => i.type },
          {
            header: 'Settings',
            cell: (i) =>
              Object.entries(i.config)
                .map(([k, v]) => `${k}: ${String(v)}`)
                .join('; '),
          },
          { header: 'Receiver', cell: (i) => i.receiver_url ?? '—' },
        ]}
        actions={(i) => (
          <>
            <button type="button" className="link" onClick={() => void test(i.id)}>
              Send a test
            </button>{' '}
            <button type="button" className="link" onClick={() => remove(i.id, i.name)}>
              Remove
            </button>
          </>
        )}
      />
      <form onSubmit={create}>
        <label>
          Type
          <select value={type} onChange={(e) => setType(e.target.value as IntegrationType)}>
            <option value="slack">Slack</option>
            <option value="teams">Microsoft Teams</option>
            <option value="github">GitHub Issues</option>
            <option value="jira">Jira</option>
            <option value="email">E-mail</option>
          </select>
        </label>
        <label>
          Name
          <input required value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        {FIELDS[type].map((field) => (
          <label key={field.name}>
            {field.label}
            <input
              type={field.secret ? 'password' : 'text'}
              autoComplete="off"
              required={!field.optional}
              value={values[field.name] ?? ''}
              onChange={(e) => setValues({ ...values, [field.name]: e.target.value })}
            />
          </label>
        ))}
        <button type="submit">Add integration</button>
      </form>

      <h3>Notification rules</h3>
      <ItemTable
        items={rules.items ?? []}
        empty="No rules."
        columns={[
          {
            header: 'Integration',
            cell: (r) => integrations.items?.find((i) => i.id === r.integration_id)?.name ?? r.integration_id,
          },
          { header: 'Events', cell: (r) => r.events.join(', ') },
          { header: 'From severity', cell: (r) => r.min_severity },
          { header: 'Action', cell: (r) => r.action },
        ]}
        actions={(r) => (
          <button
            type="button"
            className="link"
            onClick={() =>
              void rules.act(
                api.DELETE('/api/v1/notification-rules/{rule_id}', { params: { path: { rule_id: r.id } } }),
              )
            }
          >
            Remove
          </button>
        )}
      />
      <form onSubmit={addRule}>
        <label>
          Integration
          <select required value={ruleFor} onChange={(e) => setRuleFor(e.target.value)}>
            <option value="">Choose…</option>
            {integrations.items?.map((i) => (
              <option key={i.id} value={i.id}>
                {i.name} ({i.type})
              </option>
            ))}
          </select>
        </label>
        <fieldset>
          <legend>Events</legend>
          {(['vulnerability.found', 'scan.failed', 'sla.breached'] as const).map((e) => (
            <label key={e} className="checkbox">
              <input
                type="checkbox"
                checked={ruleEvents.includes(e)}
                onChange={(x) =>
                  setRuleEvents(x.target.checked ? [...ruleEvents, e] : ruleEvents.filter((v) => v !== e))
                }
              />
              {e}
            </label>
          ))}
        </fieldset>
        <label>
          From severity
          <select value={minSeverity} onChange={(e) => setMinSeverity(e.target.value as typeof minSeverity)}>
            {(['critical', 'high', 'medium', 'low', 'info'] as const).map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Add rule</button>
      </form>

      <h3>Failed deliveries</h3>
      <ItemTable
        items={dead.items ?? []}
        empty="Nothing failed."
        columns={[
          { header: 'What', cell: (d) => d.summary },
          { header: 'Error', cell: (d) => d.error ?? '' },
          { header: 'Attempts', cell: (d) => d.attempts },
          { header: 'Last try', cell: (d) => when(d.updated_at) },
        ]}
        actions={(d) => (
          <button
            type="button"
            className="link"
            onClick={() =>
              void dead.act(
                api.POST('/api/v1/notification-deliveries/{message_id}/retry', {
                  params: { path: { message_id: d.id } },
                }),
              )
            }
          >
            Send again
          </button>
        )}
      />
    </Section>
  );
}
