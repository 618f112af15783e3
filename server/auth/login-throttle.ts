import type { Knex } from 'knex';
import { rateLimited } from '../http/errors.ts';
import { incrementWindows, readWindows, type WindowSpec } from '../ratelimit/counters.ts';

/** Failed logins: 10 per e-mail or 50 per client address in a 15-minute window. */
const WINDOW_SECONDS = 15 * 60;
const MAX_PER_EMAIL = 10;
const MAX_PER_ADDRESS = 50;

function windows(email: string, ip: string): [WindowSpec, WindowSpec] {
  return [
    { bucket: `login:email:${email.trim().toLowerCase()}`, seconds: WINDOW_SECONDS },
    { bucket: `login:ip:${ip}`, seconds: WINDOW_SECONDS },
  ];
}

/** Refuses the attempt with 429 while the e-mail or the address is over its limit. */
export async function assertLoginAllowed(
  db: Knex,
  email: string,
  ip: string,
  now = new Date(),
): Promise<void> {
  const [byEmail, byIp] = await readWindows(db, windows(email, ip), now);
  if (byEmail!.count >= MAX_PER_EMAIL || byIp!.count >= MAX_PER_ADDRESS) {
    throw rateLimited(
      'RATE_LIMIT_EXCEEDED',
      'too many failed login attempts; try again later',
      (byEmail!.windowEnd.getTime() - now.getTime()) / 1000,
    );
  }
}

export async function recordFailedLogin(
  db: Knex,
  email: string,
  ip: string,
  now = new Date(),
): Promise<void> {
  await incrementWindows(db, windows(email, ip), now);
}
