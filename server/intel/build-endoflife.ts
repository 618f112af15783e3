/**
 * Builds the committed end-of-life snapshot (endoflife-snapshot.json) from the
 * endoflife.date repository (`products/<slug>.md`: release cycles with their end-of-life
 * date and latest release in the YAML front matter, CPE identifiers) and the release-data
 * repository (`releases/<slug>.json`: every version with its release date). Only the
 * products the scanner can name (software.ts) are kept, and of each only what a scan
 * needs: per cycle its end of life, latest release and the versions released in it.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { SOFTWARE } from './software.ts';
import { compareVersions, type VersionScheme } from './versions.ts';

export interface EolCycle {
  cycle: string;
  /** End-of-life date (`YYYY-MM-DD`), `true` (ended, date unknown) or `false` (supported). */
  eol: string | boolean;
  latest?: string;
  latest_date?: string;
  /** Versions released in this cycle, oldest first, with their release dates. */
  releases: [version: string, date: string][];
}

export interface EolProduct {
  name: string;
  /** The product's CPE 2.3 prefix (`cpe:2.3:a:apache:http_server`), when endoflife.date lists one. */
  cpe?: string;
  cycles: EolCycle[];
}

export interface EolSnapshot {
  notice: string;
  source: {
    products: { repository: string; commit: string; date: string };
    releases: { repository: string; commit: string; date: string };
  };
  products: Record<string, EolProduct>;
}

export interface EolSource {
  /** Directory of `<slug>.md` files. */
  productsDir: string;
  /** Directory of `<slug>.json` files. */
  releasesDir: string;
  productsCommit: string;
  releasesCommit: string;
  date: string;
}

const NOTICE =
  'Derived from endoflife.date (https://github.com/endoflife-date/endoflife.date) and its release-data ' +
  '(https://github.com/endoflife-date/release-data), both MIT License, Copyright (c) endoflife.date ' +
  'contributors. Permission is hereby granted, free of charge, to any person obtaining a copy of this ' +
  'software and associated documentation files, to deal in the Software without restriction, subject to ' +
  'the condition that the copyright notice and this permission notice shall be included in all copies or ' +
  'substantial portions of the Software. THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND.';

function isoDate(value: unknown): string | undefined {
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  return undefined;
}

function frontMatter(markdown: string): Record<string, unknown> {
  const match = /^---\r?\n([\s\S]*?)\r?\n---/.exec(markdown);
  if (!match) throw new Error('no front matter');
  return parseYaml(match[1] as string) as Record<string, unknown>;
}

/**
 * `2.4` is the cycle of `2.4.49`; `9` of `9.0.1` (a version is in the longest cycle it starts
 * with); `1.1.1` of OpenSSL's letter releases `1.1.1k` and `1.1.1-pre9`.
 */
export function inCycle(version: string, cycle: string): boolean {
  if (version === cycle) return true;
  if (!version.startsWith(cycle)) return false;
  const next = version.slice(cycle.length);
  return next.startsWith('.') || (/\d$/.test(cycle) && /^(-?[a-z])/i.test(next));
}

async function product(source: EolSource, slug: string, scheme: VersionScheme): Promise<EolProduct> {
  const meta = frontMatter(await readFile(join(source.productsDir, `${slug}.md`), 'utf8'));
  const identifiers = (meta.identifiers as Record<string, string>[] | undefined) ?? [];
  const cpe = identifiers.map((i) => i.cpe).find((c) => typeof c === 'string' && c.startsWith('cpe:2.3:'));
  let versions: [string, string][] = [];
  try {
    const data = JSON.parse(await readFile(join(source.releasesDir, `${slug}.json`), 'utf8')) as {
      versions?: Record<string, { name?: string; date?: string }>;
    };
    versions = Object.entries(data.versions ?? {})
      .map(([name, v]): [string, string] => [v.name ?? name, v.date ?? ''])
      .filter(([, date]) => /^\d{4}-\d{2}-\d{2}$/.test(date));
  } catch {
    // No release-data file: cycles keep their end of life and latest release only.
  }
  const labels = ((meta.releases as Record<string, unknown>[]) ?? []).map((r) => String(r.releaseCycle));
  const cycles = ((meta.releases as Record<string, unknown>[]) ?? []).map((release): EolCycle => {
    const cycle = String(release.releaseCycle);
    const eol = release.eol;
    const longer = labels.filter((l) => l !== cycle && inCycle(l, cycle));
    const releases = versions
      .filter(([v]) => inCycle(v, cycle) && !longer.some((l) => inCycle(v, l)))
      .sort(([a], [b]) => compareVersions(a, b, scheme) ?? 0);
    return {
      cycle,
      eol: typeof eol === 'boolean' ? eol : (isoDate(eol) ?? false),
      ...(release.latest !== undefined && { latest: String(release.latest) }),
      ...(isoDate(release.latestReleaseDate) && { latest_date: isoDate(release.latestReleaseDate) }),
      releases,
    };
  });
  return { name: String(meta.title ?? slug), ...(cpe && { cpe: cpe.replace(/\\/g, '') }), cycles };
}

export async function buildEolSnapshot(source: EolSource): Promise<EolSnapshot> {
  const products: Record<string, EolProduct> = {};
  for (const software of SOFTWARE) {
    if (!software.endoflife) continue;
    products[software.endoflife] = await product(source, software.endoflife, software.scheme);
  }
  return {
    notice: NOTICE,
    source: {
      products: {
        repository: 'endoflife-date/endoflife.date',
        commit: source.productsCommit,
        date: source.date,
      },
      releases: {
        repository: 'endoflife-date/release-data',
        commit: source.releasesCommit,
        date: source.date,
      },
    },
    products,
  };
}
