import type { Db } from '../db/index.ts';
import { AppError } from '../errors.ts';
import { findUserByEmail } from '../identity/users.ts';
import type { KeyMaterial } from './keys.ts';
import { assertLoginAllowed, recordFailedLogin } from './login-throttle.ts';
import { consumeLoginCode, invalidMfaCode } from './mfa.ts';
import { verifyAgainstDecoy, verifyPassword } from './passwords.ts';
import { createSession } from './sessions.ts';
import { issueToken, type IssuedToken } from './tokens.ts';

export const invalidCredentials = () =>
  new AppError(401, 'INVALID_CREDENTIALS', 'incorrect email or password');
export const mfaRequired = () => new AppError(401, 'MFA_REQUIRED', 'MFA code required');

export interface LoginAttempt {
  email: string;
  password: string;
  /** Absent or empty: no code given. */
  mfaCode?: string;
  ip: string;
  userAgent: string | undefined;
}

/**
 * The password login: throttle → password → MFA → new session → token.
 *
 * An unknown e-mail is checked against a decoy hash, so it answers exactly like
 * a wrong password and takes as long. `MFA_REQUIRED` is only ever said after
 * the password is right. Wrong passwords and wrong or reused MFA codes count
 * as failed logins (10 per e-mail, 50 per address in 15 minutes).
 */
export async function login(
  db: Db,
  keys: KeyMaterial,
  attempt: LoginAttempt,
  now = new Date(),
): Promise<IssuedToken> {
  await assertLoginAllowed(db, attempt.email, attempt.ip, now);
  const user = await findUserByEmail(db, attempt.email);
  const passwordOk = user
    ? await verifyPassword(attempt.password, user.password_hash)
    : await verifyAgainstDecoy(attempt.password);
  if (!user || !passwordOk) {
    await recordFailedLogin(db, attempt.email, attempt.ip, now);
    throw invalidCredentials();
  }
  if (user.mfa_enabled) {
    if (!attempt.mfaCode) throw mfaRequired();
    if (!(await consumeLoginCode(db, keys.encryptionKey, user, attempt.mfaCode, now))) {
      await recordFailedLogin(db, attempt.email, attempt.ip, now);
      throw invalidMfaCode();
    }
  }
  const session = await createSession(
    db,
    { orgId: user.org_id, userId: user.id },
    { ip: attempt.ip, userAgent: attempt.userAgent },
    now,
  );
  return issueToken(keys.jwtSecret, { sub: user.id, org: user.org_id, sid: session.id }, now);
}
