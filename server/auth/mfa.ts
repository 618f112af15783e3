import { timingSafeEqual } from 'node:crypto';
import { HOTP, Secret, TOTP } from 'otpauth';
import type { Db } from '../db/index.ts';
import { AppError, conflict } from '../errors.ts';
import {
  acceptMfaStep,
  clearMfa,
  enableMfa,
  findUser,
  storePendingMfaSecret,
  type UserRow,
} from '../identity/users.repository.ts';
import { openSecret, sealSecret } from './keys.ts';

/**
 * TOTP as RFC 6238 describes it: 30-second steps, 6 digits, HMAC-SHA-1, one step
 * of clock drift either way. A code is accepted once: the last accepted step is
 * stored in users.mfa_last_step and only later steps are accepted, enforced by a
 * conditional UPDATE so two concurrent requests cannot both use one code.
 */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
export const TOTP_DRIFT_STEPS = 1;
const ISSUER = 'Scanward';
/** 160-bit secrets, the size RFC 4226 recommends for HMAC-SHA-1. */
const SECRET_BYTES = 20;

export const invalidMfaCode = () =>
  new AppError(401, 'INVALID_MFA_CODE', 'MFA code is wrong or has already been used');

/** The time step a moment falls in. */
export function totpStep(now: Date): number {
  return Math.floor(now.getTime() / 1000 / TOTP_PERIOD_SECONDS);
}

function codeAt(secret: Secret, step: number): string {
  return HOTP.generate({ secret, algorithm: 'SHA1', digits: TOTP_DIGITS, counter: step });
}

/**
 * The latest time step within the drift window whose code equals `code`, or
 * undefined. Comparisons take the same time whether or not they match.
 */
export function matchingStep(secretBase32: string, code: string, now = new Date()): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const secret = Secret.fromBase32(secretBase32);
  const given = Buffer.from(code);
  const current = totpStep(now);
  let found: number | undefined;
  for (let step = current - TOTP_DRIFT_STEPS; step <= current + TOTP_DRIFT_STEPS; step++) {
    if (timingSafeEqual(Buffer.from(codeAt(secret, step)), given)) found = step;
  }
  return found;
}

/** A fresh secret and the otpauth:// URI authenticator apps read (usually as a QR code). */
export function newTotpSecret(accountEmail: string): { secret: string; otpauthUri: string } {
  const secret = new Secret({ size: SECRET_BYTES });
  const totp = new TOTP({
    issuer: ISSUER,
    label: accountEmail,
    secret,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
  });
  return { secret: secret.base32, otpauthUri: totp.toString() };
}

/**
 * Checks a login's MFA code against the user's active secret and consumes it.
 * False for a wrong code, a code outside the window, or one already used (or
 * older than one already used).
 */
export async function consumeLoginCode(
  db: Db,
  encryptionKey: Buffer,
  user: UserRow,
  code: string,
  now = new Date(),
): Promise<boolean> {
  if (!user.mfa_enabled || !user.mfa_secret) return false;
  const step = matchingStep(openSecret(encryptionKey, user.mfa_secret), code, now);
  if (step === undefined) return false;
  return acceptMfaStep(db, user.org_id, user.id, user.mfa_secret, step);
}

/** Whether the user has MFA on; false for an unknown user. */
export async function mfaEnabled(db: Db, owner: { orgId: string; userId: string }): Promise<boolean> {
  return (await findUser(db, owner.orgId, owner.userId))?.mfa_enabled ?? false;
}

async function loadUser(db: Db, orgId: string, userId: string): Promise<UserRow> {
  const user = await findUser(db, orgId, userId);
  if (!user) throw new AppError(401, 'INVALID_TOKEN', 'could not validate credentials');
  return user;
}

/**
 * Starts enrolment: stores a new pending secret (encrypted) and returns it. MFA
 * is not on until a code of it is verified. Refused while MFA is on: turn it
 * off first, so a stolen token alone cannot move MFA to the thief's device.
 */
export async function beginMfaSetup(
  db: Db,
  encryptionKey: Buffer,
  owner: { orgId: string; userId: string },
): Promise<{ secret: string; otpauthUri: string }> {
  const user = await loadUser(db, owner.orgId, owner.userId);
  if (user.mfa_enabled) throw conflict('MFA is already enabled; disable it before setting it up again');
  const fresh = newTotpSecret(user.email);
  await storePendingMfaSecret(db, user.org_id, user.id, sealSecret(encryptionKey, fresh.secret), new Date());
  return fresh;
}

/**
 * Turns MFA on with a code of the pending secret. Returns false for a wrong or
 * used code; throws CONFLICT when there is nothing to verify.
 */
export async function verifyMfaSetup(
  db: Db,
  encryptionKey: Buffer,
  owner: { orgId: string; userId: string },
  code: string,
  now = new Date(),
): Promise<boolean> {
  const user = await loadUser(db, owner.orgId, owner.userId);
  if (user.mfa_enabled) throw conflict('MFA is already enabled');
  if (!user.mfa_pending_secret) {
    throw conflict('no MFA setup in progress; call POST /api/v1/auth/mfa/setup first');
  }
  const step = matchingStep(openSecret(encryptionKey, user.mfa_pending_secret), code, now);
  if (step === undefined) return false;
  return enableMfa(db, user.org_id, user.id, user.mfa_pending_secret, step, now);
}

/** Turns MFA off with a current code. Returns false for a wrong or used code; CONFLICT when MFA is off. */
export async function disableMfa(
  db: Db,
  encryptionKey: Buffer,
  owner: { orgId: string; userId: string },
  code: string,
  now = new Date(),
): Promise<boolean> {
  const user = await loadUser(db, owner.orgId, owner.userId);
  if (!user.mfa_enabled || !user.mfa_secret) throw conflict('MFA is not enabled');
  const step = matchingStep(openSecret(encryptionKey, user.mfa_secret), code, now);
  if (step === undefined) return false;
  return clearMfa(db, user.org_id, user.id, user.mfa_secret, step, now);
}
