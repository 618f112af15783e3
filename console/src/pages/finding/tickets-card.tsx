import { useState, type FormEvent } from 'react';
import type { Schemas } from '../../api/contract';
import { apiClientRef, useApi } from '../../api/context';
import { useAction, useLoad } from '../../data';
import { useMayChange } from '../../session';
import { Problem } from '../../ui';

/**
 * The finding page's Tickets card (docs/integrations.md, "Tickets"): the GitHub and Jira
 * issues opened for the finding, kept in step with its status, and opening one in a tracker
 * integration of the organization (the list of integrations is the admins'; others see the
 * tickets only).
 */
export function TicketsCard({
  finding,
  onChanged,
}: {
  finding: Schemas['FindingDetail'];
  onChanged: () => void;
}) {
  const api = useApi(apiClientRef);
  const admin = useMayChange('settings');
  // Only admins may list integrations: others are not asked (the answer would be 403).
  const trackers = useLoad(
    async () =>
      admin
        ? api.GET('/api/v1/integrations', { params: { query: { per_page: 100 } } })
        : { data: { items: [] as Schemas['Integration'][] } },
    `finding/ticket-integrations/${admin}`,
  );
  const [integration, setIntegration] = useState('');
  const action = useAction();
  const tickets = finding.tickets ?? [];
  const choices = (trackers.data?.items ?? []).filter(
    (i) => (i.type === 'github' || i.type === 'jira') && !tickets.some((t) => t.integration_id === i.id),
  );

  const open = async (event: FormEvent) => {
    event.preventDefault();
    await action.act(
      api.POST('/api/v1/findings/{finding_id}/tickets', {
        params: { path: { finding_id: finding.id } },
        body: { integration_id: integration },
      }),
      (data) => {
        onChanged();
        return data.queued
          ? 'The tracker did not answer yet; the ticket is queued and retried.'
          : 'Ticket opened.';
      },
    );
  };

  return (
    <section className="card" aria-labelledby="tickets">
      <h2 id="tickets">Tickets</h2>
      {tickets.length === 0 && <p>No tickets.</p>}
      <ul>
        {tickets.map((t) => (
          <li key={t.integration_id}>
            <a href={t.url} target="_blank" rel="noreferrer">
              {t.key}
            </a>{' '}
            ({t.state})
          </li>
        ))}
      </ul>
      {choices.length > 0 && (
        <form onSubmit={(e) => void open(e)}>
          <label>
            Open a ticket in
            <select required value={integration} onChange={(e) => setIntegration(e.target.value)}>
              <option value="">Choose…</option>
              {choices.map((i) => (
                <option key={i.id} value={i.id}>
                  {i.name} ({i.type})
                </option>
              ))}
            </select>
          </label>
          <button type="submit">Open ticket</button>
        </form>
      )}
      {action.notice && <p role="status">{action.notice}</p>}
      <Problem message={action.error} />
    </section>
  );
}
