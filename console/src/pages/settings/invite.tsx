import { useState, type FormEvent } from 'react';
import { apiClientRef, useApi } from '../../api/context';
import { ROLES, type Role } from '../../api/vocabulary';
import type { Collection } from '../../data';
import { Options, Problem, when } from '../../ui';
import { Section } from './section';

/** Invite a person by e-mail with a role; their one-time set-password link is shown once. */
export function Invite({ people }: { people: Collection<unknown> }) {
  const api = useApi(apiClientRef);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [invite, setInvite] = useState<{ url: string; expires: string }>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setInvite(undefined);
    void people.act(api.POST('/api/v1/users', { body: { email: email.trim(), role } }), (invited) => {
      setInvite({ url: invited.invite_url, expires: invited.invite_expires_at });
      setEmail('');
    });
  };

  return (
    <Section id="invite" title="Invite a person">
      <Problem message={people.error} />
      {invite && (
        <div className="secret" role="status">
          <p>
            Send this link to the person; it works once, until {when(invite.expires)}, and is shown only now:
          </p>
          <code data-testid="invite-url">{invite.url}</code>
        </div>
      )}
      <form onSubmit={submit}>
        <label>
          E-mail
          <input
            type="email"
            name="invite_email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </label>
        <label>
          Role
          <select name="invite_role" value={role} onChange={(e) => setRole(e.target.value as Role)}>
            <Options of={ROLES} />
          </select>
        </label>
        <button type="submit">Invite</button>
      </form>
    </Section>
  );
}
