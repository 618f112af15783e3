import type { Db } from '../db/index.ts';
import { rateLimited } from '../errors.ts';
import { incrementWindows, readWindows, type WindowCount, type WindowSpec } from '../ratelimit/counters.ts';

/**
 * Failed logins: 10 per e-mail or 50 per client address in 15 minutes
 * (decisions.md, "Rate limits"), over a sliding window. Counts are kept in
 * 15-minute blocks; the number of failures "in the last 15 minutes" is the
 * current block's count plus the previous block's, weighted by how much of it
 * still lies within the last 15 minutes (rounded up, so a burst across a
 * block boundary is never undercounted). Fixed blocks alone would let twice
 * the limit through in a few seconds around a boundary.
 */
const WINDOW_SECONDS = 15 * 60;
const MAX_PER_EMAIL = 10;
const MAX_PER_ADDRESS = 50;

export interface SlidingCount {
  /** Failures counted within the last window (estimated from the two blocks). */
  count: number;
  /** Seconds until the estimate falls below `max`, were no more failures to come. */
  retryAfterSeconds(max: number): number;
}

/** The sliding estimate from the current block and the previous one. */
export function slidingCount(current: WindowCount, previousCount: number, now: Date): SlidingCount {
  const windowMs = WINDOW_SECONDS * 1000;
  const elapsed = (now.getTime() - current.windowStart.getTime()) / windowMs; // 0 ≤ elapsed < 1
  const count = current.count + Math.ceil(previousCount * (1 - elapsed));
  return {
    count,
    retryAfterSeconds(max) {
      const untilEnd = (current.windowEnd.getTime() - now.getTime()) / 1000;
      if (current.count >= max) {
        // After this block ends it becomes the previous one, and must decay below max.
        return untilEnd + WINDOW_SECONDS * (1 - (max - 1) / current.count);
      }
      // The previous block's weight must fall until current + ceil(previous × weight) < max.
      const weight = (max - 1 - current.count) / previousCount;
      return Math.max(1, (1 - weight - elapsed) * WINDOW_SECONDS);
    },
  };
}

/** The block spec of a bucket; each block is kept through the next, which reads it. */
const block = (bucket: string): WindowSpec => ({
  bucket,
  seconds: WINDOW_SECONDS,
  retainSeconds: WINDOW_SECONDS,
});

/** The sliding counts of each bucket: its current and previous blocks, read in two queries in all. */
async function failures(db: Db, buckets: string[], now: Date): Promise<SlidingCount[]> {
  const specs = buckets.map(block);
  const current = await readWindows(db, specs, now);
  const previous = await readWindows(db, specs, new Date(now.getTime() - WINDOW_SECONDS * 1000));
  return current.map((c, i) => slidingCount(c, previous[i]!.count, now));
}

const emailBucket = (email: string) => `login:email:${email.trim().toLowerCase()}`;
const addressBucket = (ip: string) => `login:ip:${ip}`;

/** Refuses the attempt with 429 while the e-mail or the address is over its limit. */
export async function assertLoginAllowed(db: Db, email: string, ip: string, now = new Date()): Promise<void> {
  const [byEmail, byIp] = (await failures(db, [emailBucket(email), addressBucket(ip)], now)) as [
    SlidingCount,
    SlidingCount,
  ];
  const waits = [
    byEmail.count >= MAX_PER_EMAIL ? byEmail.retryAfterSeconds(MAX_PER_EMAIL) : 0,
    byIp.count >= MAX_PER_ADDRESS ? byIp.retryAfterSeconds(MAX_PER_ADDRESS) : 0,
  ];
  // Never announce more than the window itself: the estimate is conservative (blocks of
  // 15 minutes), so a client that waits this long may, rarely, meet a short second wait.
  const wait = Math.min(Math.max(...waits), WINDOW_SECONDS);
  if (wait > 0) {
    throw rateLimited('RATE_LIMIT_EXCEEDED', 'too many failed login attempts; try again later', wait);
  }
}

export async function recordFailedLogin(db: Db, email: string, ip: string, now = new Date()): Promise<void> {
  await incrementWindows(db, [block(emailBucket(email)), block(addressBucket(ip))], now);
}
