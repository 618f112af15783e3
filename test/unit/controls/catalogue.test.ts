import { describe, expect, it } from 'vitest';
import {
  CONTROLS,
  controlId,
  controlsOfFramework,
  FRAMEWORK_SLUGS,
  getControl,
  isFrameworkSlug,
  sortControlIds,
} from '../../../server/controls/catalogue.ts';

const REQUIRED: Record<string, string[]> = {
  soc2: ['CC6.1', 'CC6.6', 'CC6.7', 'CC6.8', 'CC7.1', 'CC7.2', 'CC8.1'],
  'pci-dss': [
    '1.2.1',
    '1.3.1',
    '1.4.1',
    '2.2.1',
    '2.2.2',
    '2.2.4',
    '2.2.5',
    '2.2.7',
    '4.2.1',
    '6.2.4',
    '6.3.1',
    '6.3.3',
    '6.4.1',
    '8.3.1',
    '8.3.2',
    '11.3.1',
    '11.3.2',
    '11.4.1',
  ],
  iso27001: [
    'A.5.7',
    'A.8.5',
    'A.8.8',
    'A.8.9',
    'A.8.12',
    'A.8.16',
    'A.8.20',
    'A.8.21',
    'A.8.24',
    'A.8.26',
    'A.8.28',
  ],
};

describe('control catalogue', () => {
  it('uses the documented readable id scheme', () => {
    expect(controlId('soc2', 'CC7.1')).toBe('ctrl_soc2_cc7_1');
    expect(controlId('pci-dss', '11.3.1')).toBe('ctrl_pcidss_11_3_1');
    expect(controlId('iso27001', 'A.8.8')).toBe('ctrl_iso27001_a_8_8');
  });

  it.each(Object.entries(REQUIRED))('contains every required %s control', (framework, references) => {
    const present = controlsOfFramework(framework as never).map((c) => c.reference);
    expect(present).toEqual(expect.arrayContaining(references));
  });

  it('gives every control a unique id derived from its framework and reference', () => {
    const ids = CONTROLS.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const c of CONTROLS) expect(c.id).toBe(controlId(c.framework, c.reference));
  });

  it('names and describes every control', () => {
    for (const c of CONTROLS) {
      expect(c.name.length, c.id).toBeGreaterThan(5);
      expect(c.description.length, c.id).toBeGreaterThan(40);
      expect(isFrameworkSlug(c.framework)).toBe(true);
    }
  });

  it('looks controls up by id and by framework', () => {
    expect(getControl('ctrl_pcidss_4_2_1')).toMatchObject({ framework: 'pci-dss', reference: '4.2.1' });
    expect(getControl('ctrl_nope')).toBeUndefined();
    for (const framework of FRAMEWORK_SLUGS) {
      expect(controlsOfFramework(framework).every((c) => c.framework === framework)).toBe(true);
    }
  });

  it('sorts control ids into catalogue order without duplicates', () => {
    expect(
      sortControlIds(['ctrl_iso27001_a_8_8', 'ctrl_soc2_cc6_1', 'ctrl_pcidss_11_3_1', 'ctrl_soc2_cc6_1']),
    ).toEqual(['ctrl_soc2_cc6_1', 'ctrl_pcidss_11_3_1', 'ctrl_iso27001_a_8_8']);
  });
});
