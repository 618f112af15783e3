import { randomBytes } from 'node:crypto';
import { EncryptJWT, jwtDecrypt } from 'jose';
import type { Context } from 'koa';
import * as client from 'openid-client';
import type { OidcConfig } from '../config.ts';
import type { Db } from '../db/index.ts';
import { recordAuditEvent } from '../identity/audit.ts';
import { AppError } from '../errors.ts';
import {
  findSignInSettings,
  listOrganizations,
  listSsoOrganizations,
} from '../identity/organizations.repository.ts';
import {
  bindSsoIdentity,
  findUser,
  findUserBySsoIdentityInAnyOrganization,
  type UserRow,
} from '../identity/users.repository.ts';
import { createUser, EmailTakenError, findUserByEmail } from '../identity/users.ts';
import type { Services } from '../services.ts';
import { setConsoleCookie } from './console-session.ts';
import { failedWith, passed, throttledCheck } from './login-throttle.ts';
import { consumeLoginCode, invalidMfaCode } from './mfa.ts';
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
  | 'user_disabled'
  | 'sso_not_enabled'
  | 'identity_mismatch';

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

/** The organization failures are recorded in when the person is unknown: the first one (made at first start). */
async function defaultOrganizationId(db: Db): Promise<string | undefined> {
  return (await listOrganizations(db))[0]?.id;
}

/** Whether an address is under one of the domains: the domain itself or a subdomain of it, in any case. */
export function underDomains(email: string, domains: readonly string[]): boolean {
  const at = email.lastIndexOf('@');
  if (at < 0) return false;
  const host = email.slice(at + 1).toLowerCase();
  return domains.some((d) => host === d || host.endsWith(`.${d}`));
}

/** Whether the provider says the person gave a second factor (`amr`, RFC 8176: mfa, otp or hwk). */
export function providerMfa(claims: Record<string, unknown>): boolean {
  return Array.isArray(claims.amr) && claims.amr.some((m) => m === 'mfa' || m === 'otp' || m === 'hwk');
}

const notOptedIn = (email: string) =>
  new SsoRefusal(
    403,
    'sso_not_enabled',
    `Single sign-on is not turned on for ${email} in its Scanward organization. Sign in with your password, or ask an admin to turn single sign-on on for your e-mail domain.`,
  );

/** Whether the user's organization lets SSO sign them in: SSO on, and their address under its domains. */
async function assertOptedIn(db: Db, user: UserRow): Promise<{ trustsProviderMfa: boolean }> {
  const settings = await findSignInSettings(db, user.org_id);
  if (!settings?.sso_enabled || !underDomains(user.email, settings.sso_domains)) throw notOptedIn(user.email);
  return { trustsProviderMfa: settings.sso_trusts_idp_mfa };
}

/**
 * A new user for an unknown, verified e-mail, with no password anyone knows, in the one
 * organization that turned SSO on for the address's domain (none or several: refused).
 */
async function provision(db: Db, oidc: OidcConfig, email: string, ip: string, now: Date): Promise<UserRow> {
  const candidates = (await listSsoOrganizations(db)).filter((o) => underDomains(email, o.sso_domains));
  const orgId = candidates.length === 1 ? candidates[0]!.id : undefined;
  if (!orgId) {
    throw new SsoRefusal(
      403,
      'unknown_user',
      `No Scanward account has the e-mail ${email}. Ask an admin of your organization to invite you.`,
    );
  }
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

interface Resolved {
  user: UserRow;
  /** Whether the local MFA is still to be given (the user has it, and the provider's does not stand in). */
  localMfaDue: boolean;
}

/**
 * The account a verified ID token signs in to (issue 31, item 3): the one bound to its `iss` +
 * `sub` when there is one; else, only at the first SSO sign-in, the account of its verified
 * e-mail (compared without regard to case), which is then bound to that identity, so an account
 * already bound is never reached by e-mail again. Either way only in an organization that
 * turned SSO on, for an address under its domains.
 */
async function resolveUser(
  services: Services,
  oidc: OidcConfig,
  claims: client.IDToken,
  claimed: Claimed,
  ip: string,
  now: Date,
): Promise<Resolved> {
  const { db } = services;
  const identity = { issuer: claims.iss, subject: claims.sub };
  let user = await findUserBySsoIdentityInAnyOrganization(db, identity.issuer, identity.subject);
  if (user) {
    claimed.user = user;
    claimed.email = user.email;
  } else {
    const email = emailOf(claims, oidc);
    claimed.email = email;
    user = await findUserByEmail(db, email);
    claimed.user = user;
    if (!user) {
      if (!oidc.autoProvision) {
        throw new SsoRefusal(
          403,
          'unknown_user',
          `No Scanward account has the e-mail ${email}. Ask an admin of your organization to invite you.`,
        );
      }
      user = await provision(db, oidc, email, ip, now);
      claimed.user = user;
    }
    if (user.sso_subject) {
      throw new SsoRefusal(
        403,
        'identity_mismatch',
        `The account ${user.email} signs in with another single sign-on identity. Sign in as that identity.`,
      );
    }
  }
  if (user.disabled_at) {
    throw new SsoRefusal(403, 'user_disabled', `The account ${user.email} is disabled.`);
  }
  const { trustsProviderMfa } = await assertOptedIn(db, user);
  if (!user.sso_subject && !(await bindSsoIdentity(db, user.org_id, user.id, identity, now))) {
    // Another sign-in bound it meanwhile: only to this same identity is fine.
    const again = await findUserBySsoIdentityInAnyOrganization(db, identity.issuer, identity.subject);
    if (again?.id !== user.id) {
      throw new SsoRefusal(
        403,
        'identity_mismatch',
        `The account ${user.email} signs in with another single sign-on identity. Sign in as that identity.`,
      );
    }
  }
  return {
    user,
    localMfaDue: user.mfa_enabled && !(trustsProviderMfa && providerMfa(claims as Record<string, unknown>)),
  };
}

/** The cookie that carries a single sign-on past the provider to the local MFA step (encrypted, 5 minutes). */
const MFA_COOKIE = 'scanward_oidc_mfa';
const MFA_STEP_SECONDS = 5 * 60;
const MFA_AUDIENCE = 'scanward:oidc-mfa';
export const OIDC_MFA_PATH = '/api/v1/auth/oidc/mfa';

function mfaCookieOptions(ctx: Context, maxAge: number) {
  // Strict: only this service's own MFA page posts it back.
  return {
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: ctx.secure,
    path: OIDC_MFA_PATH,
    maxAge,
    overwrite: true,
  };
}

/** Signs the user in: a new session, `auth.login` (method `oidc`), the console cookie. */
async function openSession(
  services: Services,
  ctx: Context,
  user: UserRow,
  details: Record<string, string>,
  now: Date,
) {
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
      details: { method: 'oidc', ...details },
    },
    now,
  );
  const token = await issueToken(
    services.keys.jwtSecret,
    { sub: user.id, org: user.org_id, sid: session.id },
    now,
  );
  setConsoleCookie(ctx, token.access_token);
}

/** What the callback did: signed in, or the local MFA code is still to be given (the MFA page). */
export type SignInOutcome = { signedIn: true; user: UserRow } | { signedIn: false; mfaDue: true };

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
): Promise<SignInOutcome> {
  const claimed: Claimed = {};
  try {
    const flow = await openFlow(services, ctx);
    const claims = await exchange(services, oidc, ctx, flow);
    const { user, localMfaDue } = await resolveUser(services, oidc, claims, claimed, ctx.ip, now);
    if (localMfaDue) {
      // The provider vouched for the person, but the account's own second factor is still due.
      const sealed = await new EncryptJWT({ uid: user.id, org: user.org_id })
        .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
        .setIssuedAt()
        .setAudience(MFA_AUDIENCE)
        .setExpirationTime(`${MFA_STEP_SECONDS}s`)
        .encrypt(services.keys.encryptionKey);
      ctx.cookies.set(MFA_COOKIE, sealed, mfaCookieOptions(ctx, MFA_STEP_SECONDS * 1000));
      return { signedIn: false, mfaDue: true };
    }
    await openSession(services, ctx, user, user.mfa_enabled ? { mfa: 'provider' } : {}, now);
    return { signedIn: true, user };
  } catch (err) {
    if (err instanceof SsoRefusal) await recordFailure(services.db, err, claimed, ctx.ip, now);
    throw err;
  }
}

/**
 * The local MFA step after a single sign-on: the code (TOTP or recovery code) of the account
 * the MFA cookie names, under the log-in limits; a wrong code counts as a failed log-in and
 * answers the page again (401). Right: signed in as at the callback.
 */
export async function completeSignInMfa(
  services: Services,
  ctx: Context,
  code: string,
  now = new Date(),
): Promise<UserRow> {
  const sealed = ctx.cookies.get(MFA_COOKIE);
  const expired = () =>
    new SsoRefusal(
      403,
      'flow_expired',
      'This sign-in took longer than 5 minutes, or was not started here. Start it again.',
    );
  if (!sealed) throw expired();
  let ref: { uid: string; org: string };
  try {
    const { payload } = await jwtDecrypt(sealed, services.keys.encryptionKey, { audience: MFA_AUDIENCE });
    if (typeof payload.uid !== 'string' || typeof payload.org !== 'string') throw expired();
    ref = { uid: payload.uid, org: payload.org };
  } catch {
    throw expired();
  }
  const user = await findUser(services.db, ref.org, ref.uid);
  if (!user || user.disabled_at) throw expired();
  const person = { id: user.id, email: user.email };
  await throttledCheck(
    services.db,
    { email: user.email, ip: ctx.ip },
    async () =>
      !user.mfa_enabled || (await consumeLoginCode(services.db, services.keys.encryptionKey, user, code, now))
        ? passed(undefined)
        : failedWith(invalidMfaCode()),
    now,
  ).catch(async (err: unknown) => {
    if (err instanceof AppError && err.status === 401) {
      await recordAuditEvent(
        services.db,
        {
          orgId: user.org_id,
          action: 'auth.login_failed',
          target: person,
          ip: ctx.ip,
          details: { method: 'oidc', reason: err.code },
        },
        now,
      );
    }
    throw err;
  });
  ctx.cookies.set(MFA_COOKIE, '', mfaCookieOptions(ctx, 0));
  await openSession(services, ctx, user, { mfa: 'local' }, now);
  return user;
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
