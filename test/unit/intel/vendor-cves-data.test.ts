/**
 * Every range the three vendors publish, read from the tarball in ../shared/data at test time:
 * for each record, the committed snapshot and the matcher must agree with a plain reading of the
 * vendor's own statement at both ends of each range, just inside and just outside them, and at
 * releases of other lines (a fixed set of probes per product, from 1.3.0 to the latest). The
 * committed snapshot must also equal a fresh build of the same tarball.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { buildVendorSnapshot, type VendorProduct } from '../../../server/intel/build-vendor-cves.ts';
import { vendorSnapshot } from '../../../server/intel/snapshots.ts';
import { vendorCves } from '../../../server/intel/vendor-cves.ts';
import { compareVersions } from '../../../server/intel/versions.ts';
import { sharedFile } from '../../helpers/shared-data.ts';

const DATASET = 'vendor-advisories-2026-11-25.tar.gz';
const TARBALL = sharedFile(DATASET);

const PROBES: Record<VendorProduct, string[]> = {
  apache_httpd: [
    '1.3.0',
    '1.3.42',
    '2.0.35',
    '2.0.65',
    '2.2.0',
    '2.2.34',
    '2.4.0',
    '2.4.17',
    '2.4.49',
    '2.4.50',
    '2.4.62',
    '2.4.66',
    '2.4.68',
  ],
  nginx: [
    '0.5.38',
    '0.7.65',
    '0.8.55',
    '1.0.15',
    '1.2.9',
    '1.4.0',
    '1.18.0',
    '1.20.1',
    '1.24.0',
    '1.25.3',
    '1.26.0',
    '1.29.9',
    '1.30.4',
    '1.31.4',
  ],
  openssl: [
    '0.9.6',
    '0.9.6m',
    '0.9.7a',
    '0.9.8zh',
    '1.0.0t',
    '1.0.1f',
    '1.0.1u',
    '1.0.2',
    '1.0.2k',
    '1.0.2zh',
    '1.1.0l',
    '1.1.1',
    '1.1.1k',
    '1.1.1w',
    '3.0.0',
    '3.0.2',
    '3.0.13',
    '3.5.7',
    '3.6.3',
    '4.0.1',
  ],
};

const cmp = (a: string, b: string): number => {
  const order = compareVersions(a, b);
  if (order === undefined) throw new Error(`cannot compare ${a} and ${b}`);
  return order;
};

const PLAIN = /^(\d+(?:\.\d+)*)([a-z]*)$/;

/** The next release after a plain version: `2.4.48` → `2.4.49`, `1.1.1k` → `1.1.1l`, `1.0.2z` → `1.0.2za`. */
function next(version: string): string | undefined {
  const match = PLAIN.exec(version);
  if (!match) return undefined;
  const [, numbers = '', letters = ''] = match;
  if (!letters) return numbers.replace(/\d+$/, (n) => String(Number(n) + 1));
  const last = letters.at(-1) as string;
  return last === 'z'
    ? `${numbers}${letters}a`
    : `${numbers}${letters.slice(0, -1)}${String.fromCharCode(last.charCodeAt(0) + 1)}`;
}

/** The release before a plain version: `2.4.49` → `2.4.48`, `1.1.1l` → `1.1.1k`, `1.0.2za` → `1.0.2z`, `1.1.1a` → `1.1.1`. */
function prev(version: string): string | undefined {
  const match = PLAIN.exec(version);
  if (!match) return undefined;
  const [, numbers = '', letters = ''] = match;
  if (letters) {
    const last = letters.at(-1) as string;
    if (last === 'a') return `${numbers}${letters.slice(0, -1)}`;
    return `${numbers}${letters.slice(0, -1)}${String.fromCharCode(last.charCodeAt(0) - 1)}`;
  }
  const tail = Number(/\d+$/.exec(numbers)?.[0]);
  return tail > 0 ? numbers.replace(/\d+$/, String(tail - 1)) : undefined;
}

/** A bound as a release: `2.4` (a line's start) is `2.4.0`; the matcher never answers for a bare line. */
const release = (version: string): string =>
  /^\d+(\.\d+)?$/.test(version) ? `${version}${'.0'.repeat(3 - version.split('.').length)}` : version;

/** The CVEs the matcher gives a version, asked once per product and version. */
const answers = new Map<string, Set<string>>();
function matched(product: VendorProduct, cve: string, version: string): boolean {
  const key = `${product} ${version}`;
  let found = answers.get(key);
  if (!found) {
    found = new Set(vendorCves(product, version).map((m) => m.cve));
    answers.set(key, found);
  }
  return found.has(cve);
}

// ---------------------------------------------------------------------------- the vendor's statements, read plainly

interface Case {
  product: VendorProduct;
  cve: string;
  format: string;
  /** The vendor's statement read plainly: is this version affected? */
  affected: (version: string) => boolean;
  /** Versions at and around every bound of the record. */
  points: string[];
  /** Checks of particular points, each with its own expectation. */
  ends: [version: string, expected: boolean, what: string][];
  /** The snapshot leaves it out (and says why in its counts). */
  leftOut?: boolean;
}

type Cve4Data = { version_affected?: string; version_value: string; version_name?: string };

function apacheCve4(cve: string, data: Cve4Data[]): Case {
  const op = (d: Cve4Data) => d.version_affected ?? '=';
  const listed = data.filter((d) => op(d) === '=').map((d) => d.version_value);
  const lowers = data.filter((d) => op(d) === '>=' || op(d) === '!<').map((d) => d.version_value);
  const uppers = data
    .filter((d) => op(d) === '<=' || op(d) === '<')
    .map((d) => ({
      bound: d.version_value,
      inclusive: op(d) === '<=',
      line: /(\d+\.\d+)\s*$/.exec(d.version_name ?? '')?.[1],
    }));
  const affected = (v: string) =>
    listed.some((l) => cmp(v, l) === 0) ||
    uppers.some(
      (u) =>
        (u.inclusive ? cmp(v, u.bound) <= 0 : cmp(v, u.bound) < 0) &&
        (!u.line || cmp(v, `${u.line}.0`) >= 0) &&
        lowers.every((l) => cmp(v, l) >= 0),
    );
  const points = new Set<string>();
  const ends: Case['ends'] = [];
  for (const d of data)
    for (const p of [d.version_value, next(d.version_value), prev(d.version_value)]) if (p) points.add(p);
  for (const v of listed) ends.push([v, true, 'listed release']);
  for (const d of data.filter((x) => op(x) === '?=' && !listed.includes(x.version_value)))
    if (!affected(d.version_value)) ends.push([d.version_value, false, 'status unknown to the vendor']);
  for (const u of uppers) {
    const lower = [u.line ? `${u.line}.0` : undefined, ...lowers]
      .filter((x): x is string => !!x)
      .sort((a, b) => cmp(b, a))[0];
    if (u.inclusive) ends.push([u.bound, true, 'upper end (<=)']);
    const above = next(u.bound);
    if (above && !listed.includes(above)) ends.push([above, false, 'just above the upper end']);
    if (lower) {
      ends.push([lower, true, 'lower end']);
      const below = prev(lower);
      if (below && !listed.includes(below)) ends.push([below, false, 'just below the lower end']);
      points.add(lower);
    }
    if (u.line) {
      const [major = 0, minor = 0] = u.line.split('.').map(Number);
      const other = `${major}.${minor - 2}.99`;
      if (minor >= 2 && !listed.includes(other)) ends.push([other, false, 'another release line']);
    }
  }
  return { product: 'apache_httpd', cve, format: 'CVE JSON 4.0', affected, points: [...points], ends };
}

interface Cve5VersionData {
  version: string;
  status: string;
  lessThan?: string;
  lessThanOrEqual?: string;
  changes?: unknown[];
}

function cve5(
  product: VendorProduct,
  cve: string,
  affectedList: { product?: string; defaultStatus?: string; versions?: Cve5VersionData[] }[],
  name: RegExp,
): Case {
  const products = affectedList.filter((a) => name.test(a.product ?? ''));
  // The OpenSSL FIPS object module (fips-1.1.1) is another product: never what OpenSSL/x.y.z names.
  const fips = (v: Cve5VersionData) =>
    [v.version, v.lessThan, v.lessThanOrEqual].some((b) => b?.startsWith('fips'));
  for (const p of products)
    for (const v of p.versions ?? []) expect(v.changes, `${cve}: changes`).toBeUndefined();
  const holds = (v: string, e: Cve5VersionData) => {
    const upper = e.lessThan ?? e.lessThanOrEqual;
    if (upper === undefined) return cmp(v, e.version) === 0;
    return (
      (e.version === '0' || cmp(v, e.version) >= 0) &&
      (e.lessThan !== undefined ? cmp(v, upper) < 0 : cmp(v, upper) <= 0)
    );
  };
  const affected = (v: string) =>
    products.some((p) => {
      const entry = (p.versions ?? []).filter((e) => !fips(e)).find((e) => holds(v, e));
      return (entry ? entry.status : (p.defaultStatus ?? 'unknown')) === 'affected';
    });
  const points = new Set<string>();
  const ends: Case['ends'] = [];
  for (const p of products) {
    for (const e of p.versions ?? []) {
      for (const bound of [e.version, e.lessThan, e.lessThanOrEqual]) {
        if (
          !bound ||
          bound === '0' ||
          bound.startsWith('fips') ||
          compareVersions(bound, bound) === undefined
        )
          continue;
        for (const x of [bound, next(bound), prev(bound)]) if (x) points.add(x);
      }
      if (fips(e)) {
        ends.push([(e.version ?? '').replace(/^fips-/, ''), false, 'FIPS module range, not OpenSSL itself']);
        continue;
      }
      if (e.status !== 'affected') continue;
      // An empty range (CVE-2023-2650 states 3.1.1 ≤ v < 3.1.1) holds nothing: read as written.
      const empty = e.lessThan !== undefined && e.version !== '0' && cmp(e.version, e.lessThan) >= 0;
      if (e.version !== '0') ends.push([e.version, !empty && affected(e.version), 'lower end']);
      if (e.lessThan) {
        ends.push([e.lessThan, false, 'lessThan (first fixed)']);
        const inside = prev(e.lessThan);
        if (inside && (e.version === '0' || cmp(inside, e.version) >= 0))
          ends.push([inside, true, 'just below lessThan']);
      }
      if (e.lessThanOrEqual) {
        ends.push([e.lessThanOrEqual, true, 'lessThanOrEqual']);
        const above = next(e.lessThanOrEqual);
        if (above) ends.push([above, false, 'just above lessThanOrEqual']);
      }
      if (!e.lessThan && !e.lessThanOrEqual) {
        const above = next(e.version);
        if (above) ends.push([above, affected(above), 'the release after a single version']);
      }
      const below = e.version === '0' ? undefined : prev(e.version);
      if (below) ends.push([below, affected(below), 'just below the lower end']);
    }
  }
  const leftOut = !products.some(
    (p) => p.defaultStatus === 'affected' || (p.versions ?? []).some((e) => !fips(e)),
  );
  return { product, cve, format: 'CVE JSON 5', affected, points: [...points], ends, leftOut };
}

interface NginxItem {
  cve?: string | number;
  severity?: string;
  vulnerable?: string;
  good?: string;
}

function nginx(item: NginxItem): Case {
  const cve = `CVE-${item.cve ?? 'none'}`;
  const vulnerable = (item.vulnerable ?? '').replace(/^nginx\/\w+\s+/, '');
  const all = vulnerable === 'all';
  const ranges = all
    ? []
    : vulnerable
        .split(/,\s*/)
        .map((r) => r.split('-') as [string, string?])
        .map(([a, b]) => [a, b ?? a] as [string, string]);
  const good = (item.good ?? '')
    .split(/,\s*/)
    .filter((g) => g.endsWith('+'))
    .map((g) => g.slice(0, -1));
  const line = (v: string) => v.split('.').slice(0, 2).join('.');
  const highest = [...good].sort((a, b) => cmp(b, a))[0];
  const fixed = (v: string) => good.some((g) => cmp(v, g) >= 0 && (g === highest || line(g) === line(v)));
  const affected = (v: string) =>
    (all || ranges.some(([a, b]) => cmp(v, a) >= 0 && cmp(v, b) <= 0)) && !fixed(v);
  const points = new Set<string>();
  const ends: Case['ends'] = [];
  for (const [a, b] of ranges) {
    for (const x of [a, b, next(a), prev(a), next(b), prev(b)]) if (x) points.add(x);
    ends.push([a, !fixed(a), 'lower end']);
    ends.push([b, !fixed(b), 'upper end']);
    const below = prev(a);
    if (below) ends.push([below, affected(below), 'just below the range']);
    const above = next(b);
    if (above) ends.push([above, affected(above), 'just above the range']);
  }
  for (const g of good) {
    for (const x of [g, next(g), prev(g)]) if (x) points.add(x);
    ends.push([g, false, `good ${g}+`]);
    ends.push([`${line(g)}.99`, false, `later release of the line ${g}+ fixes`]);
  }
  const leftOut = item.cve === undefined || (item.severity === 'none' && /^none$/i.test(item.good ?? ''));
  return { product: 'nginx', cve, format: 'nginx advisory', affected, points: [...points], ends, leftOut };
}

// ---------------------------------------------------------------------------- the cases, from the tarball

function readCases(): { dir: string; cases: Case[] } {
  const dir = mkdtempSync(join(tmpdir(), 'scanward-vendor-data-'));
  execFileSync('tar', ['-xzf', TARBALL as string, '-C', dir]);
  const root = join(dir, 'vendor-advisories');
  const cases: Case[] = [];
  const records = (folder: string) =>
    readdirSync(join(root, folder))
      .filter((f) => /^CVE-.*\.json$/.test(f))
      .sort()
      .map((f) => JSON.parse(readFileSync(join(root, folder, f), 'utf8')) as Record<string, never>);
  for (const record of records('apache-httpd')) {
    if ('containers' in record) {
      const r = record as unknown as {
        cveMetadata: { cveId: string };
        containers: { cna: { affected: never[] } };
      };
      cases.push(
        cve5('apache_httpd', r.cveMetadata.cveId, r.containers.cna.affected, /^Apache HTTP Server$/),
      );
    } else {
      const r = record as unknown as {
        CVE_data_meta: { ID: string };
        affects: {
          vendor: {
            vendor_data: { product: { product_data: { version: { version_data: Cve4Data[] } }[] } }[];
          };
        };
      };
      const data = r.affects.vendor.vendor_data.flatMap((v) =>
        v.product.product_data.flatMap((p) => p.version.version_data),
      );
      cases.push(apacheCve4(r.CVE_data_meta.ID, data));
    }
  }
  for (const record of records('openssl')) {
    const r = record as unknown as {
      cveMetadata: { cveId: string };
      containers: { cna: { affected: never[] } };
    };
    cases.push(cve5('openssl', r.cveMetadata.cveId, r.containers.cna.affected, /^OpenSSL$/));
  }
  const xml = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    isArray: (n) => n === 'item',
  }).parse(readFileSync(join(root, 'nginx/security_advisories.xml'), 'utf8')) as {
    article: { section: { security: { item: NginxItem[] } } };
  };
  for (const item of xml.article.section.security.item) cases.push(nginx(item));
  return { dir, cases };
}

const data = TARBALL ? readCases() : undefined;

describe.skipIf(!data)(`every range in ${DATASET}`, () => {
  afterAll(() => rmSync(data?.dir as string, { recursive: true, force: true }));
  const cases = data?.cases ?? [];

  it('holds the records the README counts', () => {
    const count = (p: VendorProduct) => cases.filter((c) => c.product === p).length;
    expect([count('apache_httpd'), count('nginx'), count('openssl')]).toEqual([244, 62, 272]);
  });

  it('equals a fresh build of the snapshot (run `npm run intel:refresh -- vendor` when not)', async () => {
    expect(await buildVendorSnapshot(join(data?.dir as string, 'vendor-advisories'), DATASET)).toEqual(
      vendorSnapshot(),
    );
  });

  it.each(cases.map((c) => [c.cve, c.product, c.format, c] as const))(
    '%s (%s, %s): both ends, inside, outside, other lines',
    (cve, product, _format, c) => {
      if (c.leftOut) {
        expect(vendorSnapshot().products[product].some((e) => e.cve === cve)).toBe(false);
        return;
      }
      expect(
        vendorSnapshot().products[product].some((e) => e.cve === cve),
        `${cve} in the snapshot`,
      ).toBe(true);
      expect(c.ends.length, `${cve}: bounds to check`).toBeGreaterThan(0);
      for (const [bound, expected, what] of c.ends) {
        const version = release(bound);
        expect(matched(product, cve, version), `${cve} at ${version} (${what})`).toBe(expected);
      }
      for (const version of [...c.points, ...PROBES[product]].map(release))
        expect(matched(product, cve, version), `${cve} at ${version}`).toBe(c.affected(version));
      // A version inside: some checked point is affected (the record states at least one).
      expect(
        [...c.ends.map(([v]) => v), ...c.points, ...PROBES[product]].some((v) => c.affected(v)),
        `${cve}: a version inside`,
      ).toBe(true);
    },
  );

  it('gives Apache 2.4.49 exactly the CVEs its team lists for it, the latest release none', () => {
    const listed = cases
      .filter((c) => c.product === 'apache_httpd' && !c.leftOut && c.affected('2.4.49'))
      .map((c) => c.cve);
    expect(listed).toEqual(expect.arrayContaining(['CVE-2021-41773', 'CVE-2021-42013']));
    expect(
      vendorCves('apache_httpd', '2.4.49')
        .map((m) => m.cve)
        .sort(),
    ).toEqual([...listed].sort());
    const latest = cases
      .filter((c) => c.product === 'apache_httpd')
      .flatMap((c) => c.points)
      .filter((v) => v.startsWith('2.4.'))
      .sort((a, b) => cmp(b, a))[0] as string;
    expect(vendorCves('apache_httpd', latest)).toEqual([]);
  });
});

if (!data) console.warn(`skipping the vendor range tests: ../shared/data/${DATASET} is absent`);
