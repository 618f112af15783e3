import { useEffect, useState, type FormEvent } from 'react';
import { problem } from '../api/contract';
import { apiClientRef, useApi } from '../api/context';
import type { ConsoleSession } from '../session';
import { CodeInput, Problem } from '../ui';
import { Link } from '../router';

/**
 * E-mail and password, then the MFA code when the account has MFA; and "Sign in with SSO"
 * when the instance has an OpenID Connect provider (GET /api/v1/auth/methods says where it
 * starts: a full-page navigation, since the provider's pages are not the console's).
 */
export function SignIn({ onSignedIn }: { onSignedIn: (session: ConsoleSession) => void }) {
  const api = useApi(apiClientRef);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [needsCode, setNeedsCode] = useState(false);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [ssoUrl, setSsoUrl] = useState<string>();

  useEffect(() => {
    void api.GET('/api/v1/auth/methods').then(({ data }) => setSsoUrl(data?.sso?.login_url));
  }, [api]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    const { data, error: failure } = await api.POST('/api/v1/auth/console/session', {
      body: { email, password, ...(needsCode ? { mfa_code: code } : {}) },
    });
    setBusy(false);
    if (data) return onSignedIn(data);
    if (failure?.error_code === 'MFA_REQUIRED') {
      setNeedsCode(true);
      return;
    }
    setError(problem(failure));
  };

  return (
    <form className="sign-in card" onSubmit={(e) => void submit(e)}>
      <h1>Sign in to Scanward</h1>
      {!needsCode ? (
        <>
          <label>
            Email
            <input
              type="email"
              name="email"
              autoComplete="username"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          </label>
          <label>
            Password
            <input
              type="password"
              name="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </label>
        </>
      ) : (
        <CodeInput label="Authentication code" value={code} onChange={setCode} autoFocus />
      )}
      <Problem message={error} />
      <button type="submit" disabled={busy}>
        {needsCode ? 'Verify' : 'Sign in'}
      </button>
      {!needsCode && (
        <p className="sign-in-forgot">
          <Link href="/forgot-password">Forgot your password?</Link>
        </p>
      )}
      {ssoUrl && !needsCode && (
        <p className="sign-in-sso">
          <a href={ssoUrl}>Sign in with SSO</a>
        </p>
      )}
    </form>
  );
}
