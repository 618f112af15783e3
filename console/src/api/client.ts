import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from './schema';

/**
 * The console's API client: openapi-fetch over the types openapi-typescript generates
 * from /openapi.json (schema.d.ts, drift-checked), so a call that does not match the
 * contract does not compile. The session is the HttpOnly cookie; requests that change
 * something carry the CSRF token; a 401 tells the app the session has ended.
 *
 * Only the composition root (main.tsx) and tests make one; components take it from
 * context with `useApi(apiClientRef)` (api/context.tsx), so a test can hand a section a
 * client over a stub `fetch`. `npm run lint:deps` refuses any other import of this file.
 */

export type ApiClient = Client<paths> & {
  /** The session's CSRF token, sent as X-CSRF-Token on every request that changes something. */
  setCsrfToken(token: string): void;
  /** Called when an API call answers 401: the session has expired or was revoked. */
  whenUnauthorized(handler: () => void): void;
};

export interface ApiClientOptions {
  /** Where the API is; the console's own origin by default. */
  baseUrl?: string;
  /** The fetch to send requests with (a test passes a stub). */
  fetch?: (request: Request) => Promise<Response>;
}

export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  let csrf = '';
  let onUnauthorized: () => void = () => {};

  const session: Middleware = {
    onRequest({ request }) {
      if (request.method !== 'GET' && request.method !== 'HEAD' && csrf) {
        request.headers.set('X-CSRF-Token', csrf);
      }
      return request;
    },
    onResponse({ response, request }) {
      const signingIn = new URL(request.url).pathname === '/api/v1/auth/console/session';
      if (response.status === 401 && !signingIn) onUnauthorized();
      return response;
    },
  };

  const client = createClient<paths>({
    baseUrl: options.baseUrl ?? '/',
    credentials: 'same-origin',
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  client.use(session);
  return Object.assign(client, {
    setCsrfToken(token: string) {
      csrf = token;
    },
    whenUnauthorized(handler: () => void) {
      onUnauthorized = handler;
    },
  });
}
