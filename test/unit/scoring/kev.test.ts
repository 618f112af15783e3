import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { KevCatalogue, KevFormatError, loadKev, parseKev } from '../../../server/scoring/kev.ts';

const KEV_FILE = fileURLToPath(new URL('../../../../shared/data/cisa-kev-2025-08-25.json', import.meta.url));
const haveKev = existsSync(KEV_FILE);
if (!haveKev) console.warn(`skipping the CISA KEV file tests: ${KEV_FILE} is absent`);

const entry = (cveID: string, extra: Record<string, unknown> = {}) => ({
  cveID,
  vendorProject: 'Example',
  product: 'Widget',
  vulnerabilityName: 'Example Widget Vulnerability',
  dateAdded: '2025-01-02',
  shortDescription: 'A test entry.',
  requiredAction: 'Apply updates per vendor instructions.',
  dueDate: '2025-01-23',
  ...extra,
});

describe('KevCatalogue', () => {
  it('finds entries by CVE id, ignoring case and surrounding space', () => {
    const kev = parseKev({
      catalogVersion: 't',
      dateReleased: 'now',
      vulnerabilities: [entry('CVE-2025-0001')],
    });
    expect(kev.has('CVE-2025-0001')).toBe(true);
    expect(kev.has(' cve-2025-0001 ')).toBe(true);
    expect(kev.get('cve-2025-0001')?.product).toBe('Widget');
    expect(kev.has('CVE-2025-0002')).toBe(false);
    expect(kev.get('CVE-2025-0002')).toBeUndefined();
  });

  it('returns the listed entries of a finding, in the order of its CVE ids', () => {
    const kev = parseKev({
      catalogVersion: 't',
      dateReleased: 'now',
      vulnerabilities: [entry('CVE-2025-0001'), entry('CVE-2025-0003')],
    });
    expect(kev.entriesFor(['CVE-2025-0003', 'CVE-2025-0002', 'CVE-2025-0001']).map((e) => e.cveID)).toEqual([
      'CVE-2025-0003',
      'CVE-2025-0001',
    ]);
  });

  it('has an empty form for running without KEV data', () => {
    expect(KevCatalogue.empty().has('CVE-2021-44228')).toBe(false);
    expect(KevCatalogue.empty().size).toBe(0);
  });

  it('rejects documents that are not in the CISA format', () => {
    expect(() => parseKev({ vulnerabilities: [] })).toThrow(KevFormatError);
    expect(() =>
      parseKev({ catalogVersion: 't', dateReleased: 'now', vulnerabilities: [entry('not-a-cve')] }),
    ).toThrow(/vulnerabilities\.0\.cveID/);
  });

  it('reports an unreadable or non-JSON file as a KevFormatError', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kev-'));
    await expect(loadKev(join(dir, 'missing.json'))).rejects.toBeInstanceOf(KevFormatError);
    await writeFile(join(dir, 'broken.json'), '{ not json');
    await expect(loadKev(join(dir, 'broken.json'))).rejects.toThrow(/not valid JSON/);
  });
});

describe.skipIf(!haveKev)('the CISA KEV catalogue of 2025-08-25', () => {
  it('loads every entry with its catalogue version', async () => {
    const kev = await loadKev(KEV_FILE);
    expect(kev.version).toBe('2025.08.25');
    expect(kev.size).toBe(1404);
  });

  it('knows famous exploited vulnerabilities and their details', async () => {
    const kev = await loadKev(KEV_FILE);
    const log4shell = kev.get('CVE-2021-44228');
    expect(log4shell).toMatchObject({ vendorProject: 'Apache', product: 'Log4j2', dateAdded: '2021-12-10' });
    expect(log4shell?.knownRansomwareCampaignUse).toBe('Known');
    expect(kev.has('CVE-2014-0160')).toBe(true);
  });

  it('does not list vulnerabilities CISA has not added', async () => {
    const kev = await loadKev(KEV_FILE);
    // regreSSHion was never added to the catalogue.
    expect(kev.has('CVE-2024-6387')).toBe(false);
  });
});
