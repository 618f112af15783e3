import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { api, setCsrfToken, whenUnauthorized } from './api/client';
import { ComplianceList } from './pages/compliance';
import { ControlDetail } from './pages/control-detail';
import { FindingDetail } from './pages/finding-detail';
import { FindingList } from './pages/findings';
import { ScanDetail } from './pages/scan-detail';
import { ScanList } from './pages/scans';
import { Settings } from './pages/settings';
import { SignIn } from './pages/sign-in';
import { Link, match, navigate, useLocation } from './router';
import { Session, type ConsoleSession } from './session';

const SECTIONS = [
  { href: '/scans', name: 'Scans' },
  { href: '/findings', name: 'Findings' },
  { href: '/compliance', name: 'Compliance' },
  { href: '/settings', name: 'Settings' },
];

function routeOf(path: string): ReactNode {
  let params: Record<string, string> | undefined;
  if ((params = match('/scans/:id', path))) return <ScanDetail key={params.id} id={params.id!} />;
  if ((params = match('/findings/:id', path))) return <FindingDetail key={params.id} id={params.id!} />;
  if ((params = match('/compliance/:id', path))) return <ControlDetail key={params.id} id={params.id!} />;
  if (match('/scans', path)) return <ScanList />;
  if (match('/findings', path)) return <FindingList />;
  if (match('/compliance', path)) return <ComplianceList />;
  if (match('/settings', path)) return <Settings />;
  return (
    <section className="page">
      <h1>Page not found</h1>
      <p>
        <Link href="/scans">Go to the scans</Link>
      </p>
    </section>
  );
}

/** Where to return after signing in: the page the user was on, never another site. */
function nextOf(query: URLSearchParams): string {
  const next = query.get('next') ?? '';
  return next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/sign-in') ? next : '/scans';
}

export function App() {
  const location = useLocation();
  const [session, setSession] = useState<ConsoleSession | null | 'loading'>('loading');

  const adopt = useCallback((value: ConsoleSession | null) => {
    setCsrfToken(value?.csrf_token ?? '');
    setSession(value);
  }, []);

  const refresh = useCallback(async () => {
    const { data } = await api.GET('/api/v1/auth/console/session');
    adopt(data?.session ?? null);
  }, [adopt]);

  useEffect(() => {
    // An expired or revoked session: back to sign-in, remembering the page.
    whenUnauthorized(() => adopt(null));
    void refresh();
  }, [adopt, refresh]);

  useEffect(() => {
    if (session === 'loading') return;
    if (session === null && location.path !== '/sign-in') {
      navigate(`/sign-in?next=${encodeURIComponent(location.href)}`, { replace: true });
    } else if (session && (location.path === '/sign-in' || location.path === '/')) {
      navigate(location.path === '/sign-in' ? nextOf(location.query) : '/scans', { replace: true });
    }
  }, [session, location.path, location.href, location.query]);

  const context = useMemo(
    () => (session && session !== 'loading' ? { session, refresh } : undefined),
    [session, refresh],
  );

  if (session === 'loading') return <p className="loading">Loading…</p>;
  if (!context) {
    return (
      <main className="signed-out">
        <SignIn onSignedIn={adopt} />
      </main>
    );
  }

  const signOut = async () => {
    await api.DELETE('/api/v1/auth/console/session');
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
            {SECTIONS.map((s) => (
              <li key={s.href}>
                <Link href={s.href} aria-current={location.path.startsWith(s.href) ? 'page' : undefined}>
                  {s.name}
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
      <main id="main">{routeOf(location.path)}</main>
    </Session.Provider>
  );
}
