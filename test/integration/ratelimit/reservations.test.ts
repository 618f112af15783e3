import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { findCounters } from '../../../server/ratelimit/rate-counters.repository.ts';
import { releaseAttempt, reserveAttempt } from '../../../server/ratelimit/sliding-window.ts';
import { testEngine } from '../../helpers/database.ts';
import { useTestApp } from '../../helpers/suite-app.ts';

/**
 * Attempts reserved and given back at once on the same buckets (the log-in throttle's e-mail and
 * address, server/ratelimit/sliding-window.ts). A reservation locks its counters in bucket order;
 * giving one back once took both in the table's order in one statement, and concurrent log-ins
 * with one recovery code met in a deadlock on PostgreSQL (40P01, a 500). Here the later bucket's
 * row is written first, so the table's order is the reverse of the buckets'. On PGlite, one
 * connection, the same calls run one at a time.
 */
describe(`reserving and giving back attempts side by side (${testEngine})`, () => {
  const suite = useTestApp();

  it('never deadlocks, and every attempt given back leaves the counters where they started', async () => {
    const tag = randomBytes(5).toString('hex');
    const limits = [
      { bucket: `test:${tag}:a`, max: 1_000 },
      { bucket: `test:${tag}:b`, max: 1_000 },
    ];
    const first = await reserveAttempt(suite.db, [limits[1]!], 3_600);
    if (!first.reserved) throw new Error('refused below the limit');
    await releaseAttempt(suite.db, first.reservation);
    const { windowStart } = first.reservation;

    const rounds = Array.from({ length: 40 }, async () => {
      for (let i = 0; i < 5; i++) {
        const attempt = await reserveAttempt(suite.db, limits, 3_600);
        if (!attempt.reserved) throw new Error('refused below the limit');
        await releaseAttempt(suite.db, attempt.reservation);
      }
    });
    const outcomes = await Promise.allSettled(rounds);
    expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([]);

    const counters = await findCounters(
      suite.db,
      limits.map((l) => ({ bucket: l.bucket, window_start: windowStart })),
    );
    const counts = counters.sort((x, y) => (x.bucket < y.bucket ? -1 : 1)).map((c) => c.count);
    expect(counts).toEqual([0, 0]);
  });
});
