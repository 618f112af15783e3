import { bearerPrincipal, resolvePrincipal } from '../auth/gatekeeper.ts';
import { clearConsoleCookie, consoleCookie, csrfToken, setConsoleCookie } from '../auth/console-session.ts';
import { login } from '../auth/login.ts';
import { loginLimitHeaders } from '../auth/login-throttle.ts';
import { mfaEnabled } from '../auth/mfa.ts';
import type { Principal } from '../policies/principal.ts';
import { revokeSession } from '../auth/sessions.ts';
import { defineRoute } from '../http/contract.ts';
import { AppError } from '../errors.ts';
import { invalidToken } from '../auth/tokens.ts';
import { ConsoleSession, ConsoleSessionState, ConsoleSignInBody, Revoked } from '../schemas/auth.ts';
import type { Services } from '../services.ts';

/**
 * Sign-in and sign-out of the web console: a session like any log-in's, whose
 * token travels in an HttpOnly cookie instead of the response body
 * (auth/console-session.ts). JSON only, so a form on another site cannot sign
 * a visitor in to an account of the attacker's choosing.
 */

const tags = ['Authentication'];

async function describe(services: Services, principal: Principal): Promise<ConsoleSession> {
  if (!principal.sessionId) throw invalidToken();
  const mfa = await mfaEnabled(services.db, { orgId: principal.org.id, userId: principal.user.id });
  return {
    session_id: principal.sessionId,
    csrf_token: csrfToken(services, principal.sessionId),
    user: { ...principal.user, mfa_enabled: mfa },
    organization: { id: principal.org.id, name: principal.org.name, plan: principal.org.plan },
  };
}

export const signInConsole = defineRoute({
  method: 'post',
  path: '/api/v1/auth/console/session',
  operationId: 'signInConsole',
  summary: 'Sign in to the web console: a session cookie instead of a token',
  description:
    'Like POST /api/v1/auth/token (same throttle, MFA and session), but JSON, and the access token is ' +
    'set as an HttpOnly, SameSite=Strict cookie that page scripts cannot read. Requests with the cookie ' +
    'that change something need the answer’s csrf_token in X-CSRF-Token. The cookie is renewed while in ' +
    'use and lapses after an hour without requests. Every answer carries `X-RateLimit-*` of the per-address ' +
    'limit (50 failed log-ins in 15 minutes).',
  tags,
  access: { public: true },
  body: ConsoleSignInBody,
  responses: { 200: { description: 'Signed in; the cookie is set', schema: ConsoleSession } },
  errors: [
    'INVALID_CREDENTIALS',
    'MFA_REQUIRED',
    'INVALID_MFA_CODE',
    'PASSWORD_LOGIN_DISABLED',
    'RATE_LIMIT_EXCEEDED',
  ],
  // Every answer: X-RateLimit-* of the 50 failed log-ins per client address.
  answerHeaders: (ctx, services) => loginLimitHeaders(services.db, ctx.ip),
  handler: async ({ body, services, ctx }) => {
    const token = await login(
      services.db,
      services.keys,
      {
        email: body.email,
        password: body.password,
        mfaCode: body.mfa_code,
        ip: ctx.ip,
        userAgent: ctx.get('user-agent') || undefined,
      },
      'console',
    );
    setConsoleCookie(ctx, token.access_token);
    return { body: await describe(services, await bearerPrincipal(services, token.access_token)) };
  },
});

export const getConsoleSession = defineRoute({
  method: 'get',
  path: '/api/v1/auth/console/session',
  operationId: 'getConsoleSession',
  summary: 'The signed-in user, organization and CSRF token of the current session, if any',
  description:
    'Answers `{"session": null}` rather than 401 when the request has no valid session (an expired ' +
    'console cookie is cleared), so the console can ask on start without an error. API keys have no ' +
    'session. Not counted against the organization request rate.',
  tags,
  access: { public: true },
  responses: { 200: { description: 'The current session, or null', schema: ConsoleSessionState } },
  handler: async ({ services, ctx }) => {
    try {
      const principal = await resolvePrincipal(ctx, { allowBasic: false });
      if (!principal.sessionId) return { body: { session: null } };
      return { body: { session: await describe(services, principal) } };
    } catch (err) {
      if (!(err instanceof AppError) || err.status !== 401) throw err;
      if (consoleCookie(ctx)) clearConsoleCookie(ctx);
      return { body: { session: null } };
    }
  },
});

export const signOutConsole = defineRoute({
  method: 'delete',
  path: '/api/v1/auth/console/session',
  operationId: 'signOutConsole',
  summary: 'Sign out: revoke the current session and clear the console cookie',
  tags,
  access: { bearerOnly: true },
  responses: { 200: { description: 'The session is revoked', schema: Revoked } },
  errors: ['INSUFFICIENT_PERMISSION'],
  handler: async ({ principal, services, ctx }) => {
    if (!principal.sessionId) throw invalidToken();
    await revokeSession(
      services.db,
      { orgId: principal.org.id, userId: principal.user.id },
      principal.sessionId,
    );
    clearConsoleCookie(ctx);
    return { body: { id: principal.sessionId, revoked: true as const } };
  },
});

export const consoleSessionRoutes = [signInConsole, getConsoleSession, signOutConsole];
