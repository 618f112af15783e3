import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * One home per table, and query modules by consumer (docs/architecture.md): every table the
 * migrations create is registered in knex's table map by exactly one repository module, its
 * table module, named for the table (`finding_observations` → `finding-observations.repository.ts`).
 * A repository module that registers no table is a consumer query module: it is named
 * `<table>-<consumer>.repository.ts` beside its table's module (`findings-triage.repository.ts`
 * beside `findings.repository.ts`), or in its consumer's own folder when that folder sits below
 * the table's owner and may not import it (`assets/findings-assets.repository.ts`: the asset
 * inventory reads `findings` without importing findings/).
 */

const ROOT = path.resolve(import.meta.dirname, '../../..');

function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(suffix))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)));
}

const tables = filesUnder('migrations', '.ts')
  .flatMap((file) => [...readFileSync(path.join(ROOT, file), 'utf8').matchAll(/createTable\('([a-z_]+)'/g)])
  .map((match) => match[1]!);

/** Which repository registers which table: `<table>: …` inside `interface Tables { … }`. */
const repositories = filesUnder('server', '.repository.ts');

const registrations = repositories.flatMap((file) => {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  const block = /interface Tables \{([\s\S]*?)\n {2}\}/.exec(text)?.[1] ?? '';
  return [...block.matchAll(/^\s{4}([a-z_]+):/gm)].map((match) => ({ table: match[1]!, file }));
});

describe('the repositories', () => {
  it('find the tables the migrations create', () => {
    expect(tables.length).toBeGreaterThan(10);
  });

  it.each(tables)('give %s exactly one home, named for it', (table) => {
    const homes = registrations.filter((r) => r.table === table).map((r) => r.file);
    expect(homes).toHaveLength(1);
    expect(path.basename(homes[0]!)).toBe(`${table.replaceAll('_', '-')}.repository.ts`);
  });

  it('name every module that registers no table for its table and consumer', () => {
    const tableModules = new Set(registrations.map((r) => r.file));
    const misplaced = repositories
      .filter((file) => !tableModules.has(file))
      .filter((file) => {
        const name = path.basename(file, '.repository.ts');
        const tableModule = [...tableModules].find((home) =>
          name.startsWith(`${path.basename(home, '.repository.ts')}-`),
        );
        return tableModule === undefined || tables.includes(name.replaceAll('-', '_'));
      });
    expect(repositories.length).toBeGreaterThan(tableModules.size);
    expect(misplaced).toEqual([]);
  });

  it('register no table the migrations do not create', () => {
    expect(registrations.map((r) => r.table).filter((t) => !tables.includes(t))).toEqual([]);
  });
});
