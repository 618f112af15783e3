import { timingSafeEqual } from 'node:crypto';
import { HOTP, Secret, TOTP } from 'otpauth';
import type { Db } from '../db/index.ts';
import { AppError, conflict } from '../errors.ts';
import {
  acceptMfaStep,
  enableMfa,
  findUser,
  removeMfa,
  storePendingMfaSecret,
  type UserRow,
} from '../identity/users.repository.ts';
import { recordAuditEvent } from '../identity/audit.ts';
import { openSecret, sealSecret } from './keys.ts';
import { deleteRecoveryCodes } from './mfa-recovery-codes.repository.ts';
import { issueRecoveryCodes, recoveryCodesLeft, spendRecoveryCodeOf } from './recovery-codes.ts';

/**
 * TOTP as RFC 6238 describes it: 30-second steps, 6 digits, HMAC-SHA-1, one step
 * of clock drift either way. A code is accepted once: the last accepted step is
 * stored in users.mfa_last_step and only later steps are accepted, enforced by a
 * conditional UPDATE so two concurrent requests cannot both use one code.
 *
 * Turning MFA on hands out 10 single-use recovery codes (recovery-codes.ts); wherever
 * a TOTP code of the active secret is asked for (log-in, turning MFA off, new recovery
 * codes), an unused recovery code is accepted in its place and spent.
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
 * Checks a second factor of a user with MFA on and consumes it: a TOTP code of the
 * active secret (its time step) or one of the user's unused recovery codes. False
 * for a wrong code, a code outside the window, or one already used (or, for TOTP,
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
  if (!/^\d{6}$/.test(code)) {
    return spendRecoveryCodeOf(db, { orgId: user.org_id, userId: user.id }, code, now);
  }
  const step = matchingStep(openSecret(encryptionKey, user.mfa_secret), code, now);
  if (step === undefined) return false;
  return acceptMfaStep(db, user.org_id, user.id, user.mfa_secret, step);
}

/** Whether the user has MFA on; false for an unknown user. */
export async function mfaEnabled(db: Db, owner: { orgId: string; userId: string }): Promise<boolean> {
  return (await findUser(db, owner.orgId, owner.userId))?.mfa_enabled ?? false;
}

/** Whether MFA is on, and how many unused recovery codes are left. */
export async function mfaState(
  db: Db,
  owner: { orgId: string; userId: string },
): Promise<{ enabled: boolean; recoveryCodesLeft: number }> {
  const enabled = await mfaEnabled(db, owner);
  return { enabled, recoveryCodesLeft: enabled ? await recoveryCodesLeft(db, owner) : 0 };
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

/** Who changes their MFA: the user, with the request's address for the audit trail. */
export interface MfaOwner {
  orgId: string;
  userId: string;
  ip?: string | undefined;
}

/** An MFA change of the user's own, in their organization's audit trail (never a secret or code). */
async function auditMfa(
  db: Db,
  user: UserRow,
  action: 'mfa.enabled' | 'mfa.disabled' | 'mfa.recovery_codes_regenerated',
  ip: string | undefined,
  now: Date,
  details: Record<string, string>,
): Promise<void> {
  const person = { id: user.id, email: user.email };
  await recordAuditEvent(db, { orgId: user.org_id, action, actor: person, target: person, ip, details }, now);
}

/**
 * Turns MFA on with a code of the pending secret and hands out the first 10
 * recovery codes, in one transaction. Answers undefined for a wrong or used code;
 * throws CONFLICT when there is nothing to verify.
 */
export async function verifyMfaSetup(
  db: Db,
  encryptionKey: Buffer,
  owner: MfaOwner,
  code: string,
  now = new Date(),
): Promise<string[] | undefined> {
  const user = await loadUser(db, owner.orgId, owner.userId);
  if (user.mfa_enabled) throw conflict('MFA is already enabled');
  if (!user.mfa_pending_secret) {
    throw conflict('no MFA setup in progress; call POST /api/v1/auth/mfa/setup first');
  }
  const step = matchingStep(openSecret(encryptionKey, user.mfa_pending_secret), code, now);
  if (step === undefined) return undefined;
  return db.transaction(async (trx) => {
    if (!(await enableMfa(trx, user.org_id, user.id, user.mfa_pending_secret!, step, now))) return undefined;
    const codes = await issueRecoveryCodes(trx, owner);
    await auditMfa(trx, user, 'mfa.enabled', owner.ip, now, { recovery_codes: String(codes.length) });
    return codes;
  });
}

/**
 * Runs `change` in a transaction once the user's second factor (a TOTP code or a
 * recovery code) is consumed; the code is given back (rolled back) if the change
 * does not happen. Answers undefined for a wrong or used code; CONFLICT when MFA is off.
 */
async function withSecondFactor<T>(
  db: Db,
  encryptionKey: Buffer,
  owner: MfaOwner,
  code: string,
  now: Date,
  change: (trx: Db, user: UserRow) => Promise<T>,
): Promise<T | undefined> {
  return db.transaction(async (trx) => {
    const user = await loadUser(trx, owner.orgId, owner.userId);
    if (!user.mfa_enabled || !user.mfa_secret) throw conflict('MFA is not enabled');
    if (!(await consumeLoginCode(trx, encryptionKey, user, code, now))) return undefined;
    return change(trx, user);
  });
}

/**
 * Turns MFA off with a current TOTP code or an unused recovery code, and deletes the
 * recovery codes. Returns false for a wrong or used code; CONFLICT when MFA is off.
 */
export async function disableMfa(
  db: Db,
  encryptionKey: Buffer,
  owner: MfaOwner,
  code: string,
  now = new Date(),
): Promise<boolean> {
  const done = await withSecondFactor(db, encryptionKey, owner, code, now, async (trx, user) => {
    await removeMfa(trx, user.org_id, user.id, now);
    await deleteRecoveryCodes(trx, user.org_id, user.id);
    await auditMfa(trx, user, 'mfa.disabled', owner.ip, now, { by: 'self' });
    return true;
  });
  return done === true;
}

/**
 * Replaces the user's recovery codes with 10 new ones, with a current TOTP code or an
 * unused recovery code as proof. Answers the new codes, or undefined for a wrong or
 * used code; CONFLICT when MFA is off.
 */
export async function regenerateRecoveryCodes(
  db: Db,
  encryptionKey: Buffer,
  owner: MfaOwner,
  code: string,
  now = new Date(),
): Promise<string[] | undefined> {
  return withSecondFactor(db, encryptionKey, owner, code, now, async (trx, user) => {
    const codes = await issueRecoveryCodes(trx, owner);
    await auditMfa(trx, user, 'mfa.recovery_codes_regenerated', owner.ip, now, {
      recovery_codes: String(codes.length),
    });
    return codes;
  });
}

/**
 * Turns MFA off without a code (the operator's `admin user reset-mfa`, for a user
 * who lost both the authenticator and the recovery codes): the secret, any pending
 * enrolment and the recovery codes are removed. Answers whether MFA was on or pending.
 */
export async function resetMfa(
  db: Db,
  owner: { orgId: string; userId: string },
  now = new Date(),
): Promise<boolean> {
  return db.transaction(async (trx) => {
    const user = await findUser(trx, owner.orgId, owner.userId);
    const removed = await removeMfa(trx, owner.orgId, owner.userId, now);
    await deleteRecoveryCodes(trx, owner.orgId, owner.userId);
    if (removed && user?.mfa_enabled) {
      // The operator acted, not a signed-in person: no actor, the user as target.
      await recordAuditEvent(
        trx,
        {
          orgId: user.org_id,
          action: 'mfa.disabled',
          target: { id: user.id, email: user.email },
          details: { by: 'operator' },
        },
        now,
      );
    }
    return removed;
  });
}
