import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { format } from 'sql-formatter';
import type { Db } from '../db/index.ts';

/**
 * The SQL of every repository query, generated and committed (`npm run sql` writes
 * server/queries/, `npm run check:drift` compares), as immich commits its `queries/*.sql`:
 * a query change shows in review as a change of its SQL.
 *
 * Every exported function of every `*.repository.ts` is declared in a samples module
 * (server/cli/sql-samples/): a query function with the arguments to run it with, a query
 * piece (a builder the queries compose, run through them) as {@link QUERY_PIECE}. The
 * generator runs each sample in a transaction it rolls back, against a fresh migrated
 * database holding one sample tenant, records the statements knex sends, and writes them,
 * formatted, one file per repository. A function without a declaration, a declaration
 * without a function, a sample that fails or runs no SQL: each stops the generation.
 */

/** Marks an exported function as a query piece (a builder that runs no SQL of its own). */
export const QUERY_PIECE = 'query piece' as const;

/** The arguments of one run of a query function after the database handle; a name when a function has several. */
export type Sample<A extends readonly unknown[]> = A | { name: string; args: A };

type AnyFunction = (...args: never[]) => unknown;

/**
 * The declaration of every exported function of a repository module `M`: a query function
 * (one that answers a promise) has samples; any other function is a {@link QUERY_PIECE}
 * or, when it takes the handle and builds a whole query, may have samples too.
 */
export type RepositorySamples<M> = {
  -readonly [K in keyof M as M[K] extends AnyFunction ? K : never]-?: M[K] extends (
    db: Db,
    ...args: infer A
  ) => Promise<unknown>
    ? readonly Sample<A>[]
    : M[K] extends (db: Db, ...args: infer A) => unknown
      ? readonly Sample<A>[] | typeof QUERY_PIECE
      : typeof QUERY_PIECE;
};

export interface RepositoryEntry {
  /** The repository module, relative to the project root: `server/findings/findings-triage.repository.ts`. */
  file: string;
  module: object;
  samples: Record<string, readonly Sample<readonly unknown[]>[] | typeof QUERY_PIECE>;
}

/** Declares the samples of one repository module (typed against the module's exports). */
export function repositorySamples<M extends object>(
  file: string,
  module: M,
  samples: RepositorySamples<M>,
): RepositoryEntry {
  return { file, module, samples: samples as RepositoryEntry['samples'] };
}

/** Every `*.repository.ts` under `server/`, relative to `root`, sorted. */
export function repositoryFiles(root: string): string[] {
  return readdirSync(path.join(root, 'server'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.repository.ts'))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

/** The .sql file of a repository module: `server/findings/findings-triage.repository.ts` → `findings-triage.sql`. */
export function queriesFileOf(file: string): string {
  return `${path.basename(file, '.repository.ts')}.sql`;
}

const isAsync = (fn: unknown) => typeof fn === 'function' && fn.constructor.name === 'AsyncFunction';

/** Where the samples of each domain folder are declared, for the messages. */
const samplesFileOf = (file: string) => `server/cli/sql-samples/${file.split('/')[1] ?? 'index'}.ts`;

/**
 * Everything wrong with the declarations before any SQL runs: repositories without
 * samples, samples of no repository, modules that are not the file's, exported functions
 * without a declaration, declarations of nothing exported, pieces that are queries.
 */
export function coverageProblems(
  files: readonly string[],
  modules: ReadonlyMap<string, object>,
  entries: readonly RepositoryEntry[],
): string[] {
  const problems: string[] = [];
  const byFile = new Map<string, RepositoryEntry>();
  for (const entry of entries) {
    if (byFile.has(entry.file)) problems.push(`${entry.file}: declared twice in server/cli/sql-samples/`);
    byFile.set(entry.file, entry);
  }
  const outputs = new Map<string, string>();
  for (const file of files) {
    const other = outputs.get(queriesFileOf(file));
    if (other) problems.push(`${file} and ${other} would both write server/queries/${queriesFileOf(file)}`);
    outputs.set(queriesFileOf(file), file);
    const entry = byFile.get(file);
    if (!entry) {
      problems.push(
        `${file}: no samples; declare them with repositorySamples('${file}', …) in ${samplesFileOf(file)}`,
      );
      continue;
    }
    const module = modules.get(file);
    if (module && entry.module !== module) problems.push(`${file}: its samples declare another module`);
    const exported = Object.entries(module ?? entry.module).filter(
      ([, value]) => typeof value === 'function',
    );
    for (const [name, fn] of exported) {
      const declared = entry.samples[name];
      if (declared === undefined) {
        problems.push(
          `${file}: ${name} has no samples; add the arguments to run it with to ${samplesFileOf(file)} (or QUERY_PIECE for a builder that runs no SQL)`,
        );
      } else if (declared === QUERY_PIECE && isAsync(fn)) {
        problems.push(`${file}: ${name} is async, so a query, not a QUERY_PIECE: give it samples`);
      } else if (declared !== QUERY_PIECE && declared.length === 0) {
        problems.push(`${file}: ${name} has an empty list of samples`);
      }
    }
    const names = new Set(exported.map(([name]) => name));
    for (const name of Object.keys(entry.samples)) {
      if (!names.has(name)) problems.push(`${file}: samples for ${name}, which the module does not export`);
    }
  }
  for (const entry of entries) {
    if (!files.includes(entry.file))
      problems.push(`${entry.file}: samples of a file that is not a repository`);
  }
  return problems;
}

/** Statements that only frame a transaction; the samples run in one, and knex's savepoint names are counters. */
const TRANSACTION_CONTROL =
  /^\s*(begin|commit|rollback|savepoint|release savepoint|rollback to savepoint)\b/i;

const ROLLBACK = Symbol('roll the sample back');

/**
 * The statements `run` sends, in order, with `$n` placeholders (never the values); the
 * transaction it runs in is rolled back, so samples never see each other's rows.
 */
export async function captureStatements(db: Db, run: (trx: Db) => Promise<unknown>): Promise<string[]> {
  const statements: string[] = [];
  const listener = (query: { sql?: unknown }) => {
    if (typeof query.sql === 'string' && !TRANSACTION_CONTROL.test(query.sql)) statements.push(query.sql);
  };
  db.on('query', listener);
  try {
    await db.transaction(async (trx) => {
      await run(trx);
      throw ROLLBACK;
    });
  } catch (err) {
    if (err !== ROLLBACK) throw err;
  } finally {
    db.off('query', listener);
  }
  return statements;
}

/** One statement, laid out for review (as immich does); the text as sent when the formatter cannot read it. */
export function formatStatement(sql: string): string {
  try {
    return `${format(sql, { language: 'postgresql', keywordCase: 'lower', tabWidth: 2 })};`;
  } catch {
    return `${sql.trim()};`;
  }
}

/** The exported names of a module in the order its source declares them (then any others, sorted). */
function sourceOrder(source: string, names: readonly string[]): string[] {
  const at = (name: string) => {
    const match = new RegExp(`export\\s+(?:async\\s+)?(?:function\\s*\\*?\\s*|const\\s+)${name}\\b`).exec(
      source,
    );
    return match ? match.index : Number.MAX_SAFE_INTEGER;
  };
  return [...names].sort((a, b) => at(a) - at(b) || (a < b ? -1 : a > b ? 1 : 0));
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * The .sql text of one repository: a header, then for each query function (in source
 * order) and each of its samples the statements it sent. Throws naming the sample when one
 * fails or sends nothing.
 */
export async function repositorySql(db: Db, root: string, entry: RepositoryEntry): Promise<string> {
  const source = readFileSync(path.join(root, entry.file), 'utf8');
  const module = entry.module as Record<string, unknown>;
  const queries = Object.keys(entry.samples).filter((name) => entry.samples[name] !== QUERY_PIECE);
  const sections: string[] = [];
  for (const name of sourceOrder(source, queries)) {
    const fn = module[name] as (db: Db, ...args: unknown[]) => Promise<unknown>;
    const samples = entry.samples[name] as readonly Sample<readonly unknown[]>[];
    for (const sample of samples) {
      const { label, args } = Array.isArray(sample)
        ? { label: name, args: sample as readonly unknown[] }
        : {
            label: `${name} (${(sample as { name: string }).name})`,
            args: (sample as { args: readonly unknown[] }).args,
          };
      let statements: string[];
      try {
        statements = await captureStatements(db, (trx) => fn(trx, ...args));
      } catch (err) {
        throw new Error(`${entry.file}: the sample of ${label} fails: ${errorText(err)}`, { cause: err });
      }
      if (statements.length === 0) {
        throw new Error(
          `${entry.file}: the sample of ${label} sends no SQL; give it arguments that reach the database`,
        );
      }
      sections.push([`-- ${label}`, ...statements.map(formatStatement)].join('\n'));
    }
  }
  const header = [
    `-- ${entry.file}: the SQL of its queries, as knex sends them for the sample arguments in`,
    `-- ${samplesFileOf(entry.file)}. Generated by \`npm run sql\`; do not edit.`,
  ].join('\n');
  if (sections.length === 0) {
    sections.push(
      '-- No queries of its own: query pieces only, whose SQL shows in the queries that use them.',
    );
  }
  return `${[header, ...sections].join('\n\n')}\n`;
}

/** Imports every repository module under `root` (the generator compares them with the declared ones). */
export async function importRepositories(
  root: string,
  files: readonly string[],
): Promise<Map<string, object>> {
  const modules = new Map<string, object>();
  for (const file of files) {
    modules.set(file, (await import(pathToFileURL(path.join(root, file)).href)) as object);
  }
  return modules;
}
