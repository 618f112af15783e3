import { apiClientRef, useApi } from '../../api/context';
import { ROLES, type Role } from '../../api/vocabulary';
import type { Collection } from '../../data';
import type { Schemas } from '../../api/contract';
import { useSession } from '../../session';
import { confirmed, Options, Problem, when } from '../../ui';
import { ItemTable, Section } from './section';

type Person = Schemas['User'];

/** The organization's people: each one's role (changed in place), disable or enable, delete. */
export function PeopleList({ people }: { people: Collection<Person> }) {
  const api = useApi(apiClientRef);
  const { session } = useSession();
  const path = (id: string) => ({ params: { path: { user_id: id } } });
  const update = (id: string, body: { role?: Role; disabled?: boolean }) =>
    void people.act(api.PATCH('/api/v1/users/{user_id}', { ...path(id), body }));
  const remove = (person: Person) => {
    if (!confirmed(`Delete ${person.email}? Their sessions and API keys stop working at once.`)) return;
    void people.act(api.DELETE('/api/v1/users/{user_id}', path(person.id)));
  };

  return (
    <Section id="people" title="People">
      <Problem message={people.error} />
      {people.items && (
        <ItemTable
          items={people.items}
          columns={[
            {
              header: 'E-mail',
              cell: (p) => (
                <>
                  {p.email}
                  {p.id === session.user.id && <span className="sub"> (you)</span>}
                </>
              ),
            },
            {
              header: 'Role',
              cell: (p) => (
                <select
                  aria-label={`Role of ${p.email}`}
                  value={p.role}
                  onChange={(e) => update(p.id, { role: e.target.value as Role })}
                >
                  <Options of={ROLES} />
                </select>
              ),
            },
            {
              header: 'State',
              cell: (p) => (p.disabled ? 'Disabled' : p.invite_pending ? 'Invited' : 'Active'),
            },
            { header: 'Since', cell: (p) => when(p.created_at) },
          ]}
          actions={(p) => (
            <>
              <button type="button" className="link" onClick={() => update(p.id, { disabled: !p.disabled })}>
                {p.disabled ? 'Enable' : 'Disable'} {p.email}
              </button>{' '}
              <button type="button" className="link" onClick={() => remove(p)}>
                Delete {p.email}
              </button>
            </>
          )}
        />
      )}
    </Section>
  );
}
