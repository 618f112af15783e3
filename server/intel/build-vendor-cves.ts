/**
 * Builds the committed vendor-CVE snapshot (snapshots/vendor-cves.json) from the vendors' own
 * security data (a `vendor-advisories-*` folder: `apache-httpd/`, `nginx/`, `openssl/`, and a
 * README naming each upstream commit). Each CVE keeps only what a finding needs (title, a
 * short summary, the vendor's severity word, publication date, advisory, fixed releases) and
 * its affected versions **as the vendor states them**, in the vendor's format; the matcher
 * (vendor-cves.ts) reads each format by its own rules:
 *
 * - Apache HTTP Server, CVE JSON 4.0: `version_data` entries as `[operator, version, branch]`
 *   (`=`, `?=`, `<=`, `>=`, `!<`, `<`); the release line a `<=` is about (`version_name`
 *   "Apache HTTP Server 2.4" → `2.4`) is kept. An operator the matcher does not know stops the
 *   build, so a refresh never silently misreads new data.
 * - Apache HTTP Server and OpenSSL, CVE JSON 5: `affected[].versions` (version, status,
 *   lessThan / lessThanOrEqual, changes) and `defaultStatus`, per affected product.
 * - nginx: the advisory's `vulnerable` and `good` attributes, verbatim.
 *
 * Left out, and counted in `counts.*.left_out`: nginx advisories without a CVE id, or that the
 * vendor rates `none` with no fixed release (`vulnerable="all" good="none"`: not treated as a
 * vulnerability to fix); OpenSSL ranges of the separate FIPS object module (`fips-1.1.1`,
 * never what `OpenSSL/x.y.z` names) and CVEs OpenSSL's statements dispute; records with no
 * usable version left.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { compareCveIds } from './build-epss.ts';

export const VENDOR_PRODUCTS = ['apache_httpd', 'nginx', 'openssl'] as const;
export type VendorProduct = (typeof VENDOR_PRODUCTS)[number];

export type VersionStatus = 'affected' | 'unaffected' | 'unknown';

/** A CVE JSON 4.0 `version_data` entry: operator, version, and the release line it names (if any). */
export type Cve4Version = [operator: Cve4Operator, version: string, branch?: string];
export const CVE4_OPERATORS = ['=', '?=', '<=', '<', '>=', '!<'] as const;
export type Cve4Operator = (typeof CVE4_OPERATORS)[number];

export interface Cve5Change {
  at: string;
  status: VersionStatus;
}

export interface Cve5Version {
  version: string;
  status: VersionStatus;
  lessThan?: string;
  lessThanOrEqual?: string;
  changes?: Cve5Change[];
}

export interface Cve5Product {
  default_status: VersionStatus;
  platforms?: string[];
  versions: Cve5Version[];
}

export type VendorAffected =
  | { format: 'cve4'; platforms?: string[]; versions: Cve4Version[] }
  | { format: 'cve5'; products: Cve5Product[] }
  | { format: 'nginx'; vulnerable: string; good: string };

export interface VendorCveEntry {
  cve: string;
  title: string;
  /** The start of the vendor's description (at most a few sentences). */
  summary: string;
  /** The vendor's severity word as written (`important`, `major`, `High`, `unknown`), or null. */
  severity: string | null;
  /** `YYYY-MM-DD`, when the record says. */
  published: string | null;
  advisory?: string;
  /** Releases the record's timeline names as released with the fix (Apache: "2.4.50 released"). */
  fixed_in?: string[];
  affected: VendorAffected;
  /** The record's path in its upstream repository. */
  source: string;
}

export interface VendorSource {
  repository: string;
  path: string;
  commit: string;
  format: string;
  notice: string;
}

export interface VendorCounts {
  records: number;
  entries: number;
  left_out: Record<string, number>;
}

export interface VendorSnapshot {
  source: { dataset: string; date: string; products: Record<VendorProduct, VendorSource> };
  counts: Record<VendorProduct, VendorCounts>;
  /** OpenSSL's statements about release lines (`base`: `1.0.2`, or `none` for all). */
  statements: { openssl: { base: string; text: string }[] };
  products: Record<VendorProduct, VendorCveEntry[]>;
}

const STATUSES = new Set<VersionStatus>(['affected', 'unaffected', 'unknown']);

/** Whitespace collapsed; cut after whole sentences (or words) at about `max` characters. */
export function summarize(text: string, max = 320): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const head = flat.slice(0, max);
  const sentence = head.lastIndexOf('. ');
  if (sentence >= max / 3) return head.slice(0, sentence + 1);
  const space = head.lastIndexOf(' ');
  return `${head.slice(0, space > 0 ? space : max).replace(/[,;:]$/, '')}…`;
}

function isoDay(value: unknown): string | null {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : null;
}

interface TimelineItem {
  time?: string;
  value?: string;
}

/** The releases a timeline says shipped the fix: `2.4.50 released`. */
function releasedIn(timeline: TimelineItem[] | undefined): { version: string; day: string | null }[] {
  return (timeline ?? []).flatMap((t) => {
    const match = /^\s*(\d+\.\d+\.\d+)\s+released\s*$/i.exec(t.value ?? '');
    return match ? [{ version: match[1] as string, day: isoDay(t.time) }] : [];
  });
}

function publicDay(timeline: TimelineItem[] | undefined): string | null {
  const item = (timeline ?? []).find((t) => /^\s*public\s*$/i.test(t.value ?? ''));
  return isoDay(item?.time);
}

function earliest(days: (string | null)[]): string | null {
  return days.filter((d): d is string => d !== null).sort()[0] ?? null;
}

function count(map: Record<string, number>, reason: string): void {
  map[reason] = (map[reason] ?? 0) + 1;
}

async function jsonFiles(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((f) => /^CVE-\d{4}-\d+\.json$/.test(f)).sort(compareFileCves);
}

function compareFileCves(a: string, b: string): number {
  return compareCveIds(a.replace(/\.json$/, ''), b.replace(/\.json$/, ''));
}

// ---------------------------------------------------------------------------- CVE JSON 5

interface Cve5Record {
  cveMetadata: { cveId: string; datePublished?: string; state?: string };
  containers: {
    cna: {
      title?: string;
      datePublic?: string;
      descriptions?: { lang?: string; value?: string }[];
      affected?: {
        vendor?: string;
        product?: string;
        defaultStatus?: string;
        platforms?: string[];
        versions?: Record<string, unknown>[];
      }[];
      metrics?: { other?: { type?: string; content?: { text?: string } } }[];
      references?: { url?: string; tags?: string[] }[];
      timeline?: TimelineItem[];
    };
  };
}

function cve5Status(value: unknown, where: string): VersionStatus {
  if (typeof value === 'string' && STATUSES.has(value as VersionStatus)) return value as VersionStatus;
  throw new Error(`${where}: unknown version status ${JSON.stringify(value)}`);
}

/** The versions of one affected product, without FIPS-module ranges; `dropped` counts what was left out. */
function cve5Versions(raw: Record<string, unknown>[], where: string, dropped: Record<string, number>) {
  const versions: Cve5Version[] = [];
  for (const item of raw) {
    const bounds = [item.version, item.lessThan, item.lessThanOrEqual].filter((b) => typeof b === 'string');
    if (bounds.some((b) => /^fips/i.test(b as string))) {
      count(dropped, 'range of the OpenSSL FIPS object module');
      continue;
    }
    if (typeof item.version !== 'string') throw new Error(`${where}: a version without "version"`);
    const version: Cve5Version = { version: item.version, status: cve5Status(item.status, where) };
    if (typeof item.lessThan === 'string') version.lessThan = item.lessThan;
    if (typeof item.lessThanOrEqual === 'string') version.lessThanOrEqual = item.lessThanOrEqual;
    if (Array.isArray(item.changes) && item.changes.length > 0) {
      version.changes = (item.changes as Record<string, unknown>[]).map((c) => ({
        at: String(c.at),
        status: cve5Status(c.status, where),
      }));
    }
    versions.push(version);
  }
  return versions;
}

function cve5Entry(
  record: Cve5Record,
  file: string,
  sourcePath: string,
  productName: RegExp,
  dropped: Record<string, number>,
): VendorCveEntry | undefined {
  const cna = record.containers.cna;
  const products: Cve5Product[] = [];
  for (const affected of cna.affected ?? []) {
    if (!productName.test(affected.product ?? '')) continue;
    const versions = cve5Versions(affected.versions ?? [], file, dropped);
    const status = affected.defaultStatus ?? 'unknown';
    const product: Cve5Product = { default_status: cve5Status(status, file), versions };
    if (affected.platforms?.length) product.platforms = affected.platforms;
    if (versions.length > 0 || product.default_status === 'affected') products.push(product);
  }
  if (products.length === 0) return undefined;
  const description = cna.descriptions?.find((d) => !d.lang || /^en/i.test(d.lang))?.value ?? '';
  const severity = cna.metrics?.map((m) => m.other?.content?.text).find((t) => typeof t === 'string');
  const advisory = cna.references?.find((r) => r.tags?.includes('vendor-advisory'))?.url;
  const fixes = releasedIn(cna.timeline);
  const entry: VendorCveEntry = {
    cve: record.cveMetadata.cveId,
    title: titleOf(cna.title, description),
    summary: summarize(description),
    severity: severity ?? null,
    published:
      isoDay(cna.datePublic) ??
      isoDay(record.cveMetadata.datePublished) ??
      publicDay(cna.timeline) ??
      earliest(fixes.map((f) => f.day)),
    affected: { format: 'cve5', products },
    source: `${sourcePath}/${file}`,
  };
  if (advisory) entry.advisory = advisory;
  if (fixes.length > 0) entry.fixed_in = fixes.map((f) => f.version);
  return entry;
}

/** The record's title without the product prefix; else the first sentence of its description. */
function titleOf(title: string | undefined, description: string): string {
  const cleaned = (title ?? '').replace(/^Apache HTTP Server:\s*/i, '').trim();
  if (cleaned) return cleaned;
  const sentence = /^(.*?[.!?])(\s|$)/.exec(description.replace(/\s+/g, ' ').trim())?.[1] ?? description;
  return summarize(sentence, 120).replace(/\.$/, '');
}

// ---------------------------------------------------------------------------- Apache (CVE JSON 4.0 and 5)

interface Cve4Record {
  data_version: string;
  CVE_data_meta: { ID: string; TITLE?: string; DATE_PUBLIC?: string };
  description?: { description_data?: { value?: string }[] };
  impact?: { other?: string }[] | { other?: string };
  affects: {
    vendor: {
      vendor_data: {
        product: {
          product_data: {
            product_name: string;
            version: {
              version_data: {
                version_affected?: string;
                version_value: string;
                version_name?: string;
                platform?: string;
              }[];
            };
          }[];
        };
      }[];
    };
  };
  source?: { advisory?: string };
  timeline?: TimelineItem[];
}

function cve4Entry(record: Cve4Record, file: string, sourcePath: string): VendorCveEntry | undefined {
  const versions: Cve4Version[] = [];
  const platforms = new Set<string>();
  for (const vendor of record.affects.vendor.vendor_data) {
    for (const product of vendor.product.product_data) {
      if (!/^Apache HTTP Server$/i.test(product.product_name)) continue;
      for (const item of product.version.version_data) {
        const operator = (item.version_affected ?? '=') as Cve4Operator;
        if (!(CVE4_OPERATORS as readonly string[]).includes(operator))
          throw new Error(`${file}: version_affected ${JSON.stringify(operator)} is not read by the matcher`);
        const branch = /(\d+\.\d+)\s*$/.exec(item.version_name ?? '')?.[1];
        versions.push(
          operator === '=' || operator === '?=' || !branch
            ? [operator, item.version_value]
            : [operator, item.version_value, branch],
        );
        if (item.platform?.trim()) platforms.add(item.platform.trim());
      }
    }
  }
  if (!versions.some(([op]) => op === '=' || op === '<=' || op === '<')) return undefined;
  const impact = Array.isArray(record.impact) ? record.impact[0] : record.impact;
  const description = record.description?.description_data?.[0]?.value ?? '';
  const fixes = releasedIn(record.timeline);
  const entry: VendorCveEntry = {
    cve: record.CVE_data_meta.ID,
    title: titleOf(record.CVE_data_meta.TITLE, description),
    summary: summarize(description),
    severity: impact?.other ?? null,
    published:
      isoDay(record.CVE_data_meta.DATE_PUBLIC) ??
      publicDay(record.timeline) ??
      earliest(fixes.map((f) => f.day)),
    affected: { format: 'cve4', ...(platforms.size > 0 && { platforms: [...platforms] }), versions },
    source: `${sourcePath}/${file}`,
  };
  if (record.source?.advisory) entry.advisory = record.source.advisory;
  if (fixes.length > 0) entry.fixed_in = fixes.map((f) => f.version);
  return entry;
}

async function apache(dir: string, sourcePath: string) {
  const leftOut: Record<string, number> = {};
  const entries: VendorCveEntry[] = [];
  const files = await jsonFiles(dir);
  for (const file of files) {
    const record = JSON.parse(await readFile(join(dir, file), 'utf8')) as Cve4Record | Cve5Record;
    const entry =
      'containers' in record
        ? cve5Entry(record, file, sourcePath, /^Apache HTTP Server$/i, leftOut)
        : cve4Entry(record, file, sourcePath);
    if (entry) entries.push(entry);
    else count(leftOut, 'no affected version stated');
  }
  return { entries, counts: { records: files.length, entries: entries.length, left_out: leftOut } };
}

// ---------------------------------------------------------------------------- OpenSSL

interface OpensslStatements {
  statements?: { base: string; text: string }[];
  disputed?: { base: string; cve: string; text: string }[];
}

async function openssl(dir: string, sourcePath: string) {
  const leftOut: Record<string, number> = {};
  const entries: VendorCveEntry[] = [];
  let statements: OpensslStatements = {};
  try {
    statements = JSON.parse(await readFile(join(dir, 'statements.json'), 'utf8')) as OpensslStatements;
  } catch {
    // No statements file: nothing disputed, no notes on release lines.
  }
  const disputed = new Set((statements.disputed ?? []).map((d) => d.cve.toUpperCase()));
  const files = await jsonFiles(dir);
  for (const file of files) {
    const record = JSON.parse(await readFile(join(dir, file), 'utf8')) as Cve5Record;
    if (disputed.has(record.cveMetadata.cveId.toUpperCase())) {
      count(leftOut, 'disputed by OpenSSL');
      continue;
    }
    const entry = cve5Entry(record, file, sourcePath, /^OpenSSL$/i, leftOut);
    if (entry) entries.push(entry);
    else count(leftOut, 'no affected version of OpenSSL itself');
  }
  return {
    entries,
    counts: { records: files.length, entries: entries.length, left_out: leftOut },
    statements: (statements.statements ?? []).map((s) => ({
      base: s.base,
      text: s.text.replace(/\s+/g, ' '),
    })),
  };
}

// ---------------------------------------------------------------------------- nginx

interface NginxItem {
  name?: string;
  severity?: string;
  advisory?: string;
  cve?: string | number;
  good?: string;
  vulnerable?: string;
}

function nginxItems(xml: string): NginxItem[] {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    parseAttributeValue: false,
    isArray: (name) => name === 'item' || name === 'patch' || name === 'section' || name === 'security',
  });
  const doc = parser.parse(xml) as {
    article?: { section?: { security?: { item?: NginxItem[] }[] }[] };
  };
  return (doc.article?.section ?? []).flatMap((s) => s.security ?? []).flatMap((s) => s.item ?? []);
}

async function nginx(dir: string, sourcePath: string) {
  const leftOut: Record<string, number> = {};
  const entries: VendorCveEntry[] = [];
  const items = nginxItems(await readFile(join(dir, 'security_advisories.xml'), 'utf8'));
  for (const item of items) {
    const id = item.cve === undefined ? '' : String(item.cve).trim();
    if (!/^\d{4}-\d{4,}$/.test(id)) {
      count(leftOut, 'no CVE id');
      continue;
    }
    const vulnerable = (item.vulnerable ?? '').trim();
    const good = (item.good ?? '').trim();
    if (item.severity === 'none' && /^none$/i.test(good)) {
      count(leftOut, 'severity none, no fixed release');
      continue;
    }
    if (!vulnerable) throw new Error(`nginx CVE-${id}: no vulnerable attribute`);
    const name = (item.name ?? '').replace(/\s+/g, ' ').trim();
    const entry: VendorCveEntry = {
      cve: `CVE-${id}`,
      title: name,
      summary: name,
      severity: item.severity ?? null,
      published: null,
      affected: { format: 'nginx', vulnerable, good },
      source: sourcePath,
    };
    if (item.advisory) entry.advisory = item.advisory;
    entries.push(entry);
  }
  entries.sort((a, b) => compareCveIds(a.cve, b.cve));
  return { entries, counts: { records: items.length, entries: entries.length, left_out: leftOut } };
}

// ---------------------------------------------------------------------------- the dataset

interface ReadmeRow {
  repository: string;
  path: string;
  commit: string;
  format: string;
  licence: string;
}

/** The dataset README's date and, per folder, the upstream repository, path, commit, format and licence. */
export function readDatasetReadme(readme: string): { date: string; rows: Record<string, ReadmeRow> } {
  const date = /snapshot (\d{4}-\d{2}-\d{2})/.exec(readme)?.[1];
  if (!date) throw new Error('the dataset README names no snapshot date');
  const rows: Record<string, ReadmeRow> = {};
  for (const line of readme.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    const folder = /^([a-z-]+)\/$/.exec(cells[1] ?? '')?.[1];
    if (!folder || cells.length < 7) continue;
    const [repoUrl = '', path = ''] = (cells[2] ?? '').split(/,\s*/);
    const commit = cells[3] ?? '';
    if (!/^[0-9a-f]{40}$/.test(commit)) throw new Error(`README: no commit for ${folder}/`);
    rows[folder] = {
      repository: repoUrl.replace(/^github\.com\//, ''),
      path: path.replace(/\/$/, ''),
      commit,
      format: cells[4] ?? '',
      licence: cells[5] ?? '',
    };
  }
  return { date, rows };
}

const FOLDERS: Record<VendorProduct, string> = {
  apache_httpd: 'apache-httpd',
  nginx: 'nginx',
  openssl: 'openssl',
};

function notices(nginxLicense: string): Record<VendorProduct, string> {
  const copyright = nginxLicense
    .split('\n')
    .map((l) => l.replace(/^\s*\*\s?/, '').trim())
    .filter((l) => /^Copyright/.test(l))
    .join(', ');
  return {
    apache_httpd:
      'Apache HTTP Server vulnerability records of the Apache HTTP Server security team, from apache/httpd-site ' +
      '(content/security/json), Apache License 2.0 (https://www.apache.org/licenses/LICENSE-2.0), ' +
      'Copyright The Apache Software Foundation. Reduced to the fields Scanward matches on; not endorsed by the ASF.',
    nginx:
      `nginx security advisories from nginx/nginx.org (xml/en/security_advisories.xml). ${copyright}. ` +
      'All rights reserved. Redistribution and use in source and binary forms, with or without modification, are ' +
      'permitted provided that the following conditions are met: 1. Redistributions of source code must retain ' +
      'the above copyright notice, this list of conditions and the following disclaimer. 2. Redistributions in ' +
      'binary form must reproduce the above copyright notice, this list of conditions and the following ' +
      'disclaimer in the documentation and/or other materials provided with the distribution. THIS SOFTWARE IS ' +
      'PROVIDED BY THE AUTHOR AND CONTRIBUTORS "AS IS" AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT ' +
      'LIMITED TO, THE IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE ARE DISCLAIMED.',
    openssl:
      'OpenSSL vulnerability records published by the OpenSSL project as CVE records (openssl/release-metadata, ' +
      'secjson/), under the CVE Program terms of use. CVE® is a registered trademark of The MITRE Corporation. ' +
      'Reduced to the fields Scanward matches on.',
  };
}

/** Builds the snapshot from an unpacked `vendor-advisories-*` folder. */
export async function buildVendorSnapshot(dir: string, datasetName: string): Promise<VendorSnapshot> {
  const { date, rows } = readDatasetReadme(await readFile(join(dir, 'README.md'), 'utf8'));
  const row = (product: VendorProduct): ReadmeRow => {
    const found = rows[FOLDERS[product]];
    if (!found) throw new Error(`README: no row for ${FOLDERS[product]}/`);
    return found;
  };
  const apacheData = await apache(join(dir, FOLDERS.apache_httpd), row('apache_httpd').path);
  const nginxData = await nginx(join(dir, FOLDERS.nginx), row('nginx').path);
  const opensslData = await openssl(join(dir, FOLDERS.openssl), row('openssl').path);
  const notice = notices(await readFile(join(dir, FOLDERS.nginx, 'LICENSE'), 'utf8'));
  const source = (product: VendorProduct): VendorSource => {
    const r = row(product);
    return {
      repository: r.repository,
      path: r.path,
      commit: r.commit,
      format: r.format,
      notice: notice[product],
    };
  };
  return {
    source: {
      dataset: datasetName,
      date,
      products: { apache_httpd: source('apache_httpd'), nginx: source('nginx'), openssl: source('openssl') },
    },
    counts: { apache_httpd: apacheData.counts, nginx: nginxData.counts, openssl: opensslData.counts },
    statements: { openssl: opensslData.statements },
    products: { apache_httpd: apacheData.entries, nginx: nginxData.entries, openssl: opensslData.entries },
  };
}
