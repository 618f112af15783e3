import { randomBytes } from 'node:crypto';
import { EncryptJWT, jwtDecrypt } from 'jose';
import type { Context } from 'koa';
import * as client from 'openid-client';
import type { OidcConfig } from '../config.ts';
import type { Db } from '../db/index.ts';
import { recordAuditEvent } from '../identity/audit.ts';
import { listOrganizations } from '../identity/organizations.repository.ts';
import type { UserRow } from '../identity/users.repository.ts';
import { createUser, EmailTakenError, findUserByEmail } from '../identity/users.ts';
import type { Services } from '../services.ts';
import { setConsoleCookie } from './console-session.ts';
import { createSession } from './sessions.ts';
import { issueToken } from './tokens.ts';

/**
 * Single sign-on with OpenID Connect (issue 22, item 4; docs/authentication.md, "Single
 * sign-on"): the authorization code flow with PKCE, through `openid-client`.
 *
 * The login route sends the browser to the provider with a fresh `state`, `nonce` and PKCE
 * verifier, which travel in a short-lived cookie encrypted with the instance's encryption key
 * (nothing is stored server-side, so any API process can take the callback). The callback
 * checks all three and the ID token (issuer, audience, signature against the provider's JWKS,
 * expiry), then signs in the user its verified `email` claim names with a console session,
 * exactly as the password sign-in does. Whatever goes wrong is an {@link SsoRefusal} the route
 * renders as a page, and a failed sign-in in the audit trail.
 */

export const OIDC_LOGIN_PATH = '/api/v1/auth/oidc/login';
export const OIDC_CALLBACK_PATH = '/api/v1/auth/oidc/callback';
/** What the provider is asked for: the e-mail is what a user is found by. */
export const OIDC_SCOPES = 'openid email profile';

const FLOW_COOKIE = 'scanward_oidc';
/** How long a started sign-in may take at the provider before it has to be started again. */
const FLOW_LIFETIME_SECONDS = 10 * 60;
const FLOW_AUDIENCE = 'scanward:oidc-flow';

export type SsoFailure =
  | 'provider_unreachable'
  | 'flow_expired'
  | 'provider_error'
  | 'invalid_response'
  | 'email_missing'
  | 'email_unverified'
  | 'unknown_user'
  | 'user_disabled';

/** A refused single sign-on: the HTTP status, a reason for the audit trail and a sentence for a person. */
export class SsoRefusal extends Error {
  constructor(
    readonly status: number,
    readonly reason: SsoFailure,
    message: string,
  ) {
    super(message);
    this.name = 'SsoRefusal';
  }
}

/** The issuer's metadata, read once per process (and again after a failure). */
const discovered = new WeakMap<OidcConfig, Promise<client.Configuration>>();

function configurationOf(services: Services, oidc: OidcConfig): Promise<client.Configuration> {
  let pending = discovered.get(oidc);
  if (!pending) {
    pending = client.discovery(
      new URL(oidc.issuer),
      oidc.clientId,
      undefined,
      oidc.clientSecret ? client.ClientSecretBasic(oidc.clientSecret) : client.None(),
      {
        // The ID token's signature is checked against the provider's keys, not only trusted for
        // having come over TLS from the token endpoint.
        execute: [client.enableNonRepudiationChecks],
        timeout: 10,
        ...(services.oidcFetch ? { [client.customFetch]: services.oidcFetch } : {}),
      },
    );
    pending.catch(() => discovered.delete(oidc));
    discovered.set(oidc, pending);
  }
  return pending.catch((err: unknown) => {
    services.logger.warn({ err: describe(err), issuer: oidc.issuer }, 'OpenID Connect discovery failed');
    throw new SsoRefusal(
      502,
      'provider_unreachable',
      `The identity provider at ${oidc.issuer} could not be reached or answered unexpectedly (${describe(err)}).`,
    );
  });
}

/** An error's message and, for a TLS or network failure, its cause, without tokens. */
function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
  return `${err.message}${cause}`;
}

/** The redirect URI registered at the provider: under SCANWARD_PUBLIC_URL, else the request's own origin. */
export function redirectUri(services: Services, ctx: Context): string {
  const base = (services.config.publicUrl ?? `${ctx.protocol}://${ctx.host}`).replace(/\/+$/, '');
  return `${base}${OIDC_CALLBACK_PATH}`;
}

interface Flow {
  state: string;
  nonce: string;
  verifier: string;
  redirect_uri: string;
}

function flowCookieOptions(ctx: Context, maxAge: number) {
  // Lax, not Strict: the callback arrives as a top-level navigation from the provider's site.
  return {
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: ctx.secure,
    path: '/api/v1/auth/oidc',
    maxAge,
    overwrite: true,
  };
}

/** Starts a sign-in: remembers state, nonce and verifier in the flow cookie; answers the provider's URL. */
export async function beginSignIn(services: Services, oidc: OidcConfig, ctx: Context): Promise<string> {
  const config = await configurationOf(services, oidc);
  const flow: Flow = {
    state: client.randomState(),
    nonce: client.randomNonce(),
    verifier: client.randomPKCECodeVerifier(),
    redirect_uri: redirectUri(services, ctx),
  };
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: flow.redirect_uri,
    scope: OIDC_SCOPES,
    code_challenge: await client.calculatePKCECodeChallenge(flow.verifier),
    code_challenge_method: 'S256',
    state: flow.state,
    nonce: flow.nonce,
  });
  const sealed = await new EncryptJWT({ ...flow })
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
    .setIssuedAt()
    .setAudience(FLOW_AUDIENCE)
    .setExpirationTime(`${FLOW_LIFETIME_SECONDS}s`)
    .encrypt(services.keys.encryptionKey);
  ctx.cookies.set(FLOW_COOKIE, sealed, flowCookieOptions(ctx, FLOW_LIFETIME_SECONDS * 1000));
  return url.href;
}

async function openFlow(services: Services, ctx: Context): Promise<Flow> {
  const sealed = ctx.cookies.get(FLOW_COOKIE);
  // One use: whatever happens next, the flow is over.
  ctx.cookies.set(FLOW_COOKIE, '', flowCookieOptions(ctx, 0));
  const expired = () =>
    new SsoRefusal(
      400,
      'flow_expired',
      'This sign-in was not started in this browser, or took longer than 10 minutes. Start it again.',
    );
  if (!sealed) throw expired();
  try {
    const { payload } = await jwtDecrypt(sealed, services.keys.encryptionKey, { audience: FLOW_AUDIENCE });
    const { state, nonce, verifier, redirect_uri } = payload as Partial<Flow>;
    if (!state || !nonce || !verifier || !redirect_uri) throw expired();
    return { state, nonce, verifier, redirect_uri };
  } catch {
    throw expired();
  }
}

/** What the callback learned of the person, for the audit trail of a failure. */
interface Claimed {
  email?: string | undefined;
  user?: UserRow | undefined;
}

/** The ID token's claims after every check openid-client makes (state, PKCE, issuer, audience, signature, expiry, nonce). */
async function exchange(services: Services, oidc: OidcConfig, ctx: Context, flow: Flow) {
  const config = await configurationOf(services, oidc);
  const current = new URL(flow.redirect_uri);
  current.search = ctx.querystring;
  try {
    const tokens = await client.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) throw new Error('the provider answered without an ID token');
    if (claims.email !== undefined || !tokens.access_token || !config.serverMetadata().userinfo_endpoint) {
      return claims;
    }
    // Providers that keep the ID token thin (scope claims only at userinfo, as OpenID Connect
    // allows when an access token is issued) give the e-mail there, for the same subject.
    const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
    return { ...claims, email: info.email, email_verified: info.email_verified };
  } catch (err) {
    if (err instanceof client.AuthorizationResponseError) {
      const said = err.error_description ? `${err.error}: ${err.error_description}` : err.error;
      throw new SsoRefusal(400, 'provider_error', `The identity provider did not sign you in (${said}).`);
    }
    throw new SsoRefusal(
      400,
      'invalid_response',
      `The identity provider's answer was refused: ${describe(err)}.`,
    );
  }
}

function emailOf(claims: client.IDToken, oidc: OidcConfig): string {
  const email = typeof claims.email === 'string' ? claims.email.trim() : '';
  if (!email) {
    throw new SsoRefusal(
      403,
      'email_missing',
      'The identity provider sent no e-mail address. Its client must grant the "email" scope.',
    );
  }
  const verified = claims.email_verified === true || claims.email_verified === 'true';
  if (!verified && !oidc.allowUnverifiedEmail) {
    throw new SsoRefusal(403, 'email_unverified', `The identity provider has not verified ${email}.`);
  }
  return email;
}

/** The organization auto-provisioned users join: the first one (made at first start). */
async function defaultOrganizationId(db: Db): Promise<string | undefined> {
  return (await listOrganizations(db))[0]?.id;
}

/** A new user of the default organization for an unknown, verified e-mail, with no password anyone knows. */
async function provision(db: Db, oidc: OidcConfig, email: string, ip: string, now: Date): Promise<UserRow> {
  const orgId = await defaultOrganizationId(db);
  if (!orgId) throw new SsoRefusal(403, 'unknown_user', 'This service has no organization yet.');
  try {
    const user = await createUser(db, {
      orgId,
      email,
      password: randomBytes(32).toString('base64url'),
      role: oidc.defaultRole,
    });
    await recordAuditEvent(
      db,
      {
        orgId,
        action: 'user.provisioned',
        target: { id: user.id, email: user.email },
        ip,
        details: { role: user.role, method: 'oidc' },
      },
      now,
    );
    return user;
  } catch (err) {
    // The same person signing in twice at once: the other sign-in made the user.
    const taken = err instanceof EmailTakenError || (err as { code?: unknown }).code === '23505';
    const user = taken ? await findUserByEmail(db, email) : undefined;
    if (user) return user;
    throw err;
  }
}

async function resolveUser(
  services: Services,
  oidc: OidcConfig,
  claims: client.IDToken,
  claimed: Claimed,
  ip: string,
  now: Date,
): Promise<UserRow> {
  const email = emailOf(claims, oidc);
  claimed.email = email;
  let user = await findUserByEmail(services.db, email);
  claimed.user = user;
  if (!user) {
    if (!oidc.autoProvision) {
      throw new SsoRefusal(
        403,
        'unknown_user',
        `No Scanward account has the e-mail ${email}. Ask an admin of your organization to invite you.`,
      );
    }
    user = await provision(services.db, oidc, email, ip, now);
    claimed.user = user;
  }
  if (user.disabled_at) {
    throw new SsoRefusal(403, 'user_disabled', `The account ${user.email} is disabled.`);
  }
  return user;
}

/**
 * Completes a sign-in at the callback: on success the console cookie is set (a new session,
 * `auth.login` with method `oidc`); otherwise an {@link SsoRefusal} is thrown after
 * `auth.login_failed` is recorded in the person's organization (the default one when the
 * person is unknown).
 */
export async function completeSignIn(
  services: Services,
  oidc: OidcConfig,
  ctx: Context,
  now = new Date(),
): Promise<UserRow> {
  const claimed: Claimed = {};
  try {
    const flow = await openFlow(services, ctx);
    const claims = await exchange(services, oidc, ctx, flow);
    const user = await resolveUser(services, oidc, claims, claimed, ctx.ip, now);
    const session = await createSession(
      services.db,
      { orgId: user.org_id, userId: user.id },
      { ip: ctx.ip, userAgent: ctx.get('user-agent') || undefined },
      now,
    );
    const person = { id: user.id, email: user.email };
    await recordAuditEvent(
      services.db,
      {
        orgId: user.org_id,
        action: 'auth.login',
        actor: person,
        target: person,
        ip: ctx.ip,
        details: { method: 'oidc' },
      },
      now,
    );
    const token = await issueToken(
      services.keys.jwtSecret,
      { sub: user.id, org: user.org_id, sid: session.id },
      now,
    );
    setConsoleCookie(ctx, token.access_token);
    return user;
  } catch (err) {
    if (err instanceof SsoRefusal) await recordFailure(services.db, err, claimed, ctx.ip, now);
    throw err;
  }
}

async function recordFailure(db: Db, refusal: SsoRefusal, claimed: Claimed, ip: string, now: Date) {
  const orgId = claimed.user?.org_id ?? (await defaultOrganizationId(db));
  if (!orgId) return;
  const target = claimed.user
    ? { id: claimed.user.id, email: claimed.user.email }
    : claimed.email
      ? { id: null, email: claimed.email }
      : undefined;
  await recordAuditEvent(
    db,
    {
      orgId,
      action: 'auth.login_failed',
      target,
      ip,
      details: { method: 'oidc', reason: refusal.reason },
    },
    now,
  );
}
