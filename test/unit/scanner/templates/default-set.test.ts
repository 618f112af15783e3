import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildFromTarball, writeDefaultSet } from '../../../../server/scanner/templates/default-set.ts';
import { checkTemplateSignature } from '../../../../server/scanner/templates/signature.ts';
import { loadTemplates } from '../../../../server/scanner/templates/template-set.ts';
import { DEFAULT_TEMPLATES_DIR } from '../../../../server/scanner/templates/sources.ts';

const DATA = fileURLToPath(new URL('../../../../../shared/data/', import.meta.url));
const CORPUS = join(DATA, 'nuclei-templates-9424c7c.tar.gz');
const KEV = join(DATA, 'cisa-kev-2025-08-25.json');
const COMMIT = '9424c7c1fe138b4516cea674ed399aa1ff730716';
const haveData = existsSync(CORPUS) && existsSync(KEV);
if (!haveData) console.warn(`skipping the default template set rebuild test: ${CORPUS} or ${KEV} is absent`);

function tree(dir: string): Map<string, string> {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  return new Map(
    files
      .map((e) => join(e.parentPath, e.name))
      .sort()
      .map((path) => [relative(dir, path), readFileSync(path, 'utf8')]),
  );
}

describe('the curated default template set', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('is committed with its manifest and the upstream MIT notice, and every template loads', async () => {
    const manifest = JSON.parse(readFileSync(join(DEFAULT_TEMPLATES_DIR, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ commit: COMMIT, license: 'MIT' });
    expect(readFileSync(join(DEFAULT_TEMPLATES_DIR, 'LICENSE.md'), 'utf8')).toMatch(/MIT License/);
    const set = await loadTemplates(DEFAULT_TEMPLATES_DIR);
    expect(set.stats.skipped).toBe(0);
    expect(set.stats.loaded).toBe(manifest.templates.length);
    expect(set.network.length).toBeGreaterThan(0);
    expect(set.ssl.length).toBeGreaterThan(0);
    const reasons = new Set(manifest.templates.map((t: { reason: string }) => t.reason));
    expect([...reasons].sort()).toEqual([
      'default-login',
      'exposure',
      'kev-cve',
      'misconfiguration',
      'network',
      'ssl',
    ]);
  });

  it("records which templates carry ProjectDiscovery's valid signature, and the files as shipped agree", () => {
    const manifest = JSON.parse(readFileSync(join(DEFAULT_TEMPLATES_DIR, 'manifest.json'), 'utf8'));
    expect(manifest.signing_key).toMatchObject({
      name: 'projectdiscovery/nuclei-templates',
      fragment: '922c64590222798bb761d5b6d8e72950',
    });
    for (const entry of manifest.templates as Array<{ path: string; signature: string }>) {
      const data = readFileSync(join(DEFAULT_TEMPLATES_DIR, entry.path));
      expect(checkTemplateSignature(data).status, entry.path).toBe(entry.signature);
    }
    // Every template of the set at 9424c7c is signed and verifies.
    expect(manifest.signatures).toEqual({ verified: manifest.templates.length, unsigned: 0, mismatched: 0 });
  });

  it.skipIf(!haveData)(
    'rebuilds from ../shared/data to exactly the committed files',
    async () => {
      // One build: the committed files are an earlier build's output, so a build that differed
      // from run to run (an order, a date) fails here without a second build beside it.
      const built = await buildFromTarball({ from: CORPUS, commit: COMMIT, kevFile: KEV });
      const out = mkdtempSync(join(tmpdir(), 'scanward-default-set-'));
      dirs.push(out);
      await writeDefaultSet(out, built);
      const rebuilt = tree(out);
      const committed = tree(DEFAULT_TEMPLATES_DIR);
      expect([...rebuilt.keys()]).toEqual([...committed.keys()]);
      for (const [path, text] of rebuilt) expect(committed.get(path), path).toBe(text);
    },
    120_000,
  );
});
