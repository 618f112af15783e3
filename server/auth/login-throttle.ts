import type { Db } from '../db/index.ts';
import { rateLimited, type AppError } from '../errors.ts';
import {
  peekAttempts,
  releaseAttempt,
  reserveAttempt,
  type Reservation,
} from '../ratelimit/sliding-window.ts';

/**
 * Failed logins: 10 per e-mail or 50 per client address in 15 minutes
 * (decisions.md, "Rate limits"), over a sliding window (ratelimit/sliding-window.ts).
 * Every password or MFA-code check (the log-in, HTTP Basic on the documentation
 * pages, the MFA endpoints) reserves its attempt before it runs; a failed check
 * keeps it, a successful one gives it back. So the limit holds exactly however
 * many requests arrive at once and however many processes serve them: at most 10
 * checks of one e-mail's password or codes run per window.
 */
export const LOGIN_WINDOW_SECONDS = 15 * 60;
export const MAX_FAILURES_PER_EMAIL = 10;
export const MAX_FAILURES_PER_ADDRESS = 50;

const emailBucket = (email: string) => `login:email:${email.trim().toLowerCase()}`;
const addressBucket = (ip: string) => `login:ip:${ip}`;

/** Who is trying: the e-mail named and the client address. */
export interface LoginAttemptSource {
  email: string;
  ip: string;
}

const tooManyFailures = (retryAfterSeconds: number) =>
  rateLimited('RATE_LIMIT_EXCEEDED', 'too many failed login attempts; try again later', retryAfterSeconds);

/**
 * Reserves one attempt for the e-mail and the address, or throws 429 (with
 * `Retry-After`) while either is at its limit. The reservation counts as a failure
 * until it is given back with {@link releaseLoginAttempt}.
 */
export async function reserveLoginAttempt(
  db: Db,
  source: LoginAttemptSource,
  now = new Date(),
): Promise<Reservation> {
  const result = await reserveAttempt(
    db,
    [
      { bucket: emailBucket(source.email), max: MAX_FAILURES_PER_EMAIL },
      { bucket: addressBucket(source.ip), max: MAX_FAILURES_PER_ADDRESS },
    ],
    LOGIN_WINDOW_SECONDS,
    now,
  );
  if (!result.reserved) throw tooManyFailures(result.retryAfterSeconds);
  return result.reservation;
}

/** Gives a reserved attempt back: the check succeeded, so it is not a failure. */
export async function releaseLoginAttempt(db: Db, reservation: Reservation): Promise<void> {
  await releaseAttempt(db, reservation);
}

/** What a throttled check decided: `failed` keeps the reserved attempt as a failure. */
export type CheckVerdict<T> = { failed: false; value: T } | { failed: true; error: AppError };

export const passed = <T>(value: T): CheckVerdict<T> => ({ failed: false, value });
export const failedWith = (error: AppError): CheckVerdict<never> => ({ failed: true, error });

/**
 * Runs a credential check with one attempt reserved before it: a failed verdict
 * throws its error and stays counted; a passed one gives the attempt back and
 * answers its value. A check that throws (the database went away) is not a
 * failed log-in: its attempt is given back and the error passes on.
 */
export async function throttledCheck<T>(
  db: Db,
  source: LoginAttemptSource,
  check: () => Promise<CheckVerdict<T>>,
  now = new Date(),
): Promise<T> {
  const reservation = await reserveLoginAttempt(db, source, now);
  let verdict: CheckVerdict<T>;
  try {
    verdict = await check();
  } catch (err) {
    await releaseLoginAttempt(db, reservation);
    throw err;
  }
  if (verdict.failed) throw verdict.error;
  await releaseLoginAttempt(db, reservation);
  return verdict.value;
}

/**
 * `X-RateLimit-*` of the per-address limit, which every answer of the log-in routes carries
 * (decisions.md: responses carry them): 50 failed log-ins per client address in 15 minutes,
 * what is left of it, and when the address's counted failures have all left the window.
 */
export async function loginLimitHeaders(
  db: Db,
  ip: string,
  now = new Date(),
): Promise<Record<'X-RateLimit-Limit' | 'X-RateLimit-Remaining' | 'X-RateLimit-Reset', string>> {
  const state = await peekAttempts(
    db,
    { bucket: addressBucket(ip), max: MAX_FAILURES_PER_ADDRESS },
    LOGIN_WINDOW_SECONDS,
    now,
  );
  return {
    'X-RateLimit-Limit': String(state.max),
    'X-RateLimit-Remaining': String(state.remaining),
    'X-RateLimit-Reset': String(Math.ceil(state.clearAt.getTime() / 1000)),
  };
}
