import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import type { Db } from '../db/index.ts';
import { AppError, planUpgradeRequired } from '../errors.ts';
import type { Principal } from '../policies/principal.ts';
import { unstorableText } from '../schemas/text.ts';
import { planAllows } from '../identity/plans.ts';
import { findOrganization } from '../identity/organizations.repository.ts';
import type { Services } from '../services.ts';
import { assertCsrf, consoleCookie, renewConsoleCookie } from './console-session.ts';
import { checkPasswordLogin } from './login.ts';
import { findApiKeyCallerByHash, touchApiKey } from './api-keys.repository.ts';
import { findSessionCaller, touchSession } from './sessions.repository.ts';
import { invalidToken, verifyToken } from './tokens.ts';
import { ciPrincipal, isCiAccessToken } from './ci-exchange.ts';

/** API keys look like `sw_<43 base64url characters>`. */
export const API_KEY_PREFIX = 'sw_';

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** last_used_at is written at most once a minute per session or key, not on every request. */
const TOUCH_INTERVAL_MS = 60_000;

/** The caller of a session's access token (bearer header or console cookie); throws 401 when it fails. */
export async function bearerPrincipal(services: Services, token: string): Promise<Principal> {
  if (isCiAccessToken(token)) return ciPrincipal(services, token);
  const claims = await verifyToken(services.keys.jwtSecret, token);
  const caller = await findSessionCaller(
    services.db,
    claims.org,
    { sessionId: claims.sid, userId: claims.sub },
    new Date(),
  );
  if (!caller) throw invalidToken();
  if (Date.now() - caller.lastUsedAt.getTime() > TOUCH_INTERVAL_MS) {
    await touchSession(services.db, caller.org.id, caller.sessionId, new Date());
  }
  return { via: 'bearer', user: caller.user, org: caller.org, sessionId: caller.sessionId };
}

/**
 * The web console's cookie: the same session token as a bearer caller's, so the same
 * principal, with the CSRF check on requests that change something and the cookie
 * renewed while in use (console-session.ts).
 */
async function cookiePrincipal(services: Services, ctx: Context, token: string): Promise<Principal> {
  const principal: Principal = { ...(await bearerPrincipal(services, token)), via: 'cookie' };
  const sid = principal.sessionId!;
  assertCsrf(ctx, services, sid);
  await renewConsoleCookie(ctx, services, token, { sub: principal.user.id, org: principal.org.id, sid });
  return principal;
}

const invalidApiKey = () => new AppError(401, 'INVALID_API_KEY', 'API key is invalid, revoked or expired');

async function apiKeyPrincipal(db: Db, key: string, via: 'api_key' | 'basic'): Promise<Principal> {
  if (!key.startsWith(API_KEY_PREFIX)) throw invalidApiKey();
  const caller = await findApiKeyCallerByHash(db, hashApiKey(key));
  if (!caller) throw invalidApiKey();
  if (caller.expiresAt && caller.expiresAt.getTime() <= Date.now()) throw invalidApiKey();
  const org = caller.org;
  if (!planAllows(org.plan, 'api_keys')) throw planUpgradeRequired('API keys');
  const lastUsed = caller.lastUsedAt;
  if (!lastUsed || Date.now() - lastUsed.getTime() > TOUCH_INTERVAL_MS) {
    await touchApiKey(db, org.id, caller.keyId, new Date());
  }
  return {
    via,
    user: caller.user,
    org,
    apiKeyId: caller.keyId,
    permissions: new Set(caller.permissions),
  };
}

const invalidCredentials = () => new AppError(401, 'INVALID_CREDENTIALS', 'incorrect email or password');

/**
 * HTTP Basic, for the documentation pages a browser opens: an e-mail and
 * password, or any user name with an API key as the password. The password goes
 * through the same check as every log-in (checkPasswordLogin): failed checks count
 * as failed logins, and MFA or password log-in switched off answer as a wrong password.
 */
async function basicPrincipal(services: Services, ctx: Context, encoded: string): Promise<Principal> {
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  // No account has a NUL in its e-mail: refused before any lookup (PostgreSQL cannot compare it).
  if (colon < 0 || unstorableText(decoded)) throw invalidCredentials();
  const username = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1);
  if (password.startsWith(API_KEY_PREFIX)) return apiKeyPrincipal(services.db, password, 'basic');

  // The one password path (auth/login.ts): limits, MFA and the password-log-in switch, each
  // refusal answered exactly as a wrong password.
  const user = await checkPasswordLogin(
    services.db,
    services.keys,
    { email: username, password, ip: ctx.ip },
    'basic',
  );
  const org = await findOrganization(services.db, user.org_id);
  if (!org) throw invalidCredentials();
  return { via: 'basic', user: { id: user.id, email: user.email, role: user.role }, org };
}

/** An `Authorization` value: a scheme, one space, a token68 (RFC 9110 §11.4), and nothing more. */
const CREDENTIALS = /^[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]* [A-Za-z0-9\-._~+/]+=*$/;

/** A malformed `Authorization` header fails as the credentials of its scheme would. */
function invalidAuthorization(scheme: string | undefined, allowBasic: boolean): AppError {
  return scheme?.toLowerCase() === 'basic' && allowBasic
    ? invalidCredentials()
    : new AppError(401, 'INVALID_TOKEN', 'could not validate credentials');
}

/** Finds who is calling from the request's credentials; throws 401 when there are none or they fail. */
export async function resolvePrincipal(ctx: Context, options: { allowBasic: boolean }): Promise<Principal> {
  const services = ctx.state.services as Services;
  const authorization = ctx.get('authorization');
  const [scheme, value] = authorization.split(/\s+/, 2);
  // Exactly `<scheme> <credentials>`: one space, one token68, nothing after it.
  if (authorization && !CREDENTIALS.test(authorization))
    throw invalidAuthorization(scheme, options.allowBasic);
  if (scheme?.toLowerCase() === 'bearer' && value) return bearerPrincipal(services, value);
  if (scheme?.toLowerCase() === 'basic' && value && options.allowBasic)
    return basicPrincipal(services, ctx, value);
  const apiKey = ctx.get('x-api-key');
  if (apiKey) return apiKeyPrincipal(services.db, apiKey, 'api_key');
  // The console's cookie counts only when the request carries no other credential.
  const cookie = authorization ? undefined : consoleCookie(ctx);
  if (cookie) return cookiePrincipal(services, ctx, cookie);
  if (authorization && !(scheme?.toLowerCase() === 'basic' && options.allowBasic)) {
    throw new AppError(401, 'INVALID_TOKEN', 'could not validate credentials');
  }
  throw new AppError(
    401,
    'AUTHENTICATION_REQUIRED',
    'authentication required: send a bearer token or an X-API-Key',
  );
}

/**
 * Resolves the caller of a contract route (no HTTP Basic) and keeps it on the request
 * (`ctx.state.principal`); throws 401. app.ts hands it to http/ as the routes' gatekeeper;
 * whether the caller may call the route is the policies' answer (policies/roles.ts).
 */
export async function authenticateRequest(ctx: Context): Promise<Principal> {
  const principal = await resolvePrincipal(ctx, { allowBasic: false });
  ctx.state.principal = principal;
  return principal;
}
