import type { Db } from '../db/index.ts';
import { AppError } from '../errors.ts';
import { recordAuditEvent } from '../identity/audit.ts';
import type { UserRow } from '../identity/users.repository.ts';
import { findUserByEmail } from '../identity/users.ts';
import { passwordLoginAllowed } from '../identity/organizations.ts';
import type { KeyMaterial } from './keys.ts';
import { failedWith, passed, throttledCheck } from './login-throttle.ts';
import { consumeLoginCode, invalidMfaCode } from './mfa.ts';
import { verifyAgainstDecoy, verifyPassword } from './passwords.ts';
import { createSession } from './sessions.ts';
import { issueToken, type IssuedToken } from './tokens.ts';

export const invalidCredentials = () =>
  new AppError(401, 'INVALID_CREDENTIALS', 'incorrect email or password');
export const mfaRequired = () => new AppError(401, 'MFA_REQUIRED', 'MFA code required');
export const passwordLoginDisabled = () =>
  new AppError(
    403,
    'PASSWORD_LOGIN_DISABLED',
    'password sign-in is switched off for this organization: sign in with single sign-on (SSO)',
  );

export interface LoginAttempt {
  email: string;
  password: string;
  /** Absent or empty: no code given. */
  mfaCode?: string;
  ip: string;
  userAgent: string | undefined;
}

/**
 * The password login: reserve an attempt → password → MFA → new session → token.
 *
 * An unknown e-mail is checked against a decoy hash, so it answers exactly like
 * a wrong password and takes as long; so does a disabled account. The MFA code may
 * be a TOTP code or an unused recovery code. `MFA_REQUIRED` is only ever said after
 * the password is right. Wrong passwords and wrong or reused MFA codes count
 * as failed logins (10 per e-mail, 50 per address in 15 minutes); the attempt is
 * reserved before the password is checked, so concurrent requests cannot check
 * more passwords than the limit allows.
 *
 * When the user's organization has switched password log-in off (single sign-on only),
 * the right password and code answer PASSWORD_LOGIN_DISABLED instead of a token; a wrong
 * one still answers like any wrong password, so the switch tells nothing about an e-mail
 * to someone without its password.
 */
export async function login(
  db: Db,
  keys: KeyMaterial,
  attempt: LoginAttempt,
  now = new Date(),
): Promise<IssuedToken> {
  // The account the e-mail names, if any: its failed attempts go to its organization's audit trail.
  let known: UserRow | undefined;
  const user = await throttledCheck(
    db,
    { email: attempt.email, ip: attempt.ip },
    async () => {
      const found = await findUserByEmail(db, attempt.email);
      known = found;
      const passwordOk = found
        ? await verifyPassword(attempt.password, found.password_hash)
        : await verifyAgainstDecoy(attempt.password);
      // A disabled account answers exactly like a wrong password, and counts like one.
      if (!found || !passwordOk || found.disabled_at) return failedWith(invalidCredentials());
      // The right password without a code is not a failure: the attempt is given back.
      if (found.mfa_enabled && !attempt.mfaCode) return passed(undefined);
      if (
        found.mfa_enabled &&
        !(await consumeLoginCode(db, keys.encryptionKey, found, attempt.mfaCode!, now))
      ) {
        return failedWith(invalidMfaCode());
      }
      return passed(found);
    },
    now,
  ).catch(async (err: unknown) => {
    if (known && err instanceof AppError && err.status === 401) {
      const person = { id: known.id, email: known.email };
      await recordAuditEvent(
        db,
        {
          orgId: known.org_id,
          action: 'auth.login_failed',
          target: person,
          ip: attempt.ip,
          details: { method: 'password', reason: err.code },
        },
        now,
      );
    }
    throw err;
  });
  if (!user) throw mfaRequired();
  const person = { id: user.id, email: user.email };
  if (!(await passwordLoginAllowed(db, user.org_id))) {
    await recordAuditEvent(
      db,
      {
        orgId: user.org_id,
        action: 'auth.login_failed',
        target: person,
        ip: attempt.ip,
        details: { method: 'password', reason: 'PASSWORD_LOGIN_DISABLED' },
      },
      now,
    );
    throw passwordLoginDisabled();
  }
  const session = await createSession(
    db,
    { orgId: user.org_id, userId: user.id },
    { ip: attempt.ip, userAgent: attempt.userAgent },
    now,
  );
  await recordAuditEvent(
    db,
    {
      orgId: user.org_id,
      action: 'auth.login',
      actor: person,
      target: person,
      ip: attempt.ip,
      details: { method: 'password' },
    },
    now,
  );
  return issueToken(keys.jwtSecret, { sub: user.id, org: user.org_id, sid: session.id }, now);
}
