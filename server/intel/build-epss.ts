/**
 * Builds the committed EPSS snapshot (snapshots/epss.json) from a nuclei-templates tree: the
 * `epss-score` and `epss-percentile` that the templates' `info.classification` carries next to
 * its `cve-id`, as of the corpus commit. Only the numbers are kept, per CVE: no template text.
 *
 * - A template names its CVE in `cve-id` (a string, possibly comma-separated, or a list); its
 *   scores are that CVE's. Scores on a template without a `cve-id` are not used (EPSS scores
 *   CVEs, and nothing says which CVE such a number belongs to).
 * - Two templates may name one CVE with different numbers (copied on different days): the
 *   template whose own id is the CVE wins; otherwise the higher score (and its percentile).
 * - Scores outside 0…1 or not numbers are left out and counted.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { CORE_SCHEMA, load as loadYaml } from 'js-yaml';

export interface EpssSnapshot {
  notice: string;
  source: {
    repository: string;
    commit: string;
    /** The corpus date: the day the scores were read from FIRST's EPSS by the template authors, at the latest. */
    date: string;
    fields: string;
  };
  counts: {
    templates_with_epss: number;
    templates_without_cve: number;
    invalid: number;
    /** CVEs named by more than one template with different numbers. */
    conflicts: number;
    cves: number;
  };
  /** CVE id → [EPSS score, EPSS percentile], both fractions 0…1. */
  scores: Record<string, [score: number, percentile: number]>;
}

export interface EpssSource {
  /** The root of a nuclei-templates tree (or any folder holding templates). */
  dir: string;
  repository: string;
  commit: string;
  date: string;
  /** The copyright line of the corpus licence (`Copyright (c) 2025 ProjectDiscovery, Inc.`). */
  copyright: string;
}

const CVE_ID = /^CVE-\d{4}-\d{4,}$/;

async function yamlFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && /\.ya?ml$/i.test(entry.name)) files.push(join(entry.parentPath, entry.name));
  }
  return files.sort();
}

/** The CVE ids a `cve-id` value names, upper-cased; anything that is not a CVE id is dropped. */
export function cveIdsOf(value: unknown): string[] {
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(/[,\s]+/) : [];
  return items
    .filter((v): v is string => typeof v === 'string')
    .map((v) => v.trim().toUpperCase())
    .filter((v) => CVE_ID.test(v));
}

function fraction(value: unknown): number | undefined {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 && n <= 1 ? n : undefined;
}

interface Candidate {
  score: number;
  percentile: number;
  /** The template's own id is this CVE. */
  own: boolean;
  file: string;
}

function better(a: Candidate, b: Candidate): Candidate {
  if (a.own !== b.own) return a.own ? a : b;
  if (a.score !== b.score) return a.score > b.score ? a : b;
  if (a.percentile !== b.percentile) return a.percentile > b.percentile ? a : b;
  return a.file <= b.file ? a : b;
}

export async function buildEpssSnapshot(source: EpssSource): Promise<EpssSnapshot> {
  const candidates = new Map<string, Candidate[]>();
  let withEpss = 0;
  let withoutCve = 0;
  let invalid = 0;
  for (const file of await yamlFiles(source.dir)) {
    const text = await readFile(file, 'utf8');
    if (!text.includes('epss-score')) continue;
    let doc: unknown;
    try {
      doc = loadYaml(text, { schema: CORE_SCHEMA });
    } catch {
      continue; // Not a template the corpus could load either.
    }
    const template = doc as { id?: unknown; info?: { classification?: Record<string, unknown> } } | null;
    const classification = template?.info?.classification;
    if (!classification || classification['epss-score'] === undefined) continue;
    withEpss++;
    const cves = cveIdsOf(classification['cve-id']);
    if (cves.length === 0) {
      withoutCve++;
      continue;
    }
    const score = fraction(classification['epss-score']);
    const percentile = fraction(classification['epss-percentile']);
    if (score === undefined || percentile === undefined) {
      invalid++;
      continue;
    }
    const id = typeof template?.id === 'string' ? template.id.toUpperCase() : '';
    for (const cve of cves) {
      const list = candidates.get(cve) ?? [];
      list.push({ score, percentile, own: id === cve, file: relative(source.dir, file) });
      candidates.set(cve, list);
    }
  }
  const scores: EpssSnapshot['scores'] = {};
  let conflicts = 0;
  for (const cve of [...candidates.keys()].sort(compareCveIds)) {
    const list = candidates.get(cve) as Candidate[];
    if (new Set(list.map((c) => `${c.score}/${c.percentile}`)).size > 1) conflicts++;
    const chosen = list.reduce(better);
    scores[cve] = [chosen.score, chosen.percentile];
  }
  return {
    notice:
      'EPSS scores (Exploit Prediction Scoring System, FIRST, https://www.first.org/epss) as recorded in the ' +
      `classification of the nuclei-templates corpus (https://github.com/${source.repository}), MIT License, ` +
      `${source.copyright}. Permission is hereby granted, free of charge, to any person obtaining a copy of this ` +
      'software and associated documentation files, to deal in the Software without restriction, subject to the ' +
      'condition that the copyright notice and this permission notice shall be included in all copies or ' +
      'substantial portions of the Software. THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND.',
    source: {
      repository: source.repository,
      commit: source.commit,
      date: source.date,
      fields: 'info.classification.epss-score, epss-percentile, cve-id',
    },
    counts: {
      templates_with_epss: withEpss,
      templates_without_cve: withoutCve,
      invalid,
      conflicts,
      cves: Object.keys(scores).length,
    },
    scores,
  };
}

/** CVE ids by year, then number (`CVE-2021-9999` before `CVE-2021-10000`). */
export function compareCveIds(a: string, b: string): number {
  const [, ay = '', an = ''] = a.split('-');
  const [, by = '', bn = ''] = b.split('-');
  return Number(ay) - Number(by) || Number(an) - Number(bn) || (a < b ? -1 : a > b ? 1 : 0);
}

/** The copyright line of an MIT `LICENSE.md` text. */
export function copyrightLine(license: string): string {
  const line = /^Copyright .*$/m.exec(license)?.[0];
  if (!line) throw new Error('no copyright line in the licence');
  return line.trim();
}
