/**
 * Builds the committed KEV-by-version snapshot (kev-snapshot.json) from the
 * `kev-affected-*.json` dataset: CISA KEV entries for banner-identifiable servers with the
 * affected versions transcribed from each CVE record. The snapshot keeps only what a scan
 * needs (CVE, KEV metadata, CWE, CVSS vector, the record's conditions, usable ranges and the
 * record's source commit) and only ranges that can be compared without guessing: plain
 * `introduced`/`fixed`/`last_affected`/`exact` bounds. Vendor schemes (Citrix builds,
 * Exchange CU-scoped builds, VMware update levels, Zimbra patches), whole series without
 * bounds, `unaffected` branch markers and ranges flagged ambiguous are left out, and an
 * entry with no range left is not in the snapshot at all. Ranges read only from a record's
 * description (`normalized_from_description`) are never used.
 */
import { SOFTWARE } from './software.ts';
import { parseVersion, type VersionScheme } from './versions.ts';

export interface KevRange {
  product: string;
  introduced?: string;
  fixed?: string | null;
  last_affected?: string;
  exact?: string;
}

export interface KevEntry {
  cve: string;
  product_group: string;
  vendor: string;
  product: string;
  name: string;
  kev_date_added: string;
  ransomware: boolean;
  cwe: string[];
  cvss_v3_vector: string | null;
  /** Sentences of the dataset's notes that say what else exploitation needs (a feature, a configuration, a platform). */
  conditions: string[];
  ranges: KevRange[];
  /** `CVEProject/cvelistV5 <path> @ <commit>`. */
  source: string;
}

export interface KevSnapshot {
  notice: string;
  source: {
    dataset: string;
    generated: string;
    kev_catalog_version: string;
    cve_records: string;
  };
  counts: {
    entries_in_dataset: number;
    entries: number;
    ranges: number;
    ranges_left_out: Record<string, number>;
  };
  entries: KevEntry[];
}

interface RawEntry {
  cve: string;
  vendor: string;
  product: string;
  product_group: string;
  name: string;
  kev_date_added: string;
  ransomware: string;
  cwe?: string[];
  cwe_record?: string[];
  cvss_v3_vector?: string | null;
  normalized?: Record<string, unknown>[];
  source?: string;
  notes?: string;
}

interface RawDataset {
  generated: string;
  sources: { kev_catalog: { catalogVersion: string }; cve_records: { repository: string } };
  entries: RawEntry[];
}

const RANGE_KEYS = new Set(['product', 'introduced', 'fixed', 'last_affected', 'exact']);
/** Markers of the dataset that explain a bound's origin without changing its meaning. */
const ANNOTATIONS = new Set([
  'source',
  'lower_bound',
  'upper_bound_source',
  'typo_corrected',
  'record_value',
  'note',
]);

/** The version scheme a KEV product name compares under. */
export function schemeForKevProduct(product: string): VersionScheme {
  if (/^erlang\/otp$/i.test(product)) return 'erlang-otp';
  return SOFTWARE.find((p) => p.kevProducts.includes(product))?.scheme ?? 'dotted';
}

/** Why a normalized item is not usable, or undefined when it is. */
export function unusableReason(item: Record<string, unknown>): string | undefined {
  const keys = Object.keys(item);
  const other = keys.filter((k) => !RANGE_KEYS.has(k) && !ANNOTATIONS.has(k));
  if (other.length > 0) return `vendor scheme or flag: ${other.sort().join('+')}`;
  const product = typeof item.product === 'string' ? item.product : '';
  const scheme = schemeForKevProduct(product);
  const bounds = (['introduced', 'fixed', 'last_affected', 'exact'] as const).filter(
    (k) => item[k] !== undefined && item[k] !== null,
  );
  if (item.exact === undefined && item.introduced === undefined) return 'no bound';
  for (const key of bounds) {
    const value = item[key];
    if (typeof value !== 'string') return 'bound not a string';
    if (!(key === 'introduced' && value === '0') && !parseVersion(value, scheme))
      return 'bound not a version';
  }
  return undefined;
}

const CONDITION =
  /\b(only|requires?|required|needs?|if\b|when\b|enabled|non-default|configur|platform|windows|module|plugin|feature|chained|authenticated)/i;
const TRANSCRIPTION =
  /\b(CNA|ADP|record|normaliz|CVSS|CWE|stored copy|transcri|prose|structured|container|lower bound|upper bound|read as|defaultStatus|problemType|description:|branch label)/i;

/** The sentences of an entry's notes that state a precondition, not how the record was read. */
export function conditionsFrom(notes: string | undefined): string[] {
  if (!notes) return [];
  return notes
    .split(/(?<=\.)\s+(?=[A-Z'(])/)
    .map((s) => s.trim())
    .filter((s) => CONDITION.test(s) && !TRANSCRIPTION.test(s));
}

export function buildKevSnapshot(raw: RawDataset, datasetName: string): KevSnapshot {
  const leftOut: Record<string, number> = {};
  const entries: KevEntry[] = [];
  for (const entry of raw.entries) {
    const ranges: KevRange[] = [];
    for (const item of entry.normalized ?? []) {
      const reason = unusableReason(item);
      if (reason) {
        leftOut[reason] = (leftOut[reason] ?? 0) + 1;
        continue;
      }
      const range: KevRange = { product: item.product as string };
      if (typeof item.introduced === 'string') range.introduced = item.introduced;
      if (item.fixed === null || typeof item.fixed === 'string') range.fixed = item.fixed;
      if (typeof item.last_affected === 'string') range.last_affected = item.last_affected;
      if (typeof item.exact === 'string') range.exact = item.exact;
      ranges.push(range);
    }
    if (ranges.length === 0) continue;
    entries.push({
      cve: entry.cve,
      product_group: entry.product_group,
      vendor: entry.vendor,
      product: entry.product,
      name: entry.name,
      kev_date_added: entry.kev_date_added,
      ransomware: entry.ransomware === 'Known',
      cwe: (entry.cwe?.length ? entry.cwe : (entry.cwe_record ?? [])).filter((c) => /^CWE-\d+$/.test(c)),
      cvss_v3_vector: entry.cvss_v3_vector ?? null,
      conditions: conditionsFrom(entry.notes),
      ranges,
      source: entry.source ?? '',
    });
  }
  return {
    notice:
      'Built from the CISA Known Exploited Vulnerabilities catalog (CC0 1.0) and the affected versions of ' +
      'CVE records of the CVE Program (CVEProject/cvelistV5; CVE Program terms of use). CVE® is a registered ' +
      'trademark of The MITRE Corporation. Each entry names the record file and commit it was read from.',
    source: {
      dataset: datasetName,
      generated: raw.generated,
      kev_catalog_version: raw.sources.kev_catalog.catalogVersion,
      cve_records: raw.sources.cve_records.repository,
    },
    counts: {
      entries_in_dataset: raw.entries.length,
      entries: entries.length,
      ranges: entries.reduce((n, e) => n + e.ranges.length, 0),
      ranges_left_out: Object.fromEntries(Object.entries(leftOut).sort()),
    },
    entries,
  };
}
