import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { openDatabase } from '../db/index.ts';
import { migrateLatest } from '../db/migrate.ts';
import { REPOSITORY_SAMPLES } from './sql-samples/index.ts';
import { seedSampleTenant } from './sql-samples/fixture.ts';
import {
  coverageProblems,
  importRepositories,
  queriesFileOf,
  repositoryFiles,
  repositorySql,
} from './sql-generator.ts';

/**
 * `npm run sql`: writes server/queries/, the SQL of every repository query (one .sql file
 * per `*.repository.ts`), generated against a fresh migrated in-memory database (see
 * sql-generator.ts). `--out DIR` writes elsewhere: `npm run check:drift` generates into a
 * temporary directory and compares. Fails, writing nothing, when a repository function has
 * no samples or a sample fails.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const QUERIES_DIR = path.join(ROOT, 'server/queries');

/** Every .sql file of the queries folder, by file name. */
export async function generateQueries(): Promise<Map<string, string>> {
  const files = repositoryFiles(ROOT);
  const modules = await importRepositories(ROOT, files);
  const problems = coverageProblems(files, modules, REPOSITORY_SAMPLES);
  if (problems.length > 0)
    throw new Error(`the samples do not cover the repositories:\n  ${problems.join('\n  ')}`);

  const database = await openDatabase({ dataDir: 'memory://' });
  try {
    await migrateLatest(database.db);
    await seedSampleTenant(database.db).catch((err: unknown) => {
      const reason = err instanceof Error ? err.message : String(err);
      throw new Error(`the sample tenant (server/cli/sql-samples/fixture.ts) cannot be written: ${reason}`);
    });
    const out = new Map<string, string>();
    const byFile = new Map(REPOSITORY_SAMPLES.map((entry) => [entry.file, entry]));
    for (const file of files) {
      const entry = byFile.get(file);
      if (entry) out.set(queriesFileOf(file), await repositorySql(database.db, ROOT, entry));
    }
    return out;
  } finally {
    await database.close();
  }
}

/** Writes the files into `dir`, removing any other .sql file there (a repository that is gone). */
export function writeQueries(dir: string, queries: ReadonlyMap<string, string>): void {
  mkdirSync(dir, { recursive: true });
  for (const name of readdirSync(dir)) {
    if (name.endsWith('.sql') && !queries.has(name)) rmSync(path.join(dir, name));
  }
  for (const [name, text] of queries) writeFileSync(path.join(dir, name), text);
}

async function main(): Promise<void> {
  const at = process.argv.indexOf('--out');
  const dir = at >= 0 && process.argv[at + 1] ? path.resolve(process.argv[at + 1]!) : QUERIES_DIR;
  const queries = await generateQueries();
  writeQueries(dir, queries);
  const count = [...queries.values()].reduce(
    (n, text) => n + (text.match(/^-- (?!server\/)/gm)?.length ?? 0),
    0,
  );
  console.log(
    `sql: ${count} samples of ${queries.size} repositories written to ${path.relative(ROOT, dir) || dir}`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error(`sql: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  });
}
