import { useState, type FormEvent } from 'react';
import { apiClientRef, useApi } from '../api/context';
import { useAction } from '../data';
import { Link } from '../router';
import { NewPasswordInput, Problem } from '../ui';

/**
 * Where an invitation's link leads (`/set-password#token=…`, the token in the fragment so
 * it reaches no server log): choose a password, then sign in.
 */
export function SetPassword() {
  const api = useApi(apiClientRef);
  const token = new URLSearchParams(window.location.hash.replace(/^#/, '')).get('token') ?? '';
  const [password, setPassword] = useState('');
  const action = useAction();
  const [done, setDone] = useState<string>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await action.act(api.POST('/api/v1/auth/invitations/accept', { body: { token, password } }), (data) =>
      setDone(data.email),
    );
  };

  if (done) {
    return (
      <section className="sign-in card" role="status">
        <h1>Password set</h1>
        <p>You can now sign in as {done}.</p>
        <Link href="/sign-in">Sign in</Link>
      </section>
    );
  }
  return (
    <form className="sign-in card" onSubmit={(e) => void submit(e)}>
      <h1>Choose your password</h1>
      {!token && <Problem message="This link has no invitation token; ask your admin for a new one." />}
      <NewPasswordInput value={password} onChange={setPassword} />
      <Problem message={action.error} />
      <button type="submit">Set password</button>
    </form>
  );
}
