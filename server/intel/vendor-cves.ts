/**
 * Every CVE a vendor lists for a version of its product (Apache HTTP Server, nginx, OpenSSL),
 * from the vendor-CVE snapshot (build-vendor-cves.ts). Each vendor's affected versions are read
 * by the rules of the format it publishes them in, and versions compare under versions.ts
 * (`1.1.1k` > `1.1.1`, `1.0.2zh` > `1.0.2z`, `3.0.0-alpha1` < `3.0.0`):
 *
 * - **CVE JSON 4.0** (Apache, older records): `=` lists an affected release; `<=` makes every
 *   release up to the bound affected, from the start of the release line the entry names
 *   (`version_name` "Apache HTTP Server 2.4" → from 2.4.0), or from the first release when it
 *   names none; `>=` and `!<` (not affected below) raise the lower end of those ranges; `<` is
 *   `<=` without the bound; `?=` means the vendor does not know, which is never reported.
 * - **CVE JSON 5** (Apache, OpenSSL): the first `versions` entry that holds the version decides
 *   (a single `version`, or `version` ≤ v < `lessThan` / ≤ `lessThanOrEqual`; `version: "0"` has
 *   no lower end, `*` no upper end, `2.*` ends after the 2.x line); its `changes` switch the
 *   status at each `at` ≤ v; a version no entry holds takes `defaultStatus`. Only `affected`
 *   is reported (`unknown` is not).
 * - **nginx**: `vulnerable="1.1.4-1.2.8, 1.3.9-1.4.0"` are inclusive ranges (a single version
 *   is a range of one; `all` is every version); `good="1.5.0+, 1.4.1+"` are the fixed releases:
 *   `X+` covers X and later releases of X's line (same major.minor), and the highest one covers
 *   everything after it. Affected = in a vulnerable range and not covered by a good one.
 *   A `nginx/Windows` prefix limits the advisory to Windows builds.
 *
 * A version with a vendor or distribution build suffix compares without it (`1.0.2k-fips` as
 * `1.0.2k`, `1.18.0-6ubuntu14` as `1.18.0`); pre-release markers stay (`-rc1`, `-beta2`, `-pre9`).
 */
import type { Severity } from '../scoring/severity.ts';
import type {
  Cve4Version,
  Cve5Product,
  Cve5Version,
  VendorCveEntry,
  VendorProduct,
  VendorSnapshot,
  VersionStatus,
} from './build-vendor-cves.ts';
import { vendorSnapshot } from './snapshots.ts';
import { atLeast, compareVersions, parseVersion } from './versions.ts';

export type { VendorProduct } from './build-vendor-cves.ts';

/** One CVE the vendor lists for the version. */
export interface VendorCve {
  cve: string;
  product: VendorProduct;
  /** The vendor's own level, as written (`important`, `major`, `High`, `unknown`), or null. */
  vendorSeverity: string | null;
  /** Ours, mapped from the vendor's level (vendorSeverityToOurs). */
  severity: Severity;
  title: string;
  summary: string;
  /** The first release on this version's line that fixes it, when the data says; null otherwise. */
  fixedIn: string | null;
  /** Every release the vendor names as fixed, on any line, lowest first. */
  fixedReleases: string[];
  /** `YYYY-MM-DD`, when the data says. */
  published: string | null;
  advisory: string | null;
  /** The platforms the vendor limits it to (`Windows`); empty when every platform. */
  platforms: string[];
  /** The vendor's statement that holds the version, for evidence: `2.4.0 through 2.4.48`. */
  affectedRange: string;
  /** What the vendor says of this release line (OpenSSL: out of support, premium support only). */
  note?: string;
  /** The record in the vendor's repository. */
  source: string;
}

export interface VendorCveOptions {
  /** The platform the server runs on, when its banner says; advisories limited to another platform are skipped. */
  platform?: 'windows' | 'unix';
}

const SEVERITY_MAP: Record<VendorProduct, Record<string, Severity>> = {
  // https://httpd.apache.org/security/impact_levels.html
  apache_httpd: { critical: 'critical', important: 'high', moderate: 'medium', low: 'low' },
  // nginx.org/en/security_advisories.html: major, medium, low (and one "minor")
  nginx: { major: 'high', medium: 'medium', minor: 'low', low: 'low' },
  // https://openssl-library.org/policies/general/security-policy/
  openssl: { critical: 'critical', high: 'high', moderate: 'medium', low: 'low' },
};

/**
 * Our severity for a vendor's level. A CVE the vendor published without a level (`unknown`,
 * `n/a`, none) is medium: it was published as a security issue, and a missing rating neither
 * hides nor plays it down.
 */
export function vendorSeverityToOurs(product: VendorProduct, level: string | null): Severity {
  return (level && SEVERITY_MAP[product][level.trim().toLowerCase()]) || 'medium';
}

const BUILD_SUFFIX =
  /(?:[-_.]fips|[-+~](?:\d[\w.]*?)?(?:ubuntu|deb|debian|el\d|fc\d|amzn|rhel|alpine|r\d)[\w.~+-]*)$/i;

/** The version as the vendor's data compares it: build suffixes dropped; undefined when it is not a version. */
export function comparableVersion(version: string): string | undefined {
  let text = version.trim().replace(/^v(?=\d)/i, '');
  for (let i = 0; i < 3 && BUILD_SUFFIX.test(text); i++) text = text.replace(BUILD_SUFFIX, '');
  return parseVersion(text) ? text : undefined;
}

/** The release line a version is on: 2.4 (Apache), 1.25 (nginx), 1.1.1 or 3.0 (OpenSSL). */
export function releaseLine(product: VendorProduct, version: string): string {
  const numbers = /^(\d+)\.(\d+)(?:\.(\d+))?/.exec(version);
  if (!numbers) return version;
  const [, major = '', minor = '', patch] = numbers;
  if (product === 'openssl' && Number(major) < 3 && patch !== undefined) return `${major}.${minor}.${patch}`;
  return `${major}.${minor}`;
}

const cmp = (a: string, b: string): number | undefined => compareVersions(a, b);

/** v < bound / v ≤ bound, with CVE 5's `*` (no upper end) and `2.*` (after the whole 2.x line). */
function below(version: string, bound: string, inclusive: boolean): boolean | undefined {
  if (bound === '*') return true;
  const line = /^(.*?)\.?\*$/.exec(bound);
  if (line) {
    const prefix = parseVersion(line[1] as string);
    const v = parseVersion(version);
    if (!prefix || !v) return undefined;
    const head = v.slice(0, prefix.length).map((t) => (t.kind === 'number' ? t.value : NaN));
    for (let i = 0; i < prefix.length; i++) {
      const p = prefix[i];
      const value = p?.kind === 'number' ? p.value : NaN;
      const h = head[i] ?? 0;
      if (h !== value) return h < value;
    }
    return true; // Inside the named line: below its end.
  }
  const order = cmp(version, bound);
  return order === undefined ? undefined : inclusive ? order <= 0 : order < 0;
}

function fromStart(version: string, start: string): boolean | undefined {
  return start === '0' ? parseVersion(version) !== undefined : atLeast(version, start);
}

interface Verdict {
  status: VersionStatus;
  range?: string;
  /** The fix the matched range itself names (CVE 5 `lessThan`, a status change). */
  rangeFix?: string;
}

// ---------------------------------------------------------------------------- CVE JSON 4.0

export function cve4Status(versions: readonly Cve4Version[], version: string): Verdict {
  for (const [op, value] of versions) {
    if (op === '=' && cmp(version, value) === 0) return { status: 'affected', range: `${value} (listed)` };
  }
  const lowers = versions.filter(([op]) => op === '>=' || op === '!<').map(([, value]) => value);
  for (const [op, value, branch] of versions) {
    if (op !== '<=' && op !== '<') continue;
    const start = branch ?? '0';
    const inside =
      fromStart(version, start) === true &&
      lowers.every((l) => atLeast(version, l) === true) &&
      below(version, value, op === '<=') === true;
    if (!inside) continue;
    const from = [start, ...lowers].filter((s) => s !== '0').sort((a, b) => cmp(b, a) ?? 0)[0];
    const upper = op === '<=' ? `through ${value}` : `before ${value}`;
    return { status: 'affected', range: from ? `${from} ${upper}` : upper };
  }
  if (versions.some(([op, value]) => op === '?=' && cmp(version, value) === 0)) return { status: 'unknown' };
  return { status: 'unaffected' };
}

// ---------------------------------------------------------------------------- CVE JSON 5

function cve5Holds(entry: Cve5Version, version: string): boolean {
  const upper = entry.lessThan ?? entry.lessThanOrEqual;
  if (upper === undefined) return cmp(version, entry.version) === 0;
  return (
    fromStart(version, entry.version) === true && below(version, upper, entry.lessThan === undefined) === true
  );
}

function describeCve5(entry: Cve5Version): string {
  const upper = entry.lessThan ?? entry.lessThanOrEqual;
  if (upper === undefined) return entry.version;
  const from = entry.version === '0' ? '' : `${entry.version} `;
  if (upper === '*') return entry.version === '0' ? 'every version' : `${entry.version} and later`;
  return `${from}${entry.lessThan !== undefined ? 'before' : 'through'} ${upper}`;
}

export function cve5Status(product: Cve5Product, version: string): Verdict {
  for (const entry of product.versions) {
    if (!cve5Holds(entry, version)) continue;
    let status = entry.status;
    const changes = [...(entry.changes ?? [])].sort((a, b) => cmp(a.at, b.at) ?? 0);
    for (const change of changes) if ((cmp(change.at, version) ?? 1) <= 0) status = change.status;
    const nextFix = changes.find((c) => c.status === 'unaffected' && (cmp(c.at, version) ?? -1) > 0)?.at;
    const rangeFix = nextFix ?? entry.lessThan;
    return { status, range: describeCve5(entry), ...(rangeFix && { rangeFix }) };
  }
  return { status: product.default_status };
}

// ---------------------------------------------------------------------------- nginx

interface NginxRanges {
  platforms: string[];
  all: boolean;
  ranges: [from: string, to: string][];
  good: string[];
}

const nginxCache = new Map<string, NginxRanges>();

/** `nginx/Windows 0.7.52-0.8.32` → platforms Windows, one range; `1.25.0-1.25.5, 1.26.0` → two. */
export function parseNginxRanges(vulnerable: string, good: string): NginxRanges {
  const key = `${vulnerable}|${good}`;
  const cached = nginxCache.get(key);
  if (cached) return cached;
  let text = vulnerable.trim();
  const platforms: string[] = [];
  const platform = /^nginx\/(\w+)\s+/i.exec(text);
  if (platform) {
    platforms.push(platform[1] as string);
    text = text.slice(platform[0].length);
  }
  const all = /^all$/i.test(text);
  const ranges = all
    ? []
    : text.split(/\s*,\s*/).map((part): [string, string] => {
        const [from = '', to] = part.split(/\s*-\s*/);
        return [from, to ?? from];
      });
  const goodList = /^none$/i.test(good.trim())
    ? []
    : good
        .split(/\s*,\s*/)
        .map((g) => g.replace(/\+$/, '').trim())
        .filter(Boolean);
  const parsed = { platforms, all, ranges, good: goodList };
  nginxCache.set(key, parsed);
  return parsed;
}

/** Whether a `good` list covers the version: X+ on X's line, the highest X+ for everything after it. */
function nginxFixed(version: string, good: readonly string[]): boolean {
  const highest = [...good].sort((a, b) => cmp(b, a) ?? 0)[0];
  return good.some((fixed) => {
    const order = cmp(version, fixed);
    if (order === undefined || order < 0) return false;
    return fixed === highest || releaseLine('nginx', fixed) === releaseLine('nginx', version);
  });
}

export function nginxStatus(vulnerable: string, good: string, version: string): Verdict {
  const parsed = parseNginxRanges(vulnerable, good);
  if (parseVersion(version) === undefined) return { status: 'unknown' };
  const inRange =
    parsed.all ||
    parsed.ranges.some(([from, to]) => atLeast(version, from) === true && (cmp(version, to) ?? 1) <= 0);
  const range = `vulnerable ${vulnerable}; not vulnerable ${good}`;
  if (!inRange || nginxFixed(version, parsed.good)) return { status: 'unaffected' };
  return { status: 'affected', range };
}

// ---------------------------------------------------------------------------- any format

function platformsOf(entry: VendorCveEntry): string[] {
  const affected = entry.affected;
  if (affected.format === 'cve4') return affected.platforms ?? [];
  if (affected.format === 'nginx') return parseNginxRanges(affected.vulnerable, affected.good).platforms;
  const all = affected.products.map((p) => p.platforms ?? []);
  return all.some((p) => p.length === 0) ? [] : [...new Set(all.flat())];
}

function platformFits(platforms: readonly string[], platform: VendorCveOptions['platform']): boolean {
  if (!platform || platforms.length === 0) return true;
  const windows = platforms.some((p) => /windows/i.test(p));
  const other = platforms.some((p) => !/windows/i.test(p));
  return platform === 'windows' ? windows : other;
}

/** The status of `version` (already comparable) under one entry, and the range that decided it. */
export function entryStatus(
  entry: VendorCveEntry,
  version: string,
  platform?: VendorCveOptions['platform'],
): Verdict {
  const affected = entry.affected;
  if (affected.format === 'cve4') return cve4Status(affected.versions, version);
  if (affected.format === 'nginx') return nginxStatus(affected.vulnerable, affected.good, version);
  let verdict: Verdict = { status: 'unaffected' };
  for (const product of affected.products) {
    if (!platformFits(product.platforms ?? [], platform)) continue;
    const next = cve5Status(product, version);
    if (next.status === 'affected') return next;
    if (next.status === 'unknown') verdict = next;
  }
  return verdict;
}

/** Every release the entry names as fixed: CVE 5 `lessThan` and `unaffected` changes, timeline releases, nginx `good`. */
function fixedReleasesOf(entry: VendorCveEntry): string[] {
  const affected = entry.affected;
  const found = new Set<string>(entry.fixed_in ?? []);
  if (affected.format === 'nginx')
    for (const g of parseNginxRanges(affected.vulnerable, affected.good).good) found.add(g);
  if (affected.format === 'cve4')
    for (const [op, value] of affected.versions) if (op === '<') found.add(value);
  if (affected.format === 'cve5') {
    for (const product of affected.products) {
      for (const v of product.versions) {
        if (v.status === 'affected' && v.lessThan) found.add(v.lessThan);
        for (const c of v.changes ?? []) if (c.status === 'unaffected') found.add(c.at);
      }
    }
  }
  return [...found]
    .filter((v) => !/\*|-cvs$/i.test(v) && parseVersion(v) !== undefined)
    .sort((a, b) => cmp(a, b) ?? 0);
}

function fixedOnLine(
  product: VendorProduct,
  entry: VendorCveEntry,
  version: string,
  verdict: Verdict,
  releases: readonly string[],
): string | null {
  const line = releaseLine(product, version);
  const candidates = [...(verdict.rangeFix ? [verdict.rangeFix] : []), ...releases].filter(
    (r) =>
      !/\*|-cvs$/i.test(r) &&
      releaseLine(product, r) === line &&
      (cmp(r, version) ?? 0) > 0 &&
      entryStatus(entry, r).status !== 'affected',
  );
  return candidates.sort((a, b) => cmp(a, b) ?? 0)[0] ?? null;
}

function noteFor(product: VendorProduct, version: string, snapshot: VendorSnapshot): string | undefined {
  if (product !== 'openssl') return undefined;
  const line = releaseLine(product, version);
  return snapshot.statements.openssl.find((s) => s.base === line)?.text;
}

/**
 * Whether a version names one release: three numbers (`2.4.49`, `1.1.1`, `1.1.1k`). `Apache/2.4`
 * (ServerTokens Minor) or `nginx/1` say only the line, and which release it is is not known.
 */
export function namesRelease(version: string): boolean {
  return /^\d+\.\d+\.\d+/.test(version);
}

/**
 * The CVEs the vendor lists as affecting `version` of `product`, newest CVE first. A version
 * that does not read as one, or names only a release line, matches nothing.
 */
export function vendorCves(
  product: VendorProduct,
  version: string,
  options: VendorCveOptions = {},
  snapshot: VendorSnapshot = vendorSnapshot(),
): VendorCve[] {
  const comparable = comparableVersion(version);
  if (!comparable || !namesRelease(comparable)) return [];
  const note = noteFor(product, comparable, snapshot);
  const matches: VendorCve[] = [];
  for (const entry of snapshot.products[product]) {
    const platforms = platformsOf(entry);
    if (!platformFits(platforms, options.platform)) continue;
    const verdict = entryStatus(entry, comparable, options.platform);
    if (verdict.status !== 'affected') continue;
    const fixedReleases = fixedReleasesOf(entry);
    matches.push({
      cve: entry.cve,
      product,
      vendorSeverity: entry.severity,
      severity: vendorSeverityToOurs(product, entry.severity),
      title: entry.title,
      summary: entry.summary,
      fixedIn: fixedOnLine(product, entry, comparable, verdict, fixedReleases),
      fixedReleases,
      published: entry.published,
      advisory: entry.advisory ?? null,
      platforms,
      affectedRange: verdict.range ?? '',
      ...(note && { note }),
      source: entry.source,
    });
  }
  return matches.reverse();
}

/** Every CVE the snapshot holds for the product: what a version check of it covered. */
export function vendorCveIds(product: VendorProduct, snapshot: VendorSnapshot = vendorSnapshot()): string[] {
  return snapshot.products[product].map((e) => e.cve);
}

export interface VendorSnapshotInfo {
  /** `YYYY-MM-DD`: the day the vendor data was taken. */
  date: string;
  products: Record<VendorProduct, { repository: string; commit: string; cves: number }>;
}

export function vendorSnapshotInfo(snapshot: VendorSnapshot = vendorSnapshot()): VendorSnapshotInfo {
  const info = (product: VendorProduct) => ({
    repository: snapshot.source.products[product].repository,
    commit: snapshot.source.products[product].commit,
    cves: snapshot.products[product].length,
  });
  return {
    date: snapshot.source.date,
    products: { apache_httpd: info('apache_httpd'), nginx: info('nginx'), openssl: info('openssl') },
  };
}
