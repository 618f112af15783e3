import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { buildIfStale } from '../server/cli/build.mjs';
import { generatedDocs, prettierMarkdown } from '../server/cli/docs.ts';

/**
 * `npm run check:drift`: fails when a committed, generated file differs from a
 * fresh generation, and says which command brings it up to date.
 *   - docs/openapi.json   vs `tsx server/cli/openapi.ts`  (fix: npm run openapi)
 *   - dist/               vs fresh ncc builds of action/index.ts and action/ci-main.ts
 *                         (dist/ci/, the scanward-ci command) and the local engine's esbuild
 *                         bundle (dist/local/, server/cli/build-local-engine.mjs) (fix: npm run build:action)
 *   - console/src/api/schema.d.ts vs openapi-typescript over docs/openapi.json (fix: npm run api:console)
 *   - console/dist/       vs a fresh Vite build of console/ (fix: npm run build:console)
 *   - server/queries/     vs the SQL of every repository query, generated afresh against a
 *                         new migrated database (fix: npm run sql; see server/cli/sql.ts)
 *   - the generated tables of docs/architecture.md (the import rules, the table modules) and
 *     docs/roles.md (routes × roles) vs their sources (fix: npm run docs; server/cli/docs.ts)
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const run = promisify(execFile);

/** The first line where two texts differ, for a message a reader can act on. */
export function firstDifference(expected: string, actual: string): string {
  const a = expected.split('\n');
  const b = actual.split('\n');
  const show = (line: string | undefined) =>
    line === undefined ? '<end of file>' : `\`${line.trim().slice(0, 120)}\``;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) return `line ${i + 1}: committed ${show(b[i])}, generated ${show(a[i])}`;
  }
  return 'no difference';
}

/** Compares a committed text file with a freshly generated text; undefined when they agree. */
export function textDrift(committedFile: string, fresh: string, fix: string): string | undefined {
  const relative = path.relative(ROOT, committedFile);
  const name = relative.startsWith('..') ? committedFile : relative;
  if (!existsSync(committedFile)) return `${name} is missing; run \`${fix}\` and commit it.`;
  const committed = readFileSync(committedFile, 'utf8');
  if (committed === fresh) return undefined;
  return `${name} differs from a fresh generation (${firstDifference(fresh, committed)}); run \`${fix}\` and commit it.`;
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** Every difference between a committed directory and a fresh build of it: missing, extra and changed files. */
export function treeDifferences(committedDir: string, freshDir: string): string[] {
  const committed = new Set(filesUnder(committedDir));
  const fresh = new Set(filesUnder(freshDir));
  const problems: string[] = [];
  for (const file of fresh) {
    if (!committed.has(file)) problems.push(`${file} is missing`);
    else if (!readFileSync(path.join(committedDir, file)).equals(readFileSync(path.join(freshDir, file)))) {
      problems.push(`${file} differs`);
    }
  }
  for (const file of committed) if (!fresh.has(file)) problems.push(`${file} is not produced by the build`);
  return problems;
}

async function openApiCheck(): Promise<string | undefined> {
  const { stdout } = await run(path.join(ROOT, 'node_modules/.bin/tsx'), ['server/cli/openapi.ts'], {
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, LOG_LEVEL: 'silent' },
  });
  return textDrift(path.join(ROOT, 'docs/openapi.json'), stdout, 'npm run openapi');
}

async function distCheck(): Promise<string | undefined> {
  if (!existsSync(path.join(ROOT, 'action/index.ts'))) return undefined;
  // ncc resolves a module of server/ to the built `.js` beside its `.ts` when there is one, so a
  // stale build would be bundled in place of the sources: bring it up to date first (as
  // `npm run build:action` does through its `prebuild` script).
  await buildIfStale();
  const out = mkdtempSync(path.join(tmpdir(), 'scanward-dist-'));
  try {
    try {
      // The Action, then the scanward-ci command into dist/ci (as `npm run build:action` does).
      for (const [entry, dir] of [
        ['action/index.ts', out],
        ['action/ci-main.ts', path.join(out, 'ci')],
      ] as const) {
        await run(
          path.join(ROOT, 'node_modules/.bin/ncc'),
          ['build', entry, '-o', dir, '--license', 'licenses.txt'],
          { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 },
        );
      }
      // The local engine's bundle and its data files into dist/local.
      await run(process.execPath, ['server/cli/build-local-engine.mjs', path.join(out, 'local')], {
        cwd: ROOT,
        maxBuffer: 64 * 1024 * 1024,
      });
    } catch (err) {
      const output = (err as { stderr?: string }).stderr ?? String(err);
      const lines = output.split('\n').filter((l) => l.trim() && !/^\s+at /.test(l));
      return `the Action does not build, so dist/ cannot be checked; \`npm run build:action\` fails with:\n    ${lines.slice(0, 8).join('\n    ')}`;
    }
    const problems = treeDifferences(path.join(ROOT, 'dist'), out);
    if (problems.length === 0) return undefined;
    return `dist/ differs from a fresh build of action/index.ts, action/ci-main.ts and the local engine (${problems.join('; ')}); run \`npm run build:action\` and commit dist/.`;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The console's API types, generated from the committed OpenAPI document. */
async function consoleApiCheck(): Promise<string | undefined> {
  const { stdout } = await run(
    path.join(ROOT, 'node_modules/.bin/openapi-typescript'),
    ['docs/openapi.json'],
    { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 },
  );
  return textDrift(path.join(ROOT, 'console/src/api/schema.d.ts'), stdout, 'npm run api:console');
}

/** The console's committed build against a fresh one. */
async function consoleBuildCheck(): Promise<string | undefined> {
  const out = mkdtempSync(path.join(tmpdir(), 'scanward-console-'));
  try {
    try {
      await run(
        path.join(ROOT, 'node_modules/.bin/vite'),
        ['build', '--config', 'console/vite.config.ts', '--outDir', out, '--emptyOutDir'],
        { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 },
      );
    } catch (err) {
      const output = (err as { stderr?: string }).stderr ?? String(err);
      return `the console does not build, so console/dist/ cannot be checked; \`npm run build:console\` fails with:\n    ${output.split('\n').slice(0, 8).join('\n    ')}`;
    }
    const problems = treeDifferences(path.join(ROOT, 'console/dist'), out);
    if (problems.length === 0) return undefined;
    return `console/dist/ differs from a fresh build of console/ (${problems.join('; ')}); run \`npm run build:console\` and commit console/dist/.`;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The committed SQL of the repository queries against a fresh generation (`npm run sql`). */
async function queriesCheck(): Promise<string | undefined> {
  const out = mkdtempSync(path.join(tmpdir(), 'scanward-queries-'));
  try {
    try {
      await run(path.join(ROOT, 'node_modules/.bin/tsx'), ['server/cli/sql.ts', '--out', out], {
        cwd: ROOT,
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, LOG_LEVEL: 'silent' },
      });
    } catch (err) {
      const output = (err as { stderr?: string }).stderr ?? String(err);
      return `the repository queries cannot be generated, so server/queries/ cannot be checked; \`npm run sql\` fails with:\n    ${output.trim().split('\n').slice(0, 12).join('\n    ')}`;
    }
    const problems = treeDifferences(path.join(ROOT, 'server/queries'), out).map((problem) => {
      const file = problem.replace(/ differs$/, '');
      if (file === problem) return problem;
      const fresh = readFileSync(path.join(out, file), 'utf8');
      const committed = readFileSync(path.join(ROOT, 'server/queries', file), 'utf8');
      return `${file} differs (${firstDifference(fresh, committed)})`;
    });
    if (problems.length === 0) return undefined;
    return `server/queries/ differs from the SQL the repositories send now (${problems.join('; ')}); run \`npm run sql\` and commit server/queries/.`;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

async function docsCheck(): Promise<string | undefined> {
  const fresh = await generatedDocs(prettierMarkdown);
  const problems = [...fresh].map(([file, text]) => textDrift(path.join(ROOT, file), text, 'npm run docs'));
  return problems.find((problem) => problem !== undefined);
}

async function main(): Promise<void> {
  // The queries first, alone: their embedded database starts (initdb, in WebAssembly) within
  // a connection timeout, which two bundlers building beside it on a small machine can exceed.
  const queries = await queriesCheck();
  const checks = [openApiCheck(), distCheck(), consoleApiCheck(), consoleBuildCheck(), docsCheck()];
  const problems = [queries, ...(await Promise.all(checks))].filter((p): p is string => p !== undefined);
  if (problems.length === 0) {
    console.log(
      'check:drift: docs/openapi.json, dist/, console/src/api/schema.d.ts, console/dist/, server/queries/ and the generated docs tables match fresh generations',
    );
    return;
  }
  for (const problem of problems) console.error(`check:drift: ${problem}`);
  process.exitCode = 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error('check:drift: could not run:', err instanceof Error ? err.message : err);
    process.exitCode = 1;
  });
}
