import { describe, expect, it } from 'vitest';
import { getControl } from '../../../server/controls/catalogue.ts';
import {
  CATEGORY_CONTROLS,
  controlsAssessedBy,
  controlsForFinding,
  CWE_FAMILIES,
  cweFamily,
  FINDING_CATEGORIES,
  MAP_ONLY_CONTROLS,
  normalizeCategory,
  SCAN_TYPES,
  type FindingForMapping,
} from '../../../server/controls/mapping.ts';

const finding = (over: Partial<FindingForMapping>): FindingForMapping => ({
  cwe_ids: [],
  cve_ids: [],
  severity: 'medium',
  ...over,
});

describe('controlsForFinding', () => {
  it('maps a legacy TLS finding to the data-in-transit and cryptography controls', () => {
    const m = controlsForFinding(finding({ category: 'tls', cwe_ids: ['CWE-326'] }));
    expect(m.frameworks).toEqual([
      { name: 'soc2', controls: ['ctrl_soc2_cc6_7'] },
      { name: 'pci-dss', controls: ['ctrl_pcidss_2_2_7', 'ctrl_pcidss_4_2_1'] },
      { name: 'iso27001', controls: ['ctrl_iso27001_a_8_21', 'ctrl_iso27001_a_8_24'] },
    ]);
    expect(m.framework_slugs).toEqual(['soc2', 'pci-dss', 'iso27001']);
  });

  it('maps an unauthenticated Redis to access control, authentication and network controls', () => {
    const m = controlsForFinding(
      finding({
        category: 'unauthenticated-access',
        cwe_ids: ['CWE-306'],
        severity: 'high',
        target: '10.0.0.5',
      }),
    );
    expect(m.control_ids).toEqual(
      expect.arrayContaining([
        'ctrl_soc2_cc6_1',
        'ctrl_soc2_cc6_6',
        'ctrl_pcidss_8_3_1',
        'ctrl_pcidss_1_3_1',
        'ctrl_iso27001_a_8_5',
        'ctrl_iso27001_a_8_20',
      ]),
    );
  });

  it('adds the vulnerability-management controls for a finding with a CVE', () => {
    const m = controlsForFinding(finding({ cve_ids: ['CVE-2021-44228'], severity: 'medium' }));
    expect(m.control_ids).toEqual(
      expect.arrayContaining([
        'ctrl_soc2_cc7_1',
        'ctrl_pcidss_6_3_1',
        'ctrl_pcidss_6_3_3',
        'ctrl_iso27001_a_8_8',
      ]),
    );
    expect(m.control_ids).not.toContain('ctrl_iso27001_a_5_7');
    const kev = controlsForFinding(finding({ cve_ids: ['CVE-2021-44228'], in_kev: true }));
    expect(kev.control_ids).toContain('ctrl_iso27001_a_5_7');
  });

  it('maps CWE families on their own, whatever the spelling of the id', () => {
    expect(controlsForFinding(finding({ cwe_ids: ['cwe-89'] })).control_ids).toEqual(
      expect.arrayContaining(['ctrl_pcidss_6_2_4', 'ctrl_iso27001_a_8_28']),
    );
    expect(controlsForFinding(finding({ cwe_ids: ['200'] })).control_ids).toContain('ctrl_iso27001_a_8_12');
    expect(controlsForFinding(finding({ cwe_ids: ['CWE-1032'] })).control_ids).toContain(
      'ctrl_iso27001_a_8_9',
    );
    expect(controlsForFinding(finding({ cwe_ids: ['CWE-1104'] })).control_ids).toContain(
      'ctrl_iso27001_a_8_8',
    );
    expect(controlsForFinding(finding({ cwe_ids: ['CWE-99999', 'garbage'] })).frameworks).toEqual([]);
  });

  it('requires high and critical findings to be fixed under internal scanning, and external scanning off internal networks', () => {
    const internal = controlsForFinding(finding({ severity: 'critical', target: '192.168.1.10' }));
    expect(internal.control_ids).toContain('ctrl_pcidss_11_3_1');
    expect(internal.control_ids).not.toContain('ctrl_pcidss_11_3_2');
    const external = controlsForFinding(finding({ severity: 'high', target: 'shop.example.com' }));
    expect(external.control_ids).toEqual(
      expect.arrayContaining(['ctrl_pcidss_11_3_1', 'ctrl_pcidss_11_3_2']),
    );
    expect(controlsForFinding(finding({ severity: 'medium' })).control_ids).not.toContain(
      'ctrl_pcidss_11_3_1',
    );
  });

  it('does not let an informational open port fail any control, but maps a flagged one', () => {
    expect(controlsForFinding(finding({ category: 'open-port', severity: 'info' }))).toEqual({
      frameworks: [],
      framework_slugs: [],
      control_ids: [],
    });
    expect(controlsForFinding(finding({ category: 'open-port', severity: 'low' })).control_ids).toEqual([
      'ctrl_soc2_cc6_6',
      'ctrl_pcidss_1_3_1',
      'ctrl_pcidss_2_2_4',
      'ctrl_iso27001_a_8_20',
    ]);
  });

  it('restricts the answer to the requested frameworks', () => {
    const m = controlsForFinding(finding({ category: 'web-headers' }), { frameworks: ['pci-dss'] });
    expect(m.framework_slugs).toEqual(['pci-dss']);
    expect(m.frameworks[0]?.controls).toEqual(['ctrl_pcidss_2_2_1', 'ctrl_pcidss_6_4_1']);
  });

  it('understands the category spellings scanners use', () => {
    expect(normalizeCategory('SSL')).toBe('tls');
    expect(normalizeCategory('default_login')).toBe('default-credentials');
    expect(normalizeCategory('Known CVE')).toBe('known-vulnerability');
    expect(normalizeCategory('something-else')).toBeUndefined();
    expect(controlsForFinding(finding({ category: 'Exposures' })).control_ids).toContain(
      'ctrl_iso27001_a_8_12',
    );
  });

  it('only ever names controls that exist in the catalogue', () => {
    for (const category of FINDING_CATEGORIES) {
      for (const severity of ['critical', 'info'] as const) {
        const m = controlsForFinding(
          finding({ category, severity, cve_ids: ['CVE-2020-0001'], in_kev: true }),
        );
        for (const id of m.control_ids) expect(getControl(id), id).toBeDefined();
      }
    }
    for (const family of CWE_FAMILIES) expect(cweFamily(`CWE-${family.cwes[0]}`)).toBe(family);
  });
});

describe('controlsAssessedBy', () => {
  it('lets a full scan assess the network, web, TLS and vulnerability-management controls', () => {
    const ids = controlsAssessedBy('full');
    expect(ids).toEqual(
      expect.arrayContaining([
        'ctrl_soc2_cc6_6',
        'ctrl_soc2_cc6_7',
        'ctrl_soc2_cc7_1',
        'ctrl_pcidss_4_2_1',
        'ctrl_pcidss_6_4_1',
        'ctrl_pcidss_11_3_1',
        'ctrl_iso27001_a_5_7',
        'ctrl_iso27001_a_8_26',
      ]),
    );
  });

  it('does not let a quick scan assess what only web analysis and threat intelligence look at', () => {
    const quick = controlsAssessedBy('quick');
    expect(quick).toContain('ctrl_pcidss_11_3_1');
    expect(quick).not.toContain('ctrl_pcidss_6_4_1');
    expect(quick).not.toContain('ctrl_iso27001_a_8_26');
    expect(quick).not.toContain('ctrl_iso27001_a_5_7');
    expect(controlsAssessedBy('full').length).toBeGreaterThan(quick.length);
  });

  it('never claims a scan assessed controls it can only fail', () => {
    for (const type of SCAN_TYPES) {
      for (const id of MAP_ONLY_CONTROLS) expect(controlsAssessedBy(type)).not.toContain(id);
    }
    expect(MAP_ONLY_CONTROLS).toContain('ctrl_pcidss_11_4_1');
  });

  it('limits a compliance scan to its frameworks', () => {
    const ids = controlsAssessedBy('compliance', ['soc2']);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.every((id) => id.startsWith('ctrl_soc2_'))).toBe(true);
    expect(controlsAssessedBy('compliance', [])).toEqual(controlsAssessedBy('full'));
  });

  it('does not count a scan of an internal address as external scanning', () => {
    expect(controlsAssessedBy('full', null, { target: '10.0.0.0/24' })).not.toContain('ctrl_pcidss_11_3_2');
    expect(controlsAssessedBy('full', null, { target: '203.0.113.9' })).toContain('ctrl_pcidss_11_3_2');
  });

  it('assesses every control a finding of a covered category can map to, so passing is meaningful', () => {
    const full = new Set(controlsAssessedBy('full'));
    for (const category of Object.keys(CATEGORY_CONTROLS)) {
      if (category === 'malware') continue; // map-only: a scan cannot show anti-malware working
      const ids = controlsForFinding(finding({ category, severity: 'low' })).control_ids;
      for (const id of ids)
        if (!MAP_ONLY_CONTROLS.has(id)) expect(full.has(id), `${category} → ${id}`).toBe(true);
    }
  });
});
