import { StrictMode, useCallback, useMemo, useState, type ComponentType, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { createApiClient } from '../src/api/client';
import { ApiProvider, apiClientRef, useApi } from '../src/api/context';
import { SETTINGS_SECTIONS } from '../src/pages/settings';
import { Session, type ConsoleSession } from '../src/session';
import '../src/styles.css';
import { COMPONENTS } from './components';
import type { StubAnswer, StubCall } from './stub-api';

/**
 * Renders one console component in a real browser with a stub API client handed in through
 * the context, as main.tsx hands in the real one. The client is the console's own
 * (`createApiClient`, so the CSRF header and error parsing are the real ones) over a stub
 * `fetch` that answers each request from the test: `window.answerApiCall`, which the test
 * exposes from Node (test/helpers/console-components.ts). Nothing reaches a server.
 */

declare global {
  interface Window {
    answerApiCall(call: StubCall): Promise<StubAnswer>;
    mountSettingsSection(id: string, session: ConsoleSession): void;
    mountComponent(name: string, session: ConsoleSession): void;
  }
}

/** The request's body as the test sees it: JSON parsed, a multipart form as its fields (files by name and text). */
async function bodyOf(request: Request): Promise<unknown> {
  if ((request.headers.get('content-type') ?? '').startsWith('multipart/form-data')) {
    const fields: Record<string, unknown> = {};
    for (const [name, value] of (await request.formData()).entries()) {
      fields[name] = typeof value === 'string' ? value : { filename: value.name, text: await value.text() };
    }
    return fields;
  }
  const text = await request.text();
  return text ? JSON.parse(text) : undefined;
}

async function stubFetch(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const answer = await window.answerApiCall({
    method: request.method,
    path: url.pathname,
    query: url.search,
    headers: Object.fromEntries(request.headers),
    body: await bodyOf(request),
  });
  const body = answer.body === undefined ? null : JSON.stringify(answer.body);
  return new Response(body, {
    status: answer.status,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...answer.headers },
  });
}

/** The signed-in session, re-read through the (stub) API on `refresh`, as app.tsx does. */
function SignedIn({ session: first, children }: { session: ConsoleSession; children: ReactNode }) {
  const api = useApi(apiClientRef);
  const [session, setSession] = useState(first);
  const refresh = useCallback(async () => {
    const { data } = await api.GET('/api/v1/auth/console/session');
    if (data?.session) setSession(data.session);
  }, [api]);
  const value = useMemo(() => ({ session, refresh }), [session, refresh]);
  return <Session.Provider value={value}>{children}</Session.Provider>;
}

function mount(Component: ComponentType, session: ConsoleSession) {
  const client = createApiClient({ fetch: stubFetch });
  client.setCsrfToken(session.csrf_token);
  const apis = [[apiClientRef, client]] as const;
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <ApiProvider apis={apis}>
        <SignedIn session={session}>
          <Component />
        </SignedIn>
      </ApiProvider>
    </StrictMode>,
  );
}

window.mountSettingsSection = (id, session) => {
  const section = SETTINGS_SECTIONS.find((s) => s.id === id);
  if (!section) throw new Error(`no settings section "${id}"`);
  mount(section.Component, session);
};

/** A component of test/components.tsx, by its name there. */
window.mountComponent = (name, session) => {
  const Component = COMPONENTS[name];
  if (!Component) throw new Error(`no component "${name}" in console/test/components.tsx`);
  mount(Component, session);
};
