import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CORE_SCHEMA, load as loadYaml } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildEpssSnapshot,
  copyrightLine,
  cveIdsOf,
  type EpssSnapshot,
} from '../../../server/intel/build-epss.ts';
import { epssFor, epssSnapshotInfo } from '../../../server/intel/epss.ts';
import { epssSnapshot } from '../../../server/intel/snapshots.ts';
import { sharedFile } from '../../helpers/shared-data.ts';

const CORPUS = sharedFile('nuclei-templates-9424c7c.tar.gz');
const CORPUS_COMMIT = '9424c7c1fe138b4516cea674ed399aa1ff730716';

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'scanward-epss-fixture-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const template = (id: string, classification: string) =>
  `id: ${id}\ninfo:\n  name: ${id}\n  severity: high\n  classification:\n${classification
    .trim()
    .split('\n')
    .map((l) => `    ${l.trim()}`)
    .join('\n')}\nhttp: []\n`;

describe('looking up EPSS scores', () => {
  const snapshot: EpssSnapshot = {
    notice: '',
    source: { repository: 'r', commit: 'c', date: '2025-12-26', fields: '' },
    counts: { templates_with_epss: 3, templates_without_cve: 0, invalid: 0, conflicts: 0, cves: 3 },
    scores: {
      'CVE-2021-41773': [0.94377, 0.99963],
      'CVE-2021-42013': [0.9441, 0.99975],
      'CVE-2020-0001': [0.001, 0.2],
    },
  };

  it('gives a CVE in the snapshot its score and percentile', () => {
    expect(epssFor(['CVE-2021-41773'], snapshot)).toEqual({
      cve: 'CVE-2021-41773',
      score: 0.94377,
      percentile: 0.99963,
    });
  });

  it('is null for a CVE that is not in it, and for no CVE at all', () => {
    expect(epssFor(['CVE-1999-0001'], snapshot)).toBeNull();
    expect(epssFor([], snapshot)).toBeNull();
    expect(epssFor(['constructor', '__proto__'], snapshot)).toBeNull();
  });

  it('carries the highest score of several CVEs, whatever their order and case', () => {
    const expected = { cve: 'CVE-2021-42013', score: 0.9441, percentile: 0.99975 };
    expect(epssFor(['CVE-2020-0001', 'CVE-2021-41773', 'CVE-2021-42013'], snapshot)).toEqual(expected);
    expect(epssFor(['cve-2021-42013', 'CVE-1999-0001', 'CVE-2021-41773'], snapshot)).toEqual(expected);
  });

  it('reads the committed snapshot by default, with its date for the API and console', () => {
    const committed = epssSnapshot();
    const [cve, [score, percentile]] = Object.entries(committed.scores)[0]!;
    expect(epssFor([cve])).toEqual({ cve, score, percentile });
    expect(epssSnapshotInfo()).toEqual({
      date: committed.source.date,
      repository: 'projectdiscovery/nuclei-templates',
      commit: CORPUS_COMMIT,
      cves: Object.keys(committed.scores).length,
    });
    expect(committed.source.date).toBe('2025-12-26');
    expect(Object.keys(committed.scores).length).toBeGreaterThan(3000);
    for (const [score, percentile] of Object.values(committed.scores)) {
      expect(score).toBeGreaterThanOrEqual(0);
      expect(score).toBeLessThanOrEqual(1);
      expect(percentile).toBeGreaterThanOrEqual(0);
      expect(percentile).toBeLessThanOrEqual(1);
    }
  });
});

describe('building the EPSS snapshot from templates', () => {
  let dir: string;
  beforeAll(() => {
    dir = tree({
      'LICENSE.md': 'MIT License\n\nCopyright (c) 2025 ProjectDiscovery, Inc.\n',
      'http/cves/2021/CVE-2021-0001.yaml': template(
        'CVE-2021-0001',
        'cve-id: CVE-2021-0001\nepss-score: 0.5\nepss-percentile: 0.9',
      ),
      // Names 0001 too, with other numbers: the template that is CVE-2021-0001 wins.
      'http/cves/2021/CVE-2021-0002.yaml': template(
        'CVE-2021-0002',
        'cve-id: CVE-2021-0001\nepss-score: 0.8\nepss-percentile: 0.99',
      ),
      // Two templates for a CVE that neither is: the higher score wins.
      'http/a.yaml': template('a', 'cve-id: CVE-2022-0003\nepss-score: 0.1\nepss-percentile: 0.5'),
      'http/b.yaml': template('b', 'cve-id: CVE-2022-0003\nepss-score: 0.3\nepss-percentile: 0.7'),
      'http/list.yaml': template(
        'list',
        'cve-id: cve-2023-0004, CVE-2023-0005\nepss-score: 0.2\nepss-percentile: 0.6',
      ),
      'http/no-cve.yaml': template('no-cve', 'cwe-id: CWE-79\nepss-score: 0.7\nepss-percentile: 0.98'),
      'http/bad.yaml': template('bad', 'cve-id: CVE-2023-0006\nepss-score: 7\nepss-percentile: 0.5'),
      'http/no-epss.yaml': template('no-epss', 'cve-id: CVE-2023-0007\ncvss-score: 9.8'),
      'helpers/payloads/epss-score.txt': 'epss-score: 0.5',
    });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps one pair of numbers per CVE, says which templates it left out, and attributes the corpus', async () => {
    const built = await buildEpssSnapshot({
      dir,
      repository: 'projectdiscovery/nuclei-templates',
      commit: 'abc',
      date: '2025-12-26',
      copyright: copyrightLine(readFileSync(join(dir, 'LICENSE.md'), 'utf8')),
    });
    expect(built.scores).toEqual({
      'CVE-2021-0001': [0.5, 0.9],
      'CVE-2022-0003': [0.3, 0.7],
      'CVE-2023-0004': [0.2, 0.6],
      'CVE-2023-0005': [0.2, 0.6],
    });
    expect(built.counts).toEqual({
      templates_with_epss: 7,
      templates_without_cve: 1,
      invalid: 1,
      conflicts: 2,
      cves: 4,
    });
    expect(built.source).toMatchObject({ commit: 'abc', date: '2025-12-26' });
    expect(built.notice).toContain('Copyright (c) 2025 ProjectDiscovery, Inc.');
    expect(built.notice).toContain('MIT License');
    expect(built.notice).toContain('FIRST');
  });

  it('reads cve-id as a string, a comma-separated string or a list', () => {
    expect(cveIdsOf('CVE-2021-1')).toEqual([]);
    expect(cveIdsOf('cve-2021-41773')).toEqual(['CVE-2021-41773']);
    expect(cveIdsOf('CVE-2021-41773, CVE-2021-42013')).toEqual(['CVE-2021-41773', 'CVE-2021-42013']);
    expect(cveIdsOf(['CVE-2021-41773', 7])).toEqual(['CVE-2021-41773']);
    expect(cveIdsOf(undefined)).toEqual([]);
  });
});

describe.skipIf(!CORPUS)('the committed EPSS snapshot and the template corpus in ../shared/data', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'scanward-epss-corpus-'));
    execFileSync('tar', ['-xzf', CORPUS as string, '-C', dir]);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('equals a fresh build from the corpus (run `npm run intel:refresh -- epss` when not)', async () => {
    const built = await buildEpssSnapshot({
      dir,
      repository: 'projectdiscovery/nuclei-templates',
      commit: CORPUS_COMMIT,
      date: '2025-12-26',
      copyright: copyrightLine(readFileSync(join(dir, 'LICENSE.md'), 'utf8')),
    });
    expect(built).toEqual(epssSnapshot());
    expect(built.counts.cves).toBeGreaterThan(3400);
  });

  it("gives each CVE template's own CVE the numbers in its classification", () => {
    let checked = 0;
    for (const year of readdirSync(join(dir, 'http/cves'))) {
      for (const file of readdirSync(join(dir, 'http/cves', year))) {
        const doc = loadYaml(readFileSync(join(dir, 'http/cves', year, file), 'utf8'), {
          schema: CORE_SCHEMA,
        }) as {
          id: string;
          info: { classification?: Record<string, unknown> };
        };
        const c = doc.info.classification;
        if (!c || typeof c['epss-score'] !== 'number' || c['cve-id'] !== doc.id) continue;
        expect(epssFor([doc.id]), doc.id).toEqual({
          cve: doc.id,
          score: c['epss-score'],
          percentile: c['epss-percentile'],
        });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(2500);
  });
});

if (!CORPUS)
  console.warn('skipping the EPSS corpus tests: ../shared/data/nuclei-templates-9424c7c.tar.gz is absent');
