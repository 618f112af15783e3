import type { FindingStats } from '../schemas/findings.ts';
import { VersionedCache } from './versioned-cache.ts';

/** Statistics per (organization, filter), while the organization's findings version holds. */
export const statsCache = new VersionedCache<FindingStats>();

/** List totals per (organization, filter), likewise. */
export const totalsCache = new VersionedCache<number>();

/** Turns both caches off or on (the benchmark measures both). */
export function setFindingsCaching(enabled: boolean): void {
  statsCache.setEnabled(enabled);
  totalsCache.setEnabled(enabled);
}
