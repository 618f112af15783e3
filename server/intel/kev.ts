/**
 * Known-exploited vulnerabilities by version: the KEV snapshot's entries whose affected
 * ranges (as the CVE record states them) hold an identified product's version. Only ranges
 * that name the product and compare under its scheme are used; an entry without such a
 * range is never matched.
 */
import type { KevEntry, KevRange, KevSnapshot } from './build-kev.ts';
import { kevSnapshot } from './snapshots.ts';
import type { IdentifiedSoftware } from './software.ts';
import { inRange } from './versions.ts';

export interface KevMatch {
  entry: KevEntry;
  /** The range the version is in. */
  range: KevRange;
}

/** The entries whose ranges name the product at all: what a scan of it covered. */
export function kevEntriesFor(
  software: IdentifiedSoftware,
  snapshot: KevSnapshot = kevSnapshot(),
): KevEntry[] {
  const names = software.product.kevProducts;
  return snapshot.entries.filter((e) => e.ranges.some((r) => names.includes(r.product)));
}

export function kevMatches(software: IdentifiedSoftware, snapshot: KevSnapshot = kevSnapshot()): KevMatch[] {
  const names = software.product.kevProducts;
  const matches: KevMatch[] = [];
  for (const entry of kevEntriesFor(software, snapshot)) {
    const range = entry.ranges.find(
      (r) => names.includes(r.product) && inRange(software.version, r, software.product.scheme) === true,
    );
    if (range) matches.push({ entry, range });
  }
  return matches;
}

/** How a range reads in a sentence: `2.4.17 to 2.4.38`, `before 9.0.31`, `exactly 2.4.49`. */
export function describeRange(range: KevRange): string {
  if (range.exact !== undefined) return `exactly ${range.exact}`;
  const from = range.introduced && range.introduced !== '0' ? range.introduced : undefined;
  if (range.last_affected !== undefined)
    return from ? `${from} to ${range.last_affected}` : `up to ${range.last_affected}`;
  if (range.fixed) return from ? `${from} before ${range.fixed}` : `before ${range.fixed}`;
  return from ? `${from} and later (no fixed version stated)` : 'every version (no fixed version stated)';
}
