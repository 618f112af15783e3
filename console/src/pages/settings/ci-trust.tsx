import { useState, type FormEvent } from 'react';
import { apiClientRef, useApi } from '../../api/context';
import { PERMISSIONS, type Permission } from '../../api/vocabulary';
import { useCollection, useLoad } from '../../data';
import { Choices, Problem } from '../../ui';
import { ItemTable, Section } from './section';

/** The claims a trust policy may put conditions on, in the order the form shows them. */
const CLAIMS = [
  ['repository', 'Repository', 'acme/web or acme/* (the owner as it is)'],
  ['repository_owner', 'Repository owner', 'acme (as it is)'],
  ['ref', 'Ref', 'refs/heads/main or refs/pull/*/merge'],
  ['event_name', 'Event', 'push, pull_request'],
  ['environment', 'Environment', 'production'],
  ['job_workflow_ref', 'Workflow', 'acme/ci/.github/workflows/scan.yml@refs/heads/main'],
] as const;
type Claim = (typeof CLAIMS)[number][0];

/**
 * Keyless CI sign-in (docs/ci-trust.md): the trust policies that let CI jobs exchange their own
 * OpenID Connect ID token for a short-lived access token, a form to add one, delete. Admins only.
 */
export function CiTrust() {
  const api = useApi(apiClientRef);
  const policies = useCollection('settings/ci-trust', () =>
    api.GET('/api/v1/ci-trust', { params: { query: { per_page: 100 } } }),
  );
  // The organization's own audience, minted by the service: every policy carries it.
  const audience = useLoad(async () => api.GET('/api/v1/ci-trust/audience'), 'settings/ci-trust/audience');
  const ownAudience = audience.data?.audience;
  const organizationId = ownAudience?.slice(ownAudience.lastIndexOf('/ci/') + 4);
  const [name, setName] = useState('');
  const [issuer, setIssuer] = useState('');
  const [conditions, setConditions] = useState<Partial<Record<Claim, string>>>({});
  const [permissions, setPermissions] = useState<Permission[]>([
    'read:scans',
    'write:scans',
    'read:findings',
  ]);
  const [allowForks, setAllowForks] = useState(false);

  const create = (event: FormEvent) => {
    event.preventDefault();
    const given = Object.fromEntries(
      Object.entries(conditions)
        .map(([claim, value]) => [claim, (value ?? '').trim()])
        .filter(([, value]) => value !== ''),
    ) as Partial<Record<Claim, string>>;
    void policies.act(
      api.POST('/api/v1/ci-trust', {
        body: {
          name: name.trim(),
          ...(issuer.trim() ? { issuer: issuer.trim() } : {}),
          conditions: given,
          permissions,
          allow_forks: allowForks,
        },
      }),
      () => {
        setName('');
        setConditions({});
      },
    );
  };
  const remove = (id: string) =>
    void policies.act(api.DELETE('/api/v1/ci-trust/{policy_id}', { params: { path: { policy_id: id } } }));

  return (
    <Section id="ci-trust" title="CI sign-in without keys">
      <p>
        CI jobs whose OpenID Connect ID token matches a policy sign in with it, no stored API key: GitHub
        Actions with <code>permissions: id-token: write</code>, GitLab with <code>id_tokens:</code>.
      </p>
      {ownAudience && (
        <dl className="facts">
          <dt>This organization&apos;s audience</dt>
          <dd>
            <code>{ownAudience}</code>
          </dd>
          <dt>In a workflow</dt>
          <dd>
            GitHub Action: <code>organization: {organizationId}</code> (the Action asks for this audience);
            GitLab: <code>id_tokens: SCANWARD_ID_TOKEN: aud: {ownAudience}</code>
          </dd>
        </dl>
      )}
      <Problem message={policies.error ?? audience.error} />
      {policies.items && (
        <ItemTable
          items={policies.items}
          empty="No trust policies."
          columns={[
            { header: 'Name', cell: (p) => p.name },
            {
              header: 'Conditions',
              cell: (p) =>
                Object.entries(p.conditions)
                  .map(([claim, value]) => `${claim} = ${value}`)
                  .join(', '),
            },
            { header: 'Audience', cell: (p) => <code>{p.audience}</code> },
            { header: 'Permissions', cell: (p) => p.permissions.join(', ') },
            { header: 'Forks', cell: (p) => (p.allow_forks ? 'allowed' : 'refused') },
          ]}
          actions={(p) => (
            <button type="button" className="link" onClick={() => remove(p.id)}>
              Delete {p.name}
            </button>
          )}
        />
      )}
      <form onSubmit={create}>
        <label>
          Policy name
          <input name="policy_name" required value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label>
          Issuer (default GitHub Actions)
          <input
            name="issuer"
            placeholder="https://token.actions.githubusercontent.com"
            value={issuer}
            onChange={(e) => setIssuer(e.target.value)}
          />
        </label>
        {CLAIMS.map(([claim, label, example]) => (
          <label key={claim}>
            {label}
            <input
              name={claim}
              placeholder={example}
              value={conditions[claim] ?? ''}
              onChange={(e) => setConditions({ ...conditions, [claim]: e.target.value })}
            />
          </label>
        ))}
        <Choices legend="Permissions" of={PERMISSIONS} chosen={permissions} onChange={setPermissions} />
        <label>
          <input type="checkbox" checked={allowForks} onChange={(e) => setAllowForks(e.target.checked)} />
          Allow runs that may execute a fork&apos;s code (pull_request_target, workflow_run)
        </label>
        <button type="submit">Add trust policy</button>
      </form>
    </Section>
  );
}
