import { describe, expect, it } from 'vitest';
import { VersionedCache } from '../../../server/findings/versioned-cache.ts';

describe('VersionedCache', () => {
  const counter = () => {
    let calls = 0;
    return { compute: async () => ++calls, calls: () => calls };
  };

  it('serves a result again for the same version and recomputes for a new one', async () => {
    const cache = new VersionedCache<number>();
    const c = counter();
    expect(await cache.get('k', 1, c.compute, 0)).toBe(1);
    expect(await cache.get('k', 1, c.compute, 10)).toBe(1);
    expect(await cache.get('k', 2, c.compute, 20)).toBe(2);
    expect(await cache.get('other', 2, c.compute, 20)).toBe(3);
  });

  it('recomputes once the time to live has passed', async () => {
    const cache = new VersionedCache<number>(10, 1000);
    const c = counter();
    await cache.get('k', 1, c.compute, 0);
    expect(await cache.get('k', 1, c.compute, 999)).toBe(1);
    expect(await cache.get('k', 1, c.compute, 1000)).toBe(2);
  });

  it('shares one computation among concurrent callers', async () => {
    const cache = new VersionedCache<number>();
    const c = counter();
    const results = await Promise.all([1, 2, 3].map(() => cache.get('k', 1, c.compute, 0)));
    expect(results).toEqual([1, 1, 1]);
    expect(c.calls()).toBe(1);
  });

  it('does not remember a failed computation', async () => {
    const cache = new VersionedCache<number>();
    await expect(cache.get('k', 1, () => Promise.reject(new Error('database down')), 0)).rejects.toThrow();
    expect(await cache.get('k', 1, async () => 7, 1)).toBe(7);
  });

  it('keeps at most maxEntries, dropping the oldest, and computes every time when disabled', async () => {
    const cache = new VersionedCache<number>(2);
    const c = counter();
    await cache.get('a', 1, c.compute, 0);
    await cache.get('b', 1, c.compute, 0);
    await cache.get('c', 1, c.compute, 0);
    expect(await cache.get('b', 1, c.compute, 0)).toBe(2);
    expect(await cache.get('a', 1, c.compute, 0)).toBe(4);
    cache.setEnabled(false);
    expect(await cache.get('a', 1, c.compute, 0)).toBe(5);
    expect(await cache.get('a', 1, c.compute, 0)).toBe(6);
  });
});
