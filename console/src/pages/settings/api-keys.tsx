import { useState, type FormEvent } from 'react';
import { apiClientRef, useApi } from '../../api/context';
import { PERMISSIONS, type Permission } from '../../api/vocabulary';
import { useCollection } from '../../data';
import { Choices, confirmed, Problem, when } from '../../ui';
import { ItemTable, Secret, Section } from './section';

/** API keys: the list, a form to create one (its secret shown once), revoke. */
export function ApiKeys() {
  const api = useApi(apiClientRef);
  const keys = useCollection('settings/api-keys', () =>
    api.GET('/api/v1/api-keys', { params: { query: { per_page: 100 } } }),
  );
  const [name, setName] = useState('');
  const [permissions, setPermissions] = useState<Permission[]>(['read:scans', 'read:findings']);
  const [secret, setSecret] = useState<string>();

  const create = (event: FormEvent) => {
    event.preventDefault();
    setSecret(undefined);
    void keys.act(api.POST('/api/v1/api-keys', { body: { name: name.trim(), permissions } }), (created) => {
      setSecret(created.key);
      setName('');
    });
  };
  const revoke = (id: string, keyName: string) => {
    if (!confirmed(`Revoke the API key ${keyName}? Whatever uses it stops working at once.`)) return;
    setSecret(undefined);
    void keys.act(api.DELETE('/api/v1/api-keys/{key_id}', { params: { path: { key_id: id } } }));
  };

  return (
    <Section id="api-keys" title="API keys">
      <Problem message={keys.error} />
      <Secret what="API key" value={secret} />
      {keys.items && (
        <ItemTable
          items={keys.items}
          empty="No API keys."
          columns={[
            { header: 'Name', cell: (k) => k.name },
            { header: 'Key', cell: (k) => <code>{k.prefix}…</code> },
            { header: 'Permissions', cell: (k) => k.permissions.join(', ') },
            { header: 'Last used', cell: (k) => when(k.last_used_at) },
          ]}
          actions={(k) => (
            <button type="button" className="link" onClick={() => revoke(k.id, k.name)}>
              Revoke {k.name}
            </button>
          )}
        />
      )}
      <form onSubmit={create}>
        <label>
          Key name
          <input name="key_name" required value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <Choices legend="Permissions" of={PERMISSIONS} chosen={permissions} onChange={setPermissions} />
        <button type="submit">Create API key</button>
      </form>
    </Section>
  );
}
