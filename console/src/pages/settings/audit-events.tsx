import { useState } from 'react';
import { apiClientRef, useApi } from '../../api/context';
import { AUDIT_ACTIONS } from '../../api/vocabulary';
import type { Schemas } from '../../api/contract';
import { useLoad } from '../../data';
import { Options, Problem, when } from '../../ui';
import { ItemTable, Section } from './section';

type Action = Schemas['AuditEvent']['action'];

/** Whom or what an event names: a person's e-mail, or an object's id (a finding, an API key, a webhook). */
const named = (who: Schemas['AuditEvent']['target']) => who?.email ?? who?.id ?? '—';

/**
 * The audit trail, newest first, narrowed by action, actor and target (each an optional query
 * parameter of `GET /api/v1/audit-events`); reloaded when `changes` (the people) change.
 */
export function AuditEvents({ changes }: { changes: string }) {
  const api = useApi(apiClientRef);
  const [action, setAction] = useState<Action | ''>('');
  const [actor, setActor] = useState('');
  const [target, setTarget] = useState('');
  const query = {
    per_page: 50,
    ...(action ? { action } : {}),
    ...(actor.trim() ? { actor: actor.trim() } : {}),
    ...(target.trim() ? { target: target.trim() } : {}),
  };
  const events = useLoad(
    () => api.GET('/api/v1/audit-events', { params: { query } }),
    `settings/audit-events?${JSON.stringify(query)}&people=${changes}`,
  );

  return (
    <Section id="audit-events" title="Audit events">
      <div className="filters">
        <label>
          Action
          <select
            name="audit_action"
            value={action}
            onChange={(e) => setAction(e.target.value as Action | '')}
          >
            <option value="">Any</option>
            <Options of={AUDIT_ACTIONS} />
          </select>
        </label>
        <label>
          Actor
          <input
            name="audit_actor"
            value={actor}
            onChange={(e) => setActor(e.target.value)}
            placeholder="e-mail"
          />
        </label>
        <label>
          Target
          <input
            name="audit_target"
            value={target}
            onChange={(e) => setTarget(e.target.value)}
            placeholder="e-mail or id"
          />
        </label>
      </div>
      <Problem message={events.error} />
      {events.data && (
        <ItemTable
          items={events.data.items}
          empty="No events."
          columns={[
            { header: 'When', cell: (e) => when(e.created_at) },
            { header: 'Action', cell: (e) => AUDIT_ACTIONS.label(e.action) },
            { header: 'Actor', cell: (e) => named(e.actor) },
            { header: 'Target', cell: (e) => named(e.target) },
            {
              header: 'Details',
              cell: (e) =>
                Object.entries(e.details)
                  .map(([k, v]) => `${k}: ${v}`)
                  .join(', '),
            },
          ]}
        />
      )}
    </Section>
  );
}
