import { createHmac, timingSafeEqual } from 'node:crypto';
import { decodeJwt } from 'jose';
import type { Context } from 'koa';
import { insufficientPermission } from '../errors.ts';
import type { Services } from '../services.ts';
import { issueToken, TOKEN_LIFETIME_SECONDS, type TokenClaims } from './tokens.ts';

/**
 * The web console's credential: an access token of an ordinary session (the same
 * JWT a bearer caller gets) carried in an `HttpOnly`, `SameSite=Strict` cookie, so
 * page scripts never see it. Requests that change something must also carry the
 * session's CSRF token in `X-CSRF-Token`, which a page of another origin cannot
 * read or send. The cookie is renewed while the console is in use and expires
 * after an hour without a request, like a token.
 */

export const CONSOLE_COOKIE = 'scanward_session';
export const CSRF_HEADER = 'x-csrf-token';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The console's token from the request's cookie, if any. */
export function consoleCookie(ctx: Context): string | undefined {
  return ctx.cookies.get(CONSOLE_COOKIE) || undefined;
}

/** The CSRF token of a session: an HMAC of its id, so nothing needs storing. */
export function csrfToken(services: Services, sessionId: string): string {
  return createHmac('sha256', services.keys.jwtSecret)
    .update(`console-csrf:${sessionId}`)
    .digest('base64url');
}

/** Refuses a state-changing cookie request without the session's CSRF token. */
export function assertCsrf(ctx: Context, services: Services, sessionId: string): void {
  if (SAFE_METHODS.has(ctx.method)) return;
  const sent = Buffer.from(ctx.get(CSRF_HEADER));
  const expected = Buffer.from(csrfToken(services, sessionId));
  if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) {
    throw insufficientPermission(
      'a console request that changes something needs the X-CSRF-Token of its session',
    );
  }
}

export function setConsoleCookie(ctx: Context, token: string): void {
  ctx.cookies.set(CONSOLE_COOKIE, token, {
    httpOnly: true,
    sameSite: 'strict',
    secure: ctx.secure,
    path: '/',
    maxAge: TOKEN_LIFETIME_SECONDS * 1000,
    overwrite: true,
  });
}

export function clearConsoleCookie(ctx: Context): void {
  ctx.cookies.set(CONSOLE_COOKIE, '', {
    httpOnly: true,
    sameSite: 'strict',
    secure: ctx.secure,
    path: '/',
    maxAge: 0,
    overwrite: true,
  });
}

/**
 * Replaces a cookie token older than SCANWARD_CONSOLE_RENEW_AFTER_SECONDS (5 minutes by
 * default) with a fresh one of the same session. Not once the answer's headers are out: an
 * open event stream asks for its caller again every heartbeat (routes/events.ts), and a
 * cookie set then would throw, which ended the stream at the renewal point; the browser
 * keeps the cookie it has, and its next request renews it.
 */
export async function renewConsoleCookie(
  ctx: Context,
  services: Services,
  token: string,
  claims: TokenClaims,
): Promise<void> {
  if (ctx.headerSent) return;
  const { iat } = decodeJwt(token);
  if (typeof iat === 'number' && Date.now() / 1000 - iat < services.config.consoleRenewAfterSeconds) return;
  const fresh = await issueToken(services.keys.jwtSecret, claims);
  setConsoleCookie(ctx, fresh.access_token);
}
