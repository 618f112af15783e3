import { apiClientRef, useApi } from '../../api/context';
import { useCollection } from '../../data';
import { Problem, when } from '../../ui';
import { ItemTable, Section } from './section';

/** The user's sessions (this browser's among them), each but this one revocable. */
export function Sessions() {
  const api = useApi(apiClientRef);
  const sessions = useCollection('settings/sessions', () =>
    api.GET('/api/v1/auth/sessions', { params: { query: { per_page: 100 } } }),
  );
  const revoke = (id: string) =>
    void sessions.act(
      api.DELETE('/api/v1/auth/sessions/{session_id}', { params: { path: { session_id: id } } }),
    );

  return (
    <Section id="sessions" title="Sessions">
      <Problem message={sessions.error} />
      {sessions.items && (
        <ItemTable
          items={sessions.items}
          columns={[
            { header: 'Signed in', cell: (s) => when(s.created_at) },
            {
              header: 'From',
              cell: (s) => (
                <>
                  {s.ip_address ?? '—'} <span className="sub">{s.user_agent?.slice(0, 60)}</span>
                </>
              ),
            },
            { header: 'Last used', cell: (s) => when(s.last_used_at) },
          ]}
          actions={(s) =>
            s.current ? (
              'This session'
            ) : (
              <button type="button" className="link" onClick={() => revoke(s.id)}>
                Revoke session
              </button>
            )
          }
        />
      )}
    </Section>
  );
}
