import { createHmac, randomUUID } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, errors, jwtVerify, SignJWT } from 'jose';
import type { Db } from '../db/index.ts';
import { AppError, insufficientPermission, planUpgradeRequired, rateLimited } from '../errors.ts';
import type { Principal } from '../http/principal.ts';
import { recordAuditEvent } from '../identity/audit.ts';
import { planAllows } from '../identity/plans.ts';
import { releaseAttempt, reserveAttempt } from '../ratelimit/sliding-window.ts';
import { Permission } from '../schemas/common.ts';
import { CI_TOKEN_MAX_LIFETIME_SECONDS, type CiTokenResponse } from '../schemas/ci-trust.ts';
import type { Services } from '../services.ts';
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
 * 2. The token is verified against that issuer's keys (ci-issuers.ts) for the audiences of
 *    the issuer's policies: any failure is 401 (TOKEN_EXPIRED when only expired).
 * 3. The policies whose audience the token carries are matched against its claims; the
 *    oldest matching one of the organization wins. None: 403. Matches in several
 *    organizations (which share an audience): 403 unless the request names one.
 * 4. The answer is an HS256 access token, typed `scanward-ci+jwt` and signed with a key of
 *    its own (derived from the service's secret), so it can never pass for a session token
 *    or the reverse; it lives at most 15 minutes, cannot be refreshed, and acts as the
 *    policy's creator limited to the policy's permissions (like an API key), for as long
 *    as the policy exists and its creator is not disabled.
 *
 * Every exchange whose token verified is an audit event of each organization concerned.
 * The endpoint is public: one client address gets at most {@link MAX_REFUSED_EXCHANGES_PER_ADDRESS}
 * refused exchanges in {@link EXCHANGE_WINDOW_SECONDS} (as many as failed log-ins), then 429.
 */

export const CI_TOKEN_TYPE = 'scanward-ci+jwt';

/** The key CI access tokens are signed with: derived from the service secret, distinct from the session tokens'. */
function ciTokenKey(jwtSecret: Uint8Array): Uint8Array {
  return new Uint8Array(createHmac('sha256', jwtSecret).update('scanward ci access token v1').digest());
}

interface Audited {
  orgIds: string[];
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
  for (const orgId of target.orgIds) {
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
  let issuer: unknown;
  try {
    issuer = decodeJwt(request.idToken).iss;
  } catch {
    throw new AppError(401, 'INVALID_TOKEN', 'the ID token is not a JSON Web Token');
  }
  if (typeof issuer !== 'string' || !allowedIssuers(services.config).includes(issuer)) {
    throw new AppError(401, 'INVALID_TOKEN', 'the ID token comes from an issuer this service does not trust');
  }
  const candidates = await findCiTrustPoliciesByIssuer(db, issuer);
  const audiences = [...new Set(candidates.map((p) => p.audience))];
  if (services.config.publicUrl) audiences.push(services.config.publicUrl.replace(/\/$/, ''));
  // No audience can be right (step 2): the token is not addressed to this service, as when it names another.
  if (audiences.length === 0) {
    throw new AppError(
      401,
      'INVALID_TOKEN',
      'the ID token is not addressed to this service: no trust policy names its issuer',
    );
  }

  let claims;
  try {
    claims = await services.ciIssuers.verify(request.idToken, issuer, audiences, now);
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
  const tokenAudiences = new Set(Array.isArray(claims.aud) ? claims.aud : [claims.aud]);
  const addressed = candidates.filter((p) => tokenAudiences.has(p.audience));
  const identity = identityOf(claims as Record<string, unknown>);
  const orgIds = [...new Set(addressed.map((p) => p.org_id))];
  const target = { orgIds, identity, issuer };

  let matching = addressed.filter((p) => mismatch(p, identity) === undefined);
  if (request.organizationId !== undefined)
    matching = matching.filter((p) => p.org_id === request.organizationId);
  const matchingOrgs = new Set(matching.map((p) => p.org_id));
  if (matching.length === 0 || matchingOrgs.size > 1) {
    const reason =
      matching.length === 0
        ? addressed.length === 0
          ? 'no trust policy has the audience of the token'
          : `no trust policy matches (${[...new Set(addressed.map((p) => mismatch(p, identity) ?? 'other organization'))].join('; ')})`
        : 'trust policies of several organizations match: name one with organization_id';
    await audit(
      db,
      {
        ...target,
        orgIds: request.organizationId ? orgIds.filter((o) => o === request.organizationId) : orgIds,
      },
      { issued: false, reason },
      request.ip,
      now,
    );
    throw insufficientPermission(reason);
  }
  const policy = matching[0]!;
  const caller = await findCiTokenCaller(db, policy.org_id, policy.id);
  if (!caller || !planAllows(caller.org.plan, 'api_keys')) {
    await audit(
      db,
      { ...target, orgIds: [policy.org_id] },
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
  await audit(
    db,
    { ...target, orgIds: [policy.org_id] },
    { issued: true, policy, permissions },
    request.ip,
    now,
  );
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
