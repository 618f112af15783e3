import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONTROLS } from '../../../server/controls/catalogue.ts';
import {
  CATEGORY_CONTROLS,
  controlsAssessedBy,
  CWE_FAMILIES,
  FINDING_CATEGORIES,
  MAP_ONLY_CONTROLS,
} from '../../../server/controls/mapping.ts';

const doc = readFileSync(new URL('../../../docs/compliance-mapping.md', import.meta.url), 'utf8');

/** The cells of the table row whose first cell is `first`. */
function row(first: string): string[] {
  const rows = doc
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  const found = rows.find((cells) => cells[0] === first);
  expect(found, `docs/compliance-mapping.md has no row for ${first}`).toBeDefined();
  return (found as string[]).slice(1);
}

const refs = (list: readonly string[] | undefined) => (list && list.length > 0 ? list.join(', ') : '—');

describe('docs/compliance-mapping.md', () => {
  it('says the mapping is indicative, not an audit opinion', () => {
    expect(doc).toContain('indicative, not an audit opinion');
  });

  it.each(FINDING_CATEGORIES)('lists the controls of category %s as the code maps them', (category) => {
    const c = CATEGORY_CONTROLS[category];
    expect(row(`\`${category}\``)).toEqual([refs(c.soc2), refs(c['pci-dss']), refs(c.iso27001)]);
  });

  it('lists every CWE family as the code maps it', () => {
    for (const family of CWE_FAMILIES) {
      const c = family.controls;
      expect(row(family.name)).toEqual([
        family.cwes.join(', '),
        refs(c.soc2),
        refs(c['pci-dss']),
        refs(c.iso27001),
      ]);
    }
  });

  it('lists every control with what quick and full scans assess', () => {
    const quick = new Set(controlsAssessedBy('quick'));
    const full = new Set(controlsAssessedBy('full'));
    const mark = (set: Set<string>, id: string) =>
      MAP_ONLY_CONTROLS.has(id) ? 'fail only' : set.has(id) ? 'yes' : '—';
    for (const c of CONTROLS) {
      expect(row(`\`${c.id}\``)).toEqual([
        c.framework,
        c.reference,
        c.name,
        mark(quick, c.id),
        mark(full, c.id),
      ]);
    }
  });
});
