import { useState, type FormEvent } from 'react';
import { apiClientRef, useApi } from '../../api/context';
import { useAction } from '../../data';
import { NewPasswordInput, Notice, Problem } from '../../ui';
import { Section } from './section';

/** Change one's own password: the current one, the new one; the other sessions end. */
export function Password() {
  const api = useApi(apiClientRef);
  const action = useAction();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void action.act(
      api.POST('/api/v1/auth/password', { body: { current_password: current, new_password: next } }),
      (changed) => {
        setCurrent('');
        setNext('');
        return `Password changed; ${changed.sessions_revoked} other session(s) signed out.`;
      },
    );
  };

  return (
    <Section id="password" title="Password">
      <Problem message={action.error} />
      <Notice message={action.notice} />
      <form onSubmit={submit}>
        <label>
          Current password
          <input
            type="password"
            name="current_password"
            autoComplete="current-password"
            required
            value={current}
            onChange={(e) => setCurrent(e.target.value)}
          />
        </label>
        <NewPasswordInput value={next} onChange={setNext} />
        <button type="submit">Change password</button>
      </form>
    </Section>
  );
}
