import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { sharedFile } from '../../helpers/shared-data.ts';

/**
 * DefectDojo's scanner-report fixtures (../shared/data/README.md), extracted at test time to a
 * temporary directory. Undefined when the shared data is absent (the tests skip, saying so).
 */
export const CORPUS_TARBALL = sharedFile('scanner-reports-defectdojo-7cfa159.tar.gz');

export interface Corpus {
  dir: string;
  /** Every file, as `nuclei/many_findings.json`, sorted. */
  files: string[];
  remove(): void;
}

export function extractCorpus(): Corpus {
  const dir = mkdtempSync(join(tmpdir(), 'scanward-imports-'));
  execFileSync('tar', ['-xzf', CORPUS_TARBALL!, '-C', dir]);
  const root = join(dir, 'scanner-reports');
  const files: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.push(relative(root, path));
    }
  };
  walk(root);
  return { dir: root, files: files.sort(), remove: () => rmSync(dir, { recursive: true, force: true }) };
}
