/**
 * EPSS by CVE, from the committed snapshot (build-epss.ts): the probability that a CVE is
 * exploited in the next 30 days (score) and where that stands among all scored CVEs
 * (percentile), as of the snapshot's date. A finding names one or more CVEs; it carries the
 * highest score among them.
 */
import type { EpssSnapshot } from './build-epss.ts';
import { epssSnapshot } from './snapshots.ts';

export interface EpssScore {
  /** The CVE the score belongs to (the highest-scored of those asked about). */
  cve: string;
  /** Fraction 0…1. */
  score: number;
  /** Fraction 0…1. */
  percentile: number;
}

/** The highest EPSS score among `cveIds`, or null when none of them is in the snapshot. */
export function epssFor(
  cveIds: readonly string[],
  snapshot: EpssSnapshot = epssSnapshot(),
): EpssScore | null {
  let best: EpssScore | null = null;
  for (const id of cveIds) {
    const cve = id.trim().toUpperCase();
    const entry = Object.hasOwn(snapshot.scores, cve) ? snapshot.scores[cve] : undefined;
    if (!entry) continue;
    const [score, percentile] = entry;
    if (!best || score > best.score || (score === best.score && percentile > best.percentile)) {
      best = { cve, score, percentile };
    }
  }
  return best;
}

export interface EpssSnapshotInfo {
  /** `YYYY-MM-DD`: the corpus date the scores were read at. */
  date: string;
  repository: string;
  commit: string;
  cves: number;
}

/** What the API and console show about the scores they use. */
export function epssSnapshotInfo(snapshot: EpssSnapshot = epssSnapshot()): EpssSnapshotInfo {
  return {
    date: snapshot.source.date,
    repository: snapshot.source.repository,
    commit: snapshot.source.commit,
    cves: snapshot.counts.cves,
  };
}
