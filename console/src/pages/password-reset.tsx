import { useState, type FormEvent } from 'react';
import { apiClientRef, useApi } from '../api/context';
import { useAction } from '../data';
import { Link } from '../router';
import { NewPasswordInput, Notice, Problem } from '../ui';

/**
 * Self-service password reset (docs/email.md): `/forgot-password` asks for the e-mail (the
 * answer is the same whether or not an account has it); the mailed link leads to
 * `/reset-password#token=…` (the token in the fragment, so it reaches no server log).
 */
export function ForgotPassword() {
  const api = useApi(apiClientRef);
  const [email, setEmail] = useState('');
  const action = useAction();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await action.act(api.POST('/api/v1/auth/password-reset', { body: { email } }), (data) => data.detail);
  };

  return (
    <form className="sign-in card" onSubmit={(e) => void submit(e)}>
      <h1>Forgot your password?</h1>
      <p>We e-mail you a link to choose a new one. It works once, for one hour.</p>
      <label>
        E-mail
        <input
          type="email"
          name="email"
          autoComplete="username"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
      </label>
      <Notice message={action.notice} />
      <Problem message={action.error} />
      <button type="submit">Send the link</button>
      <p>
        <Link href="/sign-in">Back to sign-in</Link>
      </p>
    </form>
  );
}

export function ResetPassword() {
  const api = useApi(apiClientRef);
  const token = new URLSearchParams(window.location.hash.replace(/^#/, '')).get('token') ?? '';
  const [password, setPassword] = useState('');
  const [keepKeys, setKeepKeys] = useState(false);
  const action = useAction();
  const [done, setDone] = useState<string>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await action.act(
      api.POST('/api/v1/auth/password-reset/confirm', {
        body: { token, new_password: password, keep_api_keys: keepKeys },
      }),
      (data) => setDone(data.email),
    );
  };

  if (done) {
    return (
      <section className="sign-in card" role="status">
        <h1>Password changed</h1>
        <p>Every session of {done} was signed out. Sign in with the new password.</p>
        <Link href="/sign-in">Sign in</Link>
      </section>
    );
  }
  return (
    <form className="sign-in card" onSubmit={(e) => void submit(e)}>
      <h1>Choose a new password</h1>
      {!token && <Problem message="This link has no reset token; ask for a new one." />}
      <NewPasswordInput value={password} onChange={setPassword} />
      <label className="checkbox">
        <input type="checkbox" checked={keepKeys} onChange={(e) => setKeepKeys(e.target.checked)} />
        Keep my API keys working (otherwise they are revoked with the sessions)
      </label>
      <Problem message={action.error} />
      <button type="submit">Set the new password</button>
    </form>
  );
}
