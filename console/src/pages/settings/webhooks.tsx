import { useState, type FormEvent } from 'react';
import { apiClientRef, useApi } from '../../api/context';
import { WEBHOOK_EVENTS, type WebhookEvent } from '../../api/vocabulary';
import { useCollection } from '../../data';
import { Choices, confirmed, Problem } from '../../ui';
import { Deliveries } from './webhook-deliveries';
import { Secret, Section } from './section';

/** Webhooks: the list with each one's deliveries, a form to add one (its secret shown once), delete. */
export function Webhooks() {
  const api = useApi(apiClientRef);
  const webhooks = useCollection('settings/webhooks', () =>
    api.GET('/api/v1/webhooks', { params: { query: { per_page: 100 } } }),
  );
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>(['scan.completed']);
  const [secret, setSecret] = useState<string>();
  const [open, setOpen] = useState<string>();

  const create = (event: FormEvent) => {
    event.preventDefault();
    void webhooks.act(api.POST('/api/v1/webhooks', { body: { url: url.trim(), events } }), (created) => {
      setSecret(created.secret);
      setUrl('');
    });
  };
  const remove = (id: string, url: string) => {
    if (!confirmed(`Delete the webhook to ${url}? It stops receiving events at once.`)) return;
    setSecret(undefined);
    void webhooks.act(api.DELETE('/api/v1/webhooks/{webhook_id}', { params: { path: { webhook_id: id } } }));
  };

  return (
    <Section id="webhooks" title="Webhooks">
      <Problem message={webhooks.error} />
      <Secret what="signing secret" value={secret} />
      {webhooks.items?.map((w) => (
        <div key={w.id} className="webhook">
          <p>
            <strong>{w.url}</strong> — {w.events.join(', ')} —{' '}
            {w.active ? 'active' : `off (${w.disabled_reason})`}
          </p>
          <button type="button" className="link" onClick={() => setOpen(open === w.id ? undefined : w.id)}>
            {open === w.id ? 'Hide deliveries' : 'Show deliveries'}
          </button>{' '}
          <button type="button" className="link" onClick={() => remove(w.id, w.url)}>
            Delete webhook
          </button>
          {open === w.id && <Deliveries webhookId={w.id} />}
        </div>
      ))}
      {webhooks.items?.length === 0 && <p>No webhooks.</p>}
      <form onSubmit={create}>
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
        <Choices legend="Events" of={WEBHOOK_EVENTS} chosen={events} onChange={setEvents} />
        <button type="submit">Add webhook</button>
      </form>
    </Section>
  );
}
