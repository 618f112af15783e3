import type { Db } from '../db/index.ts';
import {
  addToCounters,
  findCounters,
  lockCounters,
  takeFromCounters,
  type RateCounterRow,
} from './rate-counters.repository.ts';

/**
 * A sliding-window limit on attempts (failed logins, wrong MFA codes), counted in
 * the shared `rate_counters` table in fixed blocks as long as the window. The
 * number of attempts "in the last window" is the current block's count plus the
 * previous block's, weighted by how much of it still lies within the window
 * (rounded up, so a burst across a block boundary is never undercounted). Fixed
 * blocks alone would let twice the limit through in a few seconds around a boundary.
 *
 * An attempt is reserved before the expensive check it guards (a password hash, a
 * TOTP code) and given back when the check succeeds: the reservation locks the
 * current blocks' rows, reads the counts and increments them in one short
 * transaction, so any number of requests, in any number of processes sharing the
 * database, see a limit of N let through exactly N checks.
 */

/** A bucket and the most attempts it allows within the window. */
export interface SlidingLimit {
  bucket: string;
  max: number;
}

export interface SlidingCount {
  /** Attempts counted within the last window (estimated from the two blocks). */
  count: number;
  /** Seconds until the estimate falls below `max`, were no more attempts to come. */
  retryAfterSeconds(max: number): number;
}

interface Block {
  windowStart: Date;
  windowEnd: Date;
  count: number;
}

/** The sliding estimate from the current block and the previous one's count. */
export function slidingCount(current: Block, previousCount: number, now: Date): SlidingCount {
  const windowMs = current.windowEnd.getTime() - current.windowStart.getTime();
  const windowSeconds = windowMs / 1000;
  const elapsed = (now.getTime() - current.windowStart.getTime()) / windowMs; // 0 ≤ elapsed < 1
  const count = current.count + Math.ceil(previousCount * (1 - elapsed));
  return {
    count,
    retryAfterSeconds(max) {
      const untilEnd = (current.windowEnd.getTime() - now.getTime()) / 1000;
      if (current.count >= max) {
        // After this block ends it becomes the previous one, and must decay below max.
        return untilEnd + windowSeconds * (1 - (max - 1) / current.count);
      }
      // The previous block's weight must fall until current + ceil(previous × weight) < max.
      const weight = (max - 1 - current.count) / previousCount;
      return Math.max(1, (1 - weight - elapsed) * windowSeconds);
    },
  };
}

/** The block `now` falls in, for a window of `seconds`. */
function blockOf(now: Date, seconds: number): { start: Date; end: Date } {
  const ms = seconds * 1000;
  const start = Math.floor(now.getTime() / ms) * ms;
  return { start: new Date(start), end: new Date(start + ms) };
}

/** One reserved attempt: the buckets and the block it was counted in, to give it back. */
export interface Reservation {
  buckets: string[];
  windowStart: Date;
}

export type ReserveResult =
  | { reserved: true; reservation: Reservation }
  | {
      reserved: false;
      /** Seconds until every bucket over its limit falls below it, at most the window. */
      retryAfterSeconds: number;
    };

/**
 * Counts one attempt in every bucket if each is below its limit, or in none. The
 * current blocks' rows are locked (in bucket order, so concurrent reservations never
 * deadlock) while the counts are read and raised; nothing slow happens under the lock.
 */
export async function reserveAttempt(
  db: Db,
  limits: SlidingLimit[],
  windowSeconds: number,
  now = new Date(),
): Promise<ReserveResult> {
  const sorted = [...new Map(limits.map((l) => [l.bucket, l])).values()].sort((a, b) =>
    a.bucket < b.bucket ? -1 : a.bucket > b.bucket ? 1 : 0,
  );
  const { start, end } = blockOf(now, windowSeconds);
  const previousStart = new Date(start.getTime() - windowSeconds * 1000);
  // Each block is kept through the next one, which reads it.
  const expires = new Date(end.getTime() + windowSeconds * 1000);
  const rows = (count: number): RateCounterRow[] =>
    sorted.map((l) => ({ bucket: l.bucket, window_start: start, count, expires_at: expires }));

  return db.transaction(async (trx) => {
    const current = await lockCounters(trx, rows(0));
    const previous = await findCounters(
      trx,
      sorted.map((l) => ({ bucket: l.bucket, window_start: previousStart })),
    );
    const waits = sorted.map((l) => {
      const sliding = slidingCount(
        {
          windowStart: start,
          windowEnd: end,
          count: current.find((r) => r.bucket === l.bucket)?.count ?? 0,
        },
        previous.find((r) => r.bucket === l.bucket)?.count ?? 0,
        now,
      );
      return sliding.count >= l.max ? sliding.retryAfterSeconds(l.max) : 0;
    });
    const wait = Math.max(...waits);
    if (wait > 0) {
      // Never announce more than the window itself: the estimate is conservative (whole
      // blocks), so a client that waits this long may, rarely, meet a short second wait.
      return { reserved: false as const, retryAfterSeconds: Math.min(wait, windowSeconds) };
    }
    await addToCounters(trx, rows(1));
    return {
      reserved: true as const,
      reservation: { buckets: sorted.map((l) => l.bucket), windowStart: start },
    };
  });
}

/** Gives a reserved attempt back (the check it guarded succeeded), in the block it was counted in. */
export async function releaseAttempt(db: Db, reservation: Reservation): Promise<void> {
  await takeFromCounters(
    db,
    reservation.buckets.map((bucket) => ({ bucket, window_start: reservation.windowStart })),
  );
}

/** What a limit looks like now, without counting anything: for `X-RateLimit-*`. */
export interface LimitState {
  max: number;
  /** Attempts left within the window. */
  remaining: number;
  /** When every attempt counted now has left the sliding window. */
  clearAt: Date;
}

/** Reads one bucket's sliding count (no lock, no change). */
export async function peekAttempts(
  db: Db,
  limit: SlidingLimit,
  windowSeconds: number,
  now = new Date(),
): Promise<LimitState> {
  const { start, end } = blockOf(now, windowSeconds);
  const previousStart = new Date(start.getTime() - windowSeconds * 1000);
  const current = await findCounters(db, [{ bucket: limit.bucket, window_start: start }]);
  const previous = await findCounters(db, [{ bucket: limit.bucket, window_start: previousStart }]);
  const currentCount = current[0]?.count ?? 0;
  const previousCount = previous[0]?.count ?? 0;
  const { count } = slidingCount(
    { windowStart: start, windowEnd: end, count: currentCount },
    previousCount,
    now,
  );
  // The previous block weighs nothing once the current one ends; the current one, a window later.
  const clearAt =
    currentCount > 0 ? new Date(end.getTime() + windowSeconds * 1000) : previousCount > 0 ? end : now;
  return { max: limit.max, remaining: Math.max(0, limit.max - count), clearAt };
}
