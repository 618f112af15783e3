import { useEffect, useState, type FormEvent } from 'react';
import { apiClientRef, useApi } from '../api/context';
import { useAction } from '../data';
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
  const action = useAction();
  const [busy, setBusy] = useState(false);
  const [ssoUrl, setSsoUrl] = useState<string>();

  useEffect(() => {
    void api.GET('/api/v1/auth/methods').then(({ data }) => setSsoUrl(data?.sso?.login_url));
  }, [api]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    await action.act(
      api.POST('/api/v1/auth/console/session', {
        body: { email, password, ...(needsCode ? { mfa_code: code } : {}) },
      }),
      onSignedIn,
      // The account has MFA: the code is asked for next, and that is no error.
      (failure) => {
        const second = (failure as { error_code?: string } | undefined)?.error_code === 'MFA_REQUIRED';
        if (second) setNeedsCode(true);
        return second;
      },
    );
    setBusy(false);
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
      <Problem message={action.error} />
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
