import { createHmac, randomUUID } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, errors, jwtVerify, SignJWT } from 'jose';
import type { Db } from '../db/index.ts';
import { AppError, insufficientPermission, planUpgradeRequired, rateLimited } from '../errors.ts';
import type { Principal } from '../policies/principal.ts';
import { recordAuditEvent } from '../identity/audit.ts';
import { planAllows } from '../identity/plans.ts';
import { releaseAttempt, reserveAttempt } from '../ratelimit/sliding-window.ts';
import { Permission } from '../schemas/common.ts';
import { CI_TOKEN_MAX_LIFETIME_SECONDS, type CiTokenResponse } from '../schemas/ci-trust.ts';
import type { Services } from '../services.ts';
import { findCiAudience } from '../identity/organizations.repository.ts';
import { organizationOfAudience } from './ci-audience.ts';
import { IdTokenInvalid, IssuerUnavailable } from './ci-issuers.ts';
import {
  findCiTokenCaller,
  findCiTrustPoliciesByIssuer,
  type CiTrustPolicyRow,
} from './ci-trust-policies.repository.ts';
import { allowedIssuers, identityOf, mismatch, type CiIdentity } from './ci-trust.ts';
import { invalidToken, tokenExpired } from './tokens.ts';

/**
 * The exchange of a CI provider's ID token for a Scanward access token (docs/ci-trust.md).
 *
 * 1. The token's `iss` (read before verifying) must be an allowed issuer, else 401.
 * 2. Its `aud` (read before verifying) must be an organization's audience (ci-audience.ts:
 *    minted by the service, one per organization), else 401; that organization is the only
 *    one whose policies are read, so no other organization can match, see or be told of the
 *    token. The token is verified against the issuer's keys (ci-issuers.ts) for exactly that
 *    audience: any failure is 401 (TOKEN_EXPIRED when only expired).
 * 3. The organization's policies of the issuer are matched against its claims; the oldest
 *    matching one wins. None: 403.
 * 4. The answer is an HS256 access token, typed `scanward-ci+jwt` and signed with a key of
 *    its own (derived from the service's secret), so it can never pass for a session token
 *    or the reverse; it lives at most 15 minutes, cannot be refreshed, and acts as the
 *    policy's creator limited to the policy's permissions (like an API key), for as long
 *    as the policy exists and its creator is not disabled.
 *
 * Every exchange whose token verified is an audit event of the organization its audience names, and
 * of no other.
 * The endpoint is public: one client address gets at most {@link MAX_REFUSED_EXCHANGES_PER_ADDRESS}
 * refused exchanges in {@link EXCHANGE_WINDOW_SECONDS} (as many as failed log-ins), then 429.
 */

export const CI_TOKEN_TYPE = 'scanward-ci+jwt';

/** The key CI access tokens are signed with: derived from the service secret, distinct from the session tokens'. */
function ciTokenKey(jwtSecret: Uint8Array): Uint8Array {
  return new Uint8Array(createHmac('sha256', jwtSecret).update('scanward ci access token v1').digest());
}

interface Audited {
  orgId: string;
  identity: CiIdentity;
  issuer: string;
}

async function audit(
  db: Db,
  target: Audited,
  outcome:
    { issued: true; policy: CiTrustPolicyRow; permissions: Permission[] } | { issued: false; reason: string },
  ip: string,
  now: Date,
): Promise<void> {
  const base: Record<string, string> = {
    repository: target.identity.repository ?? '',
    ref: target.identity.ref ?? '',
    issuer: target.issuer,
  };
  if (target.identity.event_name) base.event_name = target.identity.event_name;
  if (target.identity.job_workflow_ref) base.job_workflow_ref = target.identity.job_workflow_ref;
  if (target.identity.environment) base.environment = target.identity.environment;
  if (target.identity.sub) base.subject = target.identity.sub;
  const { orgId } = target;
  await recordAuditEvent(
    db,
    outcome.issued
      ? {
          orgId,
          action: 'ci.token_issued',
          ip,
          details: { ...base, policy_id: outcome.policy.id, permissions: outcome.permissions.join(' ') },
        }
      : { orgId, action: 'ci.token_refused', ip, details: { ...base, reason: outcome.reason } },
    now,
  );
}

export interface ExchangeRequest {
  idToken: string;
  organizationId?: string | undefined;
  ip: string;
}

/** The window of the refused exchanges of one address: a sliding 15 minutes, as for log-ins. */
export const EXCHANGE_WINDOW_SECONDS = 15 * 60;
export const MAX_REFUSED_EXCHANGES_PER_ADDRESS = 50;

/**
 * Exchanges the ID token, within the address's allowance of refusals: each exchange reserves
 * one before it runs (so the limit holds however many arrive at once, in every process), an
 * issued token gives it back, and so does an issuer out of reach (nobody's failure here).
 */
export async function exchangeCiToken(
  services: Services,
  request: ExchangeRequest,
  now = new Date(),
): Promise<CiTokenResponse> {
  const attempt = await reserveAttempt(
    services.db,
    [{ bucket: `ci-token:ip:${request.ip}`, max: MAX_REFUSED_EXCHANGES_PER_ADDRESS }],
    EXCHANGE_WINDOW_SECONDS,
    now,
  );
  if (!attempt.reserved) {
    throw rateLimited(
      'RATE_LIMIT_EXCEEDED',
      'too many refused token exchanges from this address; try again later',
      attempt.retryAfterSeconds,
    );
  }
  try {
    const answer = await exchange(services, request, now);
    await releaseAttempt(services.db, attempt.reservation);
    return answer;
  } catch (err) {
    if (err instanceof AppError && err.status === 503) await releaseAttempt(services.db, attempt.reservation);
    throw err;
  }
}

async function exchange(services: Services, request: ExchangeRequest, now: Date): Promise<CiTokenResponse> {
  const { db } = services;
  let unverified;
  try {
    unverified = decodeJwt(request.idToken);
  } catch {
    throw new AppError(401, 'INVALID_TOKEN', 'the ID token is not a JSON Web Token');
  }
  const issuer = unverified.iss;
  if (typeof issuer !== 'string' || !allowedIssuers(services.config).includes(issuer)) {
    throw new AppError(401, 'INVALID_TOKEN', 'the ID token comes from an issuer this service does not trust');
  }
  // Step 2: the organization is the one that owns the token's audience, and only its policies
  // are read; an audience nobody owns is a token not addressed to this service.
  const claimed = unverified.aud;
  const audiences = typeof claimed === 'string' ? [claimed] : Array.isArray(claimed) ? claimed : [];
  const orgId = await organizationOfAudience(
    db,
    audiences.filter((a): a is string => typeof a === 'string'),
  );
  const audience = orgId === undefined ? undefined : await findCiAudience(db, orgId);
  if (orgId === undefined || !audience) {
    throw new AppError(
      401,
      'INVALID_TOKEN',
      "the ID token is not addressed to this service: its audience is no organization's (GET /api/v1/ci-trust/audience)",
    );
  }

  let claims;
  try {
    claims = await services.ciIssuers.verify(request.idToken, issuer, [audience], now);
  } catch (err) {
    if (err instanceof IssuerUnavailable) {
      services.logger.warn({ issuer, reason: err.message }, 'OpenID issuer unavailable');
      throw new AppError(
        503,
        'SERVICE_UNAVAILABLE',
        'the issuer of the ID token cannot be reached; try again',
      );
    }
    if (err instanceof IdTokenInvalid) {
      if (err.expired) throw new AppError(401, 'TOKEN_EXPIRED', 'the ID token has expired');
      throw new AppError(401, 'INVALID_TOKEN', `the ID token is not valid: ${err.message}`);
    }
    throw err;
  }
  const identity = identityOf(claims as Record<string, unknown>);
  const target = { orgId, identity, issuer };
  const refuse = async (reason: string): Promise<never> => {
    await audit(db, target, { issued: false, reason }, request.ip, now);
    throw insufficientPermission(reason);
  };
  // organization_id, when given, must name the organization the audience belongs to.
  if (request.organizationId !== undefined && request.organizationId !== orgId) {
    await refuse('organization_id names another organization than the audience of the token');
  }
  const policies = await findCiTrustPoliciesByIssuer(db, orgId, issuer);
  const matching = policies.filter((p) => mismatch(p, identity) === undefined);
  if (matching.length === 0) {
    await refuse(
      policies.length === 0
        ? 'no trust policy of the organization names the issuer of the token'
        : `no trust policy matches (${[...new Set(policies.map((p) => mismatch(p, identity)!))].join('; ')})`,
    );
  }
  const policy = matching[0]!;
  const caller = await findCiTokenCaller(db, policy.org_id, policy.id);
  if (!caller || !planAllows(caller.org.plan, 'api_keys')) {
    await audit(
      db,
      target,
      { issued: false, reason: 'the plan does not include API access for CI' },
      request.ip,
      now,
    );
    if (!caller) throw insufficientPermission('no trust policy matches');
    throw planUpgradeRequired('CI trust policies');
  }
  const permissions = Permission.options.filter((p) => policy.permissions.includes(p));
  const lifetime = Math.min(services.config.ciTokenLifetimeSeconds, CI_TOKEN_MAX_LIFETIME_SECONDS);
  const iat = Math.floor(now.getTime() / 1000);
  const accessToken = await new SignJWT({
    org: policy.org_id,
    pol: policy.id,
    perms: permissions,
    repository: identity.repository ?? null,
    ref: identity.ref ?? null,
  })
    .setProtectedHeader({ alg: 'HS256', typ: CI_TOKEN_TYPE })
    .setSubject(caller.user.id)
    .setIssuedAt(iat)
    .setExpirationTime(iat + lifetime)
    .setJti(randomUUID())
    .sign(ciTokenKey(services.keys.jwtSecret));
  await audit(db, target, { issued: true, policy, permissions }, request.ip, now);
  return {
    access_token: accessToken,
    token_type: 'bearer',
    expires_in: lifetime,
    permissions,
    policy_id: policy.id,
  };
}

/** Whether a bearer token is a CI access token (by its header; the signature is checked by {@link ciPrincipal}). */
export function isCiAccessToken(token: string): boolean {
  try {
    return decodeProtectedHeader(token).typ === CI_TOKEN_TYPE;
  } catch {
    return false;
  }
}

/**
 * The caller of a CI access token: the policy's creator, limited to the permissions the token
 * carries that the policy still grants. 401 once the token expired, its policy was deleted or
 * its creator disabled.
 */
export async function ciPrincipal(services: Services, token: string): Promise<Principal> {
  let payload;
  try {
    ({ payload } = await jwtVerify(token, ciTokenKey(services.keys.jwtSecret), {
      algorithms: ['HS256'],
      typ: CI_TOKEN_TYPE,
      requiredClaims: ['sub', 'org', 'pol', 'perms', 'iat', 'exp', 'jti'],
    }));
  } catch (err) {
    if (err instanceof errors.JWTExpired) throw tokenExpired();
    throw invalidToken();
  }
  const { sub, org, pol, perms } = payload;
  if (
    typeof sub !== 'string' ||
    typeof org !== 'string' ||
    typeof pol !== 'string' ||
    !Array.isArray(perms)
  ) {
    throw invalidToken();
  }
  const caller = await findCiTokenCaller(services.db, org, pol);
  if (!caller || caller.user.id !== sub) throw invalidToken();
  if (!planAllows(caller.org.plan, 'api_keys')) throw planUpgradeRequired('CI trust policies');
  const granted = new Set<Permission>(caller.permissions);
  const permissions = new Set(Permission.options.filter((p) => perms.includes(p) && granted.has(p)));
  return { via: 'ci_token', user: caller.user, org: caller.org, ciPolicyId: pol, permissions };
}
