import { describe, expect, it } from 'vitest';
import { slidingCount } from '../../../server/ratelimit/sliding-window.ts';

const W = 15 * 60 * 1000;
const block = (start: number, count: number) => ({
  bucket: 'login:email:x',
  windowStart: new Date(start),
  windowEnd: new Date(start + W),
  count,
});

describe('sliding attempt count', () => {
  const start = 100 * W; // a block boundary

  it('counts a burst that straddles a block boundary in full', () => {
    // 5 failures just before the boundary, 5 just after: all ten are within the last 15 minutes.
    const now = new Date(start + 1000);
    expect(slidingCount(block(start, 5), 5, now).count).toBe(10);
  });

  it('lets the previous block fade out as it leaves the window', () => {
    expect(slidingCount(block(start, 0), 10, new Date(start + W / 2)).count).toBe(5);
    expect(slidingCount(block(start, 0), 10, new Date(start + W - 1)).count).toBe(1);
  });

  it('waits until the estimate falls below the limit', () => {
    // 10 failures right at the end of the previous block; none since: blocked until 1/10 of them fade.
    const now = new Date(start + 1000);
    const count = slidingCount(block(start, 0), 10, now);
    expect(count.count).toBe(10);
    const wait = count.retryAfterSeconds(10);
    expect(wait).toBeCloseTo(W / 1000 / 10 - 1, 5);
    const later = new Date(now.getTime() + Math.ceil(wait) * 1000);
    expect(slidingCount(block(start, 0), 10, later).count).toBeLessThan(10);
  });

  it('keeps blocking into the next block when the current one alone is over the limit', () => {
    const now = new Date(start + W - 60_000); // a minute before this block ends
    const count = slidingCount(block(start, 20), 0, now);
    const wait = count.retryAfterSeconds(10);
    expect(wait).toBeGreaterThan(60);
    const after = new Date(now.getTime() + Math.ceil(wait) * 1000);
    // In the next block, these 20 are the previous block's and have faded below the limit.
    expect(slidingCount(block(start + W, 0), 20, after).count).toBeLessThan(10);
    const before = new Date(now.getTime() + Math.floor(wait - 1) * 1000);
    expect(slidingCount(block(start + W, 0), 20, before).count).toBeGreaterThanOrEqual(10);
  });
});
