import type { Db } from '../db/index.ts';
import { AppError } from '../errors.ts';
import { recordAuditEvent } from '../identity/audit.ts';
import type { UserRow } from '../identity/users.repository.ts';
import { findUserByEmail } from '../identity/users.ts';
import { passwordLoginAllowed } from '../identity/organizations.ts';
import type { KeyMaterial } from './keys.ts';
import { failedWith, passed, throttledCheck } from './login-throttle.ts';
import { consumeLoginCode, invalidMfaCode } from './mfa.ts';
import { verifyAgainstDecoy, verifyPassword } from '../identity/passwords.ts';
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

/** Where a password is given: the token route, the console's session route, or HTTP Basic on the documentation pages. */
export type PasswordChannel = 'token' | 'console' | 'basic';

export interface PasswordCheck {
  email: string;
  password: string;
  /** Absent or empty: no code given. */
  mfaCode?: string | undefined;
  ip: string;
}

/**
 * The one password check every password path goes through (token, console session, HTTP
 * Basic): the log-in limits (an attempt reserved before the password is checked), the password
 * (an unknown e-mail checked against a decoy hash, so it answers exactly like a wrong password
 * and takes as long; so does a disabled account), MFA, and the organization's password-log-in
 * switch. Failures of a known account are recorded in its organization's audit trail.
 *
 * - `token` and `console`: an MFA code may be given (TOTP or unused recovery code);
 *   `MFA_REQUIRED` only after the right password. With the switch off, the right password and
 *   code answer 403 PASSWORD_LOGIN_DISABLED; a wrong one still answers like any wrong password.
 * - `basic` (no way to give a code): an account with MFA, or of an organization that switched
 *   password log-in off, is refused exactly as a wrong password (same answer, counted the same),
 *   so the switch is no password oracle there (issue 31, item 4).
 */
export async function checkPasswordLogin(
  db: Db,
  keys: KeyMaterial,
  attempt: PasswordCheck,
  channel: PasswordChannel,
  now = new Date(),
): Promise<UserRow> {
  const method = channel === 'basic' ? 'basic' : 'password';
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
      if (channel === 'basic') {
        // No code can be given, and the switch must tell nothing: both are a wrong password here.
        if (found.mfa_enabled || !(await passwordLoginAllowed(db, found.org_id)))
          return failedWith(invalidCredentials());
        return passed(found);
      }
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
          details: { method, reason: err.code },
        },
        now,
      );
    }
    throw err;
  });
  if (!user) throw mfaRequired();
  if (channel !== 'basic' && !(await passwordLoginAllowed(db, user.org_id))) {
    await recordAuditEvent(
      db,
      {
        orgId: user.org_id,
        action: 'auth.login_failed',
        target: { id: user.id, email: user.email },
        ip: attempt.ip,
        details: { method, reason: 'PASSWORD_LOGIN_DISABLED' },
      },
      now,
    );
    throw passwordLoginDisabled();
  }
  return user;
}

export interface LoginAttempt extends PasswordCheck {
  userAgent: string | undefined;
}

/**
 * The password login of the token route and the console: {@link checkPasswordLogin} → new
 * session → token. Wrong passwords and wrong or reused MFA codes count as failed logins (10 per
 * e-mail, 50 per address in 15 minutes).
 */
export async function login(
  db: Db,
  keys: KeyMaterial,
  attempt: LoginAttempt,
  channel: 'token' | 'console' = 'token',
  now = new Date(),
): Promise<IssuedToken> {
  const user = await checkPasswordLogin(db, keys, attempt, channel, now);
  const person = { id: user.id, email: user.email };
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
