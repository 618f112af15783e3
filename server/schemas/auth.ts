import { z } from 'zod';
import { IdParam, paginated, Permission, Plan, Role, Timestamp } from './common.ts';

/** Wire shapes of login, sessions, MFA and API keys (interface-spec "Authentication", decisions.md). */

// ---- Login and tokens ----

/** Form fields of POST /api/v1/auth/token. Extra OAuth2 fields (grant_type, scope…) are ignored. */
export const TokenRequest = z
  .object({
    username: z
      .string()
      .min(1, { error: 'is required' })
      .max(320)
      .meta({ description: 'The account e-mail' }),
    password: z.string().min(1, { error: 'is required' }).max(1024),
    mfa_code: z.string().max(32).optional().meta({
      description:
        'Current 6-digit TOTP code, or an unused recovery code (spent by the log-in); required when MFA is enabled',
    }),
  })
  .meta({ id: 'TokenRequest' });
export type TokenRequest = z.infer<typeof TokenRequest>;

export const TokenResponse = z
  .object({
    access_token: z.string().meta({ description: 'HS256 JSON Web Token' }),
    token_type: z.literal('bearer'),
    expires_in: z.literal(3600).meta({ description: 'Seconds until the token expires' }),
  })
  .meta({ id: 'Token' });
export type TokenResponse = z.infer<typeof TokenResponse>;

// ---- Sessions ----

export const SessionRecord = z
  .object({
    id: z.string().meta({ example: 'sess_0123456789abcdefghijklmn' }),
    created_at: Timestamp,
    last_used_at: Timestamp.meta({ description: 'Updated at most once a minute' }),
    expires_at: Timestamp.meta({ description: 'created_at + 30 days; refreshing does not extend it' }),
    ip_address: z.string().nullable(),
    user_agent: z.string().nullable(),
    current: z.boolean().meta({ description: 'True for the session of the calling token' }),
  })
  .meta({ id: 'Session' });
export type SessionRecord = z.infer<typeof SessionRecord>;

export const SessionList = paginated(SessionRecord, 'SessionList');

export const SessionIdParams = z.object({ session_id: IdParam('session', 'sess_0123456789abcdefghijklmn') });

/** The answer of every revocation (session, API key). */
export const Revoked = z.object({ id: z.string(), revoked: z.literal(true) }).meta({ id: 'Revoked' });

export const LogoutAllResponse = z
  .object({ revoked: z.number().int().meta({ description: 'How many sessions were revoked' }) })
  .meta({ id: 'LogoutAll' });

// ---- MFA ----

export const MfaSetupResponse = z
  .object({
    secret: z
      .string()
      .meta({ description: 'Base32 TOTP secret', example: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP' }),
    otpauth_uri: z.string().meta({
      description: 'otpauth://totp/… URI for authenticator apps (QR code)',
      example:
        'otpauth://totp/Scanward:alice%40example.com?issuer=Scanward&secret=…&algorithm=SHA1&digits=6&period=30',
    }),
  })
  .meta({ id: 'MfaSetup' });

export const MfaCodeBody = z
  .object({
    code: z.string().regex(/^\d{6}$/, { error: 'must be the 6-digit code of the authenticator app' }),
  })
  .meta({ id: 'MfaCode' });

export const MfaStatus = z.object({ mfa_enabled: z.boolean() }).meta({ id: 'MfaStatus' });

/** A recovery code as handed out: 16 characters of Crockford base32 in groups of four. */
const RecoveryCode = z.string().meta({
  description: 'A single-use recovery code (16 characters, shown in groups of four)',
  example: '7kq2-m9xd-4hfw-p0ta',
});

const RecoveryCodeList = z.array(RecoveryCode).length(10).meta({
  description:
    'Ten single-use recovery codes, shown only in this response: each logs in once in place of a TOTP code',
});

export const MfaEnrolled = z
  .object({ mfa_enabled: z.literal(true), recovery_codes: RecoveryCodeList })
  .meta({ id: 'MfaEnrolled' });

/**
 * Proof of the second factor: a current TOTP code, or an unused recovery code (spent by
 * the request). Case, dashes and spaces of a recovery code do not matter.
 */
export const MfaProofBody = z
  .object({
    code: z
      .string()
      .trim()
      .max(32, { error: 'must be the 6-digit code of the authenticator app or a recovery code' })
      .regex(/^(\d{6}|[0-9A-Za-z](?:[\s-]*[0-9A-Za-z]){15})$/, {
        error: 'must be the 6-digit code of the authenticator app or a recovery code',
      })
      .meta({ description: 'A current 6-digit TOTP code, or an unused recovery code' }),
  })
  .meta({ id: 'MfaProof' });

export const MfaRecoveryCodes = z
  .object({ recovery_codes: RecoveryCodeList })
  .meta({ id: 'MfaRecoveryCodes' });

export const MfaState = z
  .object({
    mfa_enabled: z.boolean(),
    recovery_codes_remaining: z
      .number()
      .int()
      .meta({ description: 'Unused recovery codes left (0 while MFA is off)' }),
  })
  .meta({ id: 'MfaState' });

// ---- API keys ----

export const ApiKeyCreate = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, { error: 'is required' })
      .max(100, { error: 'must be at most 100 characters' }),
    permissions: z
      .array(Permission)
      .min(1, { error: 'must name at least one permission' })
      .max(Permission.options.length, { error: `must name at most ${Permission.options.length} permissions` })
      .refine((list) => new Set(list).size === list.length, { error: 'must not repeat a permission' })
      .meta({ uniqueItems: true }),
    expires_at: z.iso
      .datetime({ offset: true, error: 'must be an ISO 8601 timestamp' })
      .nullable()
      .optional()
      .refine((v) => v == null || new Date(v).getTime() > Date.now(), { error: 'must be in the future' })
      .meta({ description: 'When the key stops working; omitted or null: never' }),
  })
  .meta({ id: 'ApiKeyCreate' });
export type ApiKeyCreate = z.infer<typeof ApiKeyCreate>;

const apiKeyFields = {
  id: z.string().meta({ example: 'key_0123456789abcdefghijklmn' }),
  name: z.string(),
  prefix: z
    .string()
    .meta({ description: 'First 10 characters of the key, for recognition', example: 'sw_AbCdEfG' }),
  permissions: z.array(Permission),
  created_at: Timestamp,
  expires_at: Timestamp.nullable(),
  last_used_at: Timestamp.nullable(),
};

export const ApiKeyRecord = z.object(apiKeyFields).meta({ id: 'ApiKey' });
export type ApiKeyRecord = z.infer<typeof ApiKeyRecord>;

export const ApiKeyCreated = z
  .object({
    ...apiKeyFields,
    key: z.string().meta({ description: 'The secret key; shown only in this response', example: 'sw_…' }),
  })
  .meta({ id: 'ApiKeyCreated' });

export const ApiKeyList = paginated(ApiKeyRecord, 'ApiKeyList');

export const ApiKeyIdParams = z.object({ key_id: IdParam('API key', 'key_0123456789abcdefghijklmn') });

// ---- The web console's cookie session ----

export const ConsoleSignInBody = z
  .object({
    email: z.string().min(1, { error: 'is required' }).max(320),
    password: z.string().min(1, { error: 'is required' }).max(1024),
    mfa_code: z.string().max(32).optional().meta({
      description:
        'Current 6-digit TOTP code, or an unused recovery code (spent by the log-in); required when MFA is enabled',
    }),
  })
  .meta({ id: 'ConsoleSignIn' });

export const ConsoleSession = z
  .object({
    session_id: z.string(),
    csrf_token: z.string().meta({
      description: 'Send as X-CSRF-Token on every console request that changes something',
    }),
    user: z.object({
      id: z.string(),
      email: z.string(),
      role: Role,
      mfa_enabled: z.boolean(),
    }),
    organization: z.object({ id: z.string(), name: z.string(), plan: Plan }),
  })
  .meta({ id: 'ConsoleSession' });
export type ConsoleSession = z.infer<typeof ConsoleSession>;

export const ConsoleSessionState = z
  .object({
    session: ConsoleSession.nullable().meta({
      description: 'null when the request carries no valid session',
    }),
  })
  .meta({ id: 'ConsoleSessionState' });
