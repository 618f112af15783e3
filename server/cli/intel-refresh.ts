/**
 * Refreshes the committed intelligence snapshots (`npm run intel:refresh -- …`):
 *
 *   endoflife --from FILE.tar.gz --products-commit SHA --releases-commit SHA --date YYYY-MM-DD
 *       a tarball holding `endoflife.date/products/*.md` and `release-data/releases/*.json`
 *   endoflife --products-commit SHA --releases-commit SHA --date YYYY-MM-DD
 *       downloads both repositories at those commits from GitHub (codeload archives)
 *   kev --from kev-affected-YYYY-MM-DD.json
 *
 * and writes server/scanner/intel/snapshots/*.json. Review the diff before committing.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { Command } from 'commander';
import { buildEolSnapshot } from '../scanner/intel/build-endoflife.ts';
import { buildKevSnapshot } from '../scanner/intel/build-kev.ts';
import { EOL_SNAPSHOT_PATH, KEV_SNAPSHOT_PATH } from '../scanner/intel/snapshots.ts';

const run = promisify(execFile);

/** One line per array item below the top level, so diffs of a refresh stay readable. */
export function snapshotJson(value: unknown): string {
  const lines = JSON.stringify(value, null, 1).split('\n');
  const out: string[] = [];
  // Collapse everything deeper than 3 levels of indentation onto its parent's line.
  let buffer = '';
  for (const line of lines) {
    const depth = line.length - line.trimStart().length;
    if (depth > 3) buffer += line.trim();
    else {
      if (buffer) {
        out[out.length - 1] += buffer;
        buffer = '';
      }
      out.push(line);
    }
  }
  return `${out.join('\n')}\n`;
}

async function extract(tarball: string, into: string): Promise<void> {
  await run('tar', ['-xzf', tarball, '-C', into], { maxBuffer: 16 * 1024 * 1024 });
}

/** The one directory named `name` ending `suffix` somewhere under `root` (depth ≤ 3). */
async function findDir(root: string, suffix: string[]): Promise<string> {
  const queue: [string, number][] = [[root, 0]];
  while (queue.length > 0) {
    const [dir, depth] = queue.shift() as [string, number];
    const tail = join(...suffix);
    if (dir.endsWith(tail)) return dir;
    if (depth >= 3) continue;
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) queue.push([join(dir, entry.name), depth + 1]);
    }
  }
  throw new Error(`no ${suffix.join('/')} directory in the archive`);
}

async function download(url: string, to: string): Promise<void> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  await writeFile(to, Buffer.from(await response.arrayBuffer()));
}

interface EolOptions {
  from?: string;
  productsCommit: string;
  releasesCommit: string;
  date: string;
}

async function refreshEndoflife(options: EolOptions): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'scanward-eol-'));
  try {
    if (options.from) await extract(options.from, work);
    else {
      for (const [repo, commit] of [
        ['endoflife.date', options.productsCommit],
        ['release-data', options.releasesCommit],
      ] as const) {
        const file = join(work, `${repo}.tar.gz`);
        await download(`https://codeload.github.com/endoflife-date/${repo}/tar.gz/${commit}`, file);
        await extract(file, work);
      }
    }
    const snapshot = await buildEolSnapshot({
      productsDir: await findDir(work, ['products']),
      releasesDir: await findDir(work, ['releases']),
      productsCommit: options.productsCommit,
      releasesCommit: options.releasesCommit,
      date: options.date,
    });
    await writeFile(EOL_SNAPSHOT_PATH, snapshotJson(snapshot));
    console.log(`${EOL_SNAPSHOT_PATH}: ${Object.keys(snapshot.products).length} products`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function refreshKev(from: string): Promise<void> {
  const raw = JSON.parse(await readFile(from, 'utf8')) as Parameters<typeof buildKevSnapshot>[0];
  const snapshot = buildKevSnapshot(raw, basename(from));
  await writeFile(KEV_SNAPSHOT_PATH, snapshotJson(snapshot));
  console.log(
    `${KEV_SNAPSHOT_PATH}: ${snapshot.counts.entries} entries, ${snapshot.counts.ranges} ranges ` +
      `(${JSON.stringify(snapshot.counts.ranges_left_out)} left out)`,
  );
}

const program = new Command('intel:refresh').description('Rebuild the end-of-life and KEV snapshots');
program
  .command('endoflife')
  .option('--from <file>', 'a tarball with endoflife.date/products and release-data/releases')
  .requiredOption('--products-commit <sha>', 'endoflife.date commit')
  .requiredOption('--releases-commit <sha>', 'release-data commit')
  .requiredOption('--date <yyyy-mm-dd>', 'the date of those commits')
  .action((options: EolOptions) => refreshEndoflife(options));
program
  .command('kev')
  .requiredOption('--from <file>', 'a kev-affected-YYYY-MM-DD.json dataset')
  .action((options: { from: string }) => refreshKev(options.from));

await program.parseAsync();
