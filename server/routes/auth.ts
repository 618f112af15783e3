import type { Principal } from '../policies/principal.ts';
import { login } from '../auth/login.ts';
import { failedWith, loginLimitHeaders, passed, throttledCheck } from '../auth/login-throttle.ts';
import {
  beginMfaSetup,
  disableMfa,
  invalidMfaCode,
  mfaState,
  regenerateRecoveryCodes,
  verifyMfaSetup,
} from '../auth/mfa.ts';
import { listSessions, revokeAllSessions, revokeSession } from '../auth/sessions.ts';
import { issueToken, invalidToken } from '../auth/tokens.ts';
import { exchangeCiToken } from '../auth/ci-exchange.ts';
import { CiTokenRequest, CiTokenResponse } from '../schemas/ci-trust.ts';
import { defineRoute } from '../http/contract.ts';
import { notFound } from '../errors.ts';
import {
  LogoutAllResponse,
  MfaCodeBody,
  MfaEnrolled,
  MfaProofBody,
  MfaRecoveryCodes,
  MfaSetupResponse,
  MfaState,
  MfaStatus,
  Revoked,
  SessionIdParams,
  SessionList,
  TokenRequest,
  TokenResponse,
} from '../schemas/auth.ts';
import { PaginationQuery } from '../schemas/common.ts';
import { InviteAccept, InviteAccepted, PasswordChange, PasswordChanged } from '../schemas/people.ts';
import { acceptInvite, changeOwnPassword } from '../people/people.ts';
import type { Services } from '../services.ts';

const tags = ['Authentication'];

const owner = (principal: Principal) => ({ orgId: principal.org.id, userId: principal.user.id });

export const createToken = defineRoute({
  method: 'post',
  path: '/api/v1/auth/token',
  operationId: 'createToken',
  summary: 'Log in: exchange e-mail and password (and MFA code) for an access token',
  description:
    'Form-encoded. Every login creates a session (30 days). Unknown e-mails answer like wrong passwords. ' +
    'After 10 failed attempts for one e-mail, or 50 from one client address, within 15 minutes, ' +
    'logins answer 429 until the window passes. Not counted against the organization request rate. ' +
    'Every answer carries `X-RateLimit-*` of the per-address limit (50 failed log-ins in 15 minutes).',
  tags,
  access: { public: true },
  body: TokenRequest,
  bodyType: 'form',
  responses: { 200: { description: 'Access token', schema: TokenResponse } },
  errors: [
    'INVALID_CREDENTIALS',
    'MFA_REQUIRED',
    'INVALID_MFA_CODE',
    'PASSWORD_LOGIN_DISABLED',
    'RATE_LIMIT_EXCEEDED',
  ],
  // Every answer: X-RateLimit-* of the 50 failed log-ins per client address.
  answerHeaders: (ctx, services) => loginLimitHeaders(services.db, ctx.ip),
  handler: async ({ body, services, ctx }) => ({
    body: await login(services.db, services.keys, {
      email: body.username,
      password: body.password,
      mfaCode: body.mfa_code,
      ip: ctx.ip,
      userAgent: ctx.get('user-agent') || undefined,
    }),
  }),
});

export const postCiToken = defineRoute({
  method: 'post',
  path: '/api/v1/auth/ci-token',
  operationId: 'exchangeCiToken',
  summary: "Exchange a CI provider's ID token for a short-lived access token",
  description:
    'Keyless CI sign-in: the ID token (GitHub Actions, GitLab `id_tokens:`…) is verified against its ' +
    "issuer's published keys and matched against the trust policies. The answer is a bearer token of " +
    "at most 15 minutes carrying only the matching policy's permissions; it cannot be refreshed. " +
    'An invalid token answers 401, a valid one no policy matches 403. Every exchange is in the audit trail. ' +
    'One client address gets at most 50 refused exchanges in 15 minutes, then 429 with `Retry-After`.',
  tags,
  access: { public: true },
  body: CiTokenRequest,
  responses: { 200: { description: 'Access token', schema: CiTokenResponse } },
  errors: [
    'INVALID_TOKEN',
    'TOKEN_EXPIRED',
    'INSUFFICIENT_PERMISSION',
    'PLAN_UPGRADE_REQUIRED',
    'RATE_LIMIT_EXCEEDED',
    'SERVICE_UNAVAILABLE',
  ],
  handler: async ({ body, services, ctx }) => ({
    body: await exchangeCiToken(services, {
      idToken: body.id_token,
      organizationId: body.organization_id,
      ip: ctx.ip,
    }),
  }),
});

export const refreshToken = defineRoute({
  method: 'post',
  path: '/api/v1/auth/refresh',
  operationId: 'refreshToken',
  summary: 'Exchange a current access token for a new one of the same session',
  description: 'An expired token cannot be refreshed (TOKEN_EXPIRED); log in again instead.',
  tags,
  access: { bearerOnly: true },
  responses: { 200: { description: 'New access token', schema: TokenResponse } },
  errors: ['TOKEN_EXPIRED', 'INVALID_TOKEN', 'INSUFFICIENT_PERMISSION'],
  handler: async ({ principal, services }) => {
    if (!principal.sessionId) throw invalidToken();
    return {
      body: await issueToken(services.keys.jwtSecret, {
        sub: principal.user.id,
        org: principal.org.id,
        sid: principal.sessionId,
      }),
    };
  },
});

export const listMySessions = defineRoute({
  method: 'get',
  path: '/api/v1/auth/sessions',
  operationId: 'listSessions',
  summary: "List the caller's active sessions",
  tags,
  access: { bearerOnly: true },
  query: PaginationQuery,
  responses: { 200: { description: 'Active sessions, newest first', schema: SessionList } },
  errors: ['INSUFFICIENT_PERMISSION'],
  handler: async ({ principal, query, services }) => ({
    body: await listSessions(services.db, owner(principal), principal.sessionId, query.page, query.per_page),
  }),
});

export const deleteSession = defineRoute({
  method: 'delete',
  path: '/api/v1/auth/sessions/{session_id}',
  operationId: 'revokeSession',
  summary: "Revoke one of the caller's sessions",
  description: 'Every token of the session stops working at once (INVALID_TOKEN).',
  tags,
  access: { bearerOnly: true },
  params: SessionIdParams,
  responses: { 200: { description: 'The session is revoked', schema: Revoked } },
  errors: ['INSUFFICIENT_PERMISSION', 'NOT_FOUND'],
  handler: async ({ principal, params, services }) => {
    if (!(await revokeSession(services.db, owner(principal), params.session_id))) throw notFound('session');
    return { body: { id: params.session_id, revoked: true as const } };
  },
});

export const logoutAll = defineRoute({
  method: 'post',
  path: '/api/v1/auth/logout-all',
  operationId: 'logoutAll',
  summary: "Revoke all of the caller's sessions, the current one included",
  tags,
  access: { bearerOnly: true },
  responses: { 200: { description: 'How many sessions were revoked', schema: LogoutAllResponse } },
  errors: ['INSUFFICIENT_PERMISSION'],
  handler: async ({ principal, services }) => ({
    body: { revoked: await revokeAllSessions(services.db, owner(principal)) },
  }),
});

export const setupMfa = defineRoute({
  method: 'post',
  path: '/api/v1/auth/mfa/setup',
  operationId: 'setupMfa',
  summary: 'Start MFA enrolment: a new TOTP secret',
  description:
    'TOTP (RFC 6238: SHA-1, 6 digits, 30 s). MFA is on only after POST /api/v1/auth/mfa/verify ' +
    'with a code of this secret. Refused (CONFLICT) while MFA is on.',
  tags,
  access: { bearerOnly: true },
  responses: { 200: { description: 'The secret, shown once', schema: MfaSetupResponse } },
  errors: ['INSUFFICIENT_PERMISSION', 'CONFLICT'],
  handler: async ({ principal, services }) => {
    const { secret, otpauthUri } = await beginMfaSetup(
      services.db,
      services.keys.encryptionKey,
      owner(principal),
    );
    return { body: { secret, otpauth_uri: otpauthUri } };
  },
});

/**
 * Wrong codes on the MFA endpoints count as failed logins of the account, so a
 * stolen token cannot be used to guess codes at the request rate; the attempt is
 * reserved before the code is checked. `check` answers undefined for a wrong code.
 */
async function checkedCode<T>(
  services: Services,
  principal: Principal,
  ip: string,
  check: () => Promise<T | undefined>,
): Promise<T> {
  return throttledCheck(services.db, { email: principal.user.email, ip }, async () => {
    const result = await check();
    return result === undefined ? failedWith(invalidMfaCode()) : passed(result);
  });
}

export const getMfa = defineRoute({
  method: 'get',
  path: '/api/v1/auth/mfa',
  operationId: 'getMfa',
  summary: "Whether the caller's MFA is on, and how many recovery codes are left",
  tags,
  access: { bearerOnly: true },
  responses: { 200: { description: 'The MFA state', schema: MfaState } },
  errors: ['INSUFFICIENT_PERMISSION'],
  handler: async ({ principal, services }) => {
    const state = await mfaState(services.db, owner(principal));
    return { body: { mfa_enabled: state.enabled, recovery_codes_remaining: state.recoveryCodesLeft } };
  },
});

export const verifyMfa = defineRoute({
  method: 'post',
  path: '/api/v1/auth/mfa/verify',
  operationId: 'verifyMfa',
  summary: 'Turn MFA on with a code of the secret from setup; answers 10 recovery codes',
  description:
    'The answer carries 10 single-use recovery codes, shown only here: each logs in once in place of ' +
    'a TOTP code (and is accepted wherever a current code is asked for). New ones replace them with ' +
    'POST /api/v1/auth/mfa/recovery-codes.',
  tags,
  access: { bearerOnly: true },
  body: MfaCodeBody,
  responses: { 200: { description: 'MFA is on', schema: MfaEnrolled } },
  errors: ['INSUFFICIENT_PERMISSION', 'INVALID_MFA_CODE', 'CONFLICT', 'RATE_LIMIT_EXCEEDED'],
  handler: async ({ principal, body, services, ctx }) => {
    const codes = await checkedCode(services, principal, ctx.ip, () =>
      verifyMfaSetup(
        services.db,
        services.keys.encryptionKey,
        { ...owner(principal), ip: ctx.ip },
        body.code,
      ),
    );
    return { body: { mfa_enabled: true as const, recovery_codes: codes } };
  },
});

export const regenerateMfaRecoveryCodes = defineRoute({
  method: 'post',
  path: '/api/v1/auth/mfa/recovery-codes',
  operationId: 'regenerateMfaRecoveryCodes',
  summary: 'Replace the MFA recovery codes with 10 new ones',
  description:
    'Needs a current TOTP code or an unused recovery code (which is spent). Every earlier recovery ' +
    'code stops working; the new ones are shown only in this response. Wrong codes count as failed logins.',
  tags,
  access: { bearerOnly: true },
  body: MfaProofBody,
  responses: { 200: { description: 'The new recovery codes', schema: MfaRecoveryCodes } },
  errors: ['INSUFFICIENT_PERMISSION', 'INVALID_MFA_CODE', 'CONFLICT', 'RATE_LIMIT_EXCEEDED'],
  handler: async ({ principal, body, services, ctx }) => {
    const codes = await checkedCode(services, principal, ctx.ip, () =>
      regenerateRecoveryCodes(
        services.db,
        services.keys.encryptionKey,
        { ...owner(principal), ip: ctx.ip },
        body.code,
      ),
    );
    return { body: { recovery_codes: codes } };
  },
});

export const deleteMfa = defineRoute({
  method: 'delete',
  path: '/api/v1/auth/mfa',
  operationId: 'disableMfa',
  summary: 'Turn MFA off with a current code or a recovery code',
  description: 'A recovery code is accepted in place of a TOTP code. The recovery codes are deleted.',
  tags,
  access: { bearerOnly: true },
  body: MfaProofBody,
  responses: { 200: { description: 'MFA is off', schema: MfaStatus } },
  errors: ['INSUFFICIENT_PERMISSION', 'INVALID_MFA_CODE', 'CONFLICT', 'RATE_LIMIT_EXCEEDED'],
  handler: async ({ principal, body, services, ctx }) => {
    await checkedCode(services, principal, ctx.ip, async () =>
      (await disableMfa(
        services.db,
        services.keys.encryptionKey,
        { ...owner(principal), ip: ctx.ip },
        body.code,
      ))
        ? true
        : undefined,
    );
    return { body: { mfa_enabled: false } };
  },
});

export const changePassword = defineRoute({
  method: 'post',
  path: '/api/v1/auth/password',
  operationId: 'changePassword',
  summary: "Change the caller's own password",
  description:
    'Checks `current_password` (a wrong one is 422 on `current_password` and counts as a failed log-in of ' +
    "the caller's e-mail), sets `new_password` (at least 12 characters) and revokes every other session of " +
    'the caller; the calling session stays. API keys stay.',
  tags,
  access: { bearerOnly: true },
  body: PasswordChange,
  responses: { 200: { description: 'The password is changed', schema: PasswordChanged } },
  errors: ['INSUFFICIENT_PERMISSION', 'RATE_LIMIT_EXCEEDED'],
  handler: async ({ principal, body, services, ctx }) => ({
    body: await changeOwnPassword(services.db, principal, body, ctx.ip),
  }),
});

export const acceptInvitation = defineRoute({
  method: 'post',
  path: '/api/v1/auth/invitations/accept',
  operationId: 'acceptInvitation',
  summary: 'Set the password of an invited account with its one-time token',
  description:
    'The token is the `token` of the `invite_url` an admin received (POST /api/v1/users). It works once and ' +
    'expires 72 hours after the invitation; a used, expired or unknown token is 422 on `token`. Then log in ' +
    'with the e-mail and the new password. An invitation of an address that has an account in another ' +
    'organization is 409 CONFLICT saying so (only the person opening the link learns it).',
  tags,
  access: { public: true },
  body: InviteAccept,
  responses: { 200: { description: 'The password is set', schema: InviteAccepted } },
  errors: ['CONFLICT'],
  handler: async ({ body, services, ctx }) => ({
    body: await acceptInvite(services.db, body, ctx.ip),
  }),
});

export const authRoutes = [
  createToken,
  refreshToken,
  postCiToken,
  listMySessions,
  deleteSession,
  logoutAll,
  getMfa,
  setupMfa,
  verifyMfa,
  regenerateMfaRecoveryCodes,
  deleteMfa,
  changePassword,
  acceptInvitation,
];
