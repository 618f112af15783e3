import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema';

/**
 * The one way the console talks to the API: openapi-fetch over the types that
 * openapi-typescript generates from /openapi.json (schema.d.ts, drift-checked),
 * so a call that does not match the contract does not compile. The session is
 * the HttpOnly cookie; requests that change something carry the CSRF token.
 */

export type Schemas = components['schemas'];

let csrf = '';
let onUnauthorized: () => void = () => {};

export function setCsrfToken(token: string): void {
  csrf = token;
}

/** Called when an API call answers 401: the session has expired or was revoked. */
export function whenUnauthorized(handler: () => void): void {
  onUnauthorized = handler;
}

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

export const api = createClient<paths>({ baseUrl: '/', credentials: 'same-origin' });
api.use(session);

/** The message of an API error body, for showing to the user. */
export function problem(error: unknown): string {
  if (error && typeof error === 'object' && 'detail' in error) return String(error.detail);
  return 'Something went wrong; try again.';
}
