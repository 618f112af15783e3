import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The test files that use a database: those whose imports, followed through `test/`, reach
 * `test/helpers/database.ts`, the one place a test gets a database (PGlite, or PostgreSQL when
 * `DATABASE_URL` is set). CI runs the whole suite on PGlite and these again on PostgreSQL
 * (`npm run test:database`); a test that never reaches a database gives the same result on
 * both runs, so it runs once. Read by vitest.config.ts; test/unit/test-selection.test.ts keeps
 * the rule honest.
 */
export const DATABASE_HELPER = path.join('test', 'helpers', 'database.ts');

const RELATIVE_IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm;

/** Relative imports of a source file, as paths from `root`. */
function importsOf(root: string, file: string): string[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  return [...text.matchAll(RELATIVE_IMPORT)].map((m) => path.normalize(path.join(path.dirname(file), m[1]!)));
}

/** Every `*.test.ts` under `test/` (paths from `root`) that reaches the database helper. */
export function testsUsingADatabase(root: string): string[] {
  const reaches = new Map<string, boolean>();
  const visit = (file: string, seen: Set<string>): boolean => {
    if (file === DATABASE_HELPER) return true;
    const known = reaches.get(file);
    if (known !== undefined) return known;
    // Only the tests' own files: the server's modules give no test a database of their own.
    if (!file.startsWith(`test${path.sep}`) || seen.has(file) || !existsSync(path.join(root, file)))
      return false;
    seen.add(file);
    const result = importsOf(root, file).some((imported) => visit(imported, seen));
    reaches.set(file, result);
    return result;
  };
  return readdirSync(path.join(root, 'test'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => path.join('test', name))
    .filter((file) => visit(file, new Set()))
    .sort();
}
