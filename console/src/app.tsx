import { useCallback, useEffect, useMemo, useState } from 'react';
import { apiClientRef, liveEventsRef, useApi } from './api/context';
import { SetPassword } from './pages/set-password';
import { ForgotPassword, ResetPassword } from './pages/password-reset';
import { SignIn } from './pages/sign-in';
import { Link, navigate, useLocation } from './router';
import { HOME, ROUTES, pageOf } from './routes';
import { useAction } from './data';
import { Session, type ConsoleSession } from './session';

/** Pages a signed-out visitor may open (everything else sends them to sign-in). */
const SIGNED_OUT_PAGES = new Set(['/sign-in', '/set-password', '/forgot-password', '/reset-password']);

/** Where to return after signing in: the page the user was on, never another site. */
function nextOf(query: URLSearchParams): string {
  const next = query.get('next') ?? '';
  return next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/sign-in') ? next : HOME;
}

export function App() {
  const api = useApi(apiClientRef);
  const events = useApi(liveEventsRef);
  const location = useLocation();
  const [session, setSession] = useState<ConsoleSession | null | 'loading'>('loading');
  const leave = useAction();

  const adopt = useCallback(
    (value: ConsoleSession | null) => {
      api.setCsrfToken(value?.csrf_token ?? '');
      setSession(value);
    },
    [api],
  );

  const refresh = useCallback(async () => {
    const { data } = await api.GET('/api/v1/auth/console/session');
    adopt(data?.session ?? null);
  }, [api, adopt]);

  useEffect(() => {
    // An expired or revoked session: back to sign-in, remembering the page.
    api.whenUnauthorized(() => adopt(null));
    void refresh();
  }, [api, adopt, refresh]);

  useEffect(() => {
    if (session === 'loading') return;
    if (session === null && !SIGNED_OUT_PAGES.has(location.path)) {
      navigate(`/sign-in?next=${encodeURIComponent(location.href)}`, { replace: true });
    } else if (session && (location.path === '/sign-in' || location.path === '/')) {
      navigate(location.path === '/sign-in' ? nextOf(location.query) : HOME, { replace: true });
    }
  }, [session, location.path, location.href, location.query]);

  // One event stream per signed-in console, shared by every page (api/events.ts).
  const signedIn = session !== null && session !== 'loading';
  useEffect(() => {
    if (!signedIn) return;
    events.start();
    return () => events.stop();
  }, [signedIn, events]);

  const context = useMemo(
    () => (session && session !== 'loading' ? { session, refresh } : undefined),
    [session, refresh],
  );

  if (session === 'loading') return <p className="loading">Loading…</p>;
  if (!context) {
    return (
      <main className="signed-out">
        {location.path === '/set-password' ? (
          <SetPassword />
        ) : location.path === '/forgot-password' ? (
          <ForgotPassword />
        ) : location.path === '/reset-password' ? (
          <ResetPassword />
        ) : (
          <SignIn onSignedIn={adopt} />
        )}
      </main>
    );
  }

  const signOut = async () => {
    // Signed out either way: a session the API no longer knows is over too.
    await leave.act(api.DELETE('/api/v1/auth/console/session'));
    adopt(null);
    navigate('/sign-in', { replace: true });
  };

  return (
    <Session.Provider value={context}>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <span className="brand">Scanward</span>
        <nav aria-label="Main">
          <ul>
            {ROUTES.filter((r) => r.nav).map((r) => (
              <li key={r.path}>
                <Link href={r.path} aria-current={location.path.startsWith(r.path) ? 'page' : undefined}>
                  {r.nav}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <span className="who">
          <span className="email">{context.session.user.email}</span>
          <button type="button" className="link" onClick={() => void signOut()}>
            Sign out
          </button>
        </span>
      </header>
      <main id="main">{pageOf(location.path)}</main>
    </Session.Provider>
  );
}
