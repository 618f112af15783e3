/**
 * A small in-process cache for results that are expensive to compute and change
 * only when an organization's findings change (totals of a filter, statistics).
 * An entry is used only for the findings version it was computed at (see
 * finding-versions.repository.ts) and for at most `ttlMs`, which bounds the
 * drift of anything that depends on the clock (the "last 7 days" trends) and
 * of writes made outside the findings code. Concurrent misses for one key share one computation.
 */
export class VersionedCache<T> {
  private readonly entries = new Map<string, { version: number; expires: number; value: Promise<T> }>();
  private enabled = true;

  constructor(
    private readonly maxEntries = 2000,
    private readonly ttlMs = 60_000,
  ) {}

  get(key: string, version: number, compute: () => Promise<T>, now = Date.now()): Promise<T> {
    if (!this.enabled) return compute();
    const hit = this.entries.get(key);
    if (hit && hit.version === version && hit.expires > now) return hit.value;
    const value = compute();
    this.entries.delete(key);
    this.entries.set(key, { version, expires: now + this.ttlMs, value });
    // A failed computation is not remembered.
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }

  /** Turns caching off (benchmarks compare with and without) or back on. */
  setEnabled(enabled: boolean): void {
    this.enabled = enabled;
    if (!enabled) this.entries.clear();
  }
}
