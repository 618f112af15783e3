/**
 * Refreshes the committed intelligence snapshots (`npm run intel:refresh -- …`):
 *
 *   endoflife --from FILE.tar.gz --products-commit SHA --releases-commit SHA --date YYYY-MM-DD
 *       a tarball holding `endoflife.date/products/*.md` and `release-data/releases/*.json`
 *   endoflife --products-commit SHA --releases-commit SHA --date YYYY-MM-DD
 *       downloads both repositories at those commits from GitHub (codeload archives)
 *   kev --from kev-affected-YYYY-MM-DD.json
 *   epss --from nuclei-templates-SHA.tar.gz|DIR --commit SHA --date YYYY-MM-DD
 *       the EPSS scores in a nuclei-templates tree's classifications, as of that commit
 *   vendor --from vendor-advisories-YYYY-MM-DD.tar.gz|DIR
 *       Apache HTTP Server, nginx and OpenSSL advisories; the folder's README names each upstream commit
 *
 * and writes server/intel/snapshots/*.json. Review the diff before committing.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { Command } from 'commander';
import { buildEolSnapshot } from '../intel/build-endoflife.ts';
import { buildEpssSnapshot, copyrightLine } from '../intel/build-epss.ts';
import { buildKevSnapshot } from '../intel/build-kev.ts';
import { buildVendorSnapshot, VENDOR_PRODUCTS } from '../intel/build-vendor-cves.ts';
import {
  EOL_SNAPSHOT_PATH,
  EPSS_SNAPSHOT_PATH,
  KEV_SNAPSHOT_PATH,
  VENDOR_SNAPSHOT_PATH,
} from '../intel/snapshots.ts';

const run = promisify(execFile);

/**
 * One line per array item below the top level, so diffs of a refresh stay readable: everything
 * deeper than `depth` levels of indentation is collapsed onto its parent's line, with the
 * bracket that closes it.
 */
export function snapshotJson(value: unknown, depth = 3): string {
  const lines = JSON.stringify(value, null, 1).split('\n');
  const out: string[] = [];
  let buffer = '';
  for (const line of lines) {
    const indent = line.length - line.trimStart().length;
    if (indent > depth) buffer += line.trim();
    else {
      if (buffer) {
        out[out.length - 1] += buffer;
        buffer = '';
        // The bracket that closes a collapsed value ends its line too.
        if (/^\s*[\]}],?$/.test(line)) {
          out[out.length - 1] += line.trim();
          continue;
        }
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

/** A tarball unpacked into a fresh directory, or a directory as it is; `done` removes what was unpacked. */
async function unpacked(from: string): Promise<{ dir: string; done: () => Promise<void> }> {
  if ((await stat(from)).isDirectory()) return { dir: from, done: async () => undefined };
  const dir = await mkdtemp(join(tmpdir(), 'scanward-intel-'));
  await extract(from, dir);
  return { dir, done: () => rm(dir, { recursive: true, force: true }) };
}

/** The directory under `root` (depth ≤ 3) that holds every one of `names`. */
async function dirHolding(root: string, names: string[]): Promise<string> {
  const queue: [string, number][] = [[root, 0]];
  while (queue.length > 0) {
    const [dir, depth] = queue.shift() as [string, number];
    const entries = await readdir(dir, { withFileTypes: true });
    if (names.every((n) => entries.some((e) => e.name === n))) return dir;
    if (depth >= 3) continue;
    for (const entry of entries) if (entry.isDirectory()) queue.push([join(dir, entry.name), depth + 1]);
  }
  throw new Error(`no directory holding ${names.join(', ')} in ${root}`);
}

interface EpssOptions {
  from: string;
  commit: string;
  date: string;
  repository: string;
}

async function refreshEpss(options: EpssOptions): Promise<void> {
  const source = await unpacked(options.from);
  try {
    const dir = await dirHolding(source.dir, ['LICENSE.md', 'http']);
    const snapshot = await buildEpssSnapshot({
      dir,
      repository: options.repository,
      commit: options.commit,
      date: options.date,
      copyright: copyrightLine(await readFile(join(dir, 'LICENSE.md'), 'utf8')),
    });
    await writeFile(EPSS_SNAPSHOT_PATH, snapshotJson(snapshot, 2));
    console.log(`${EPSS_SNAPSHOT_PATH}: ${JSON.stringify(snapshot.counts)}`);
  } finally {
    await source.done();
  }
}

async function refreshVendor(from: string): Promise<void> {
  const source = await unpacked(from);
  try {
    const dir = await dirHolding(source.dir, ['README.md', 'apache-httpd', 'nginx', 'openssl']);
    const snapshot = await buildVendorSnapshot(dir, basename(from));
    await writeFile(VENDOR_SNAPSHOT_PATH, snapshotJson(snapshot));
    for (const product of VENDOR_PRODUCTS)
      console.log(`${product}: ${JSON.stringify(snapshot.counts[product])}`);
  } finally {
    await source.done();
  }
}

const program = new Command('intel:refresh').description(
  'Rebuild the end-of-life, KEV, EPSS and vendor-CVE snapshots',
);
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
program
  .command('epss')
  .requiredOption('--from <file>', 'a nuclei-templates tarball or directory')
  .requiredOption('--commit <sha>', 'the nuclei-templates commit it holds')
  .requiredOption('--date <yyyy-mm-dd>', 'the date of that commit')
  .option('--repository <owner/name>', 'the upstream repository', 'projectdiscovery/nuclei-templates')
  .action((options: EpssOptions) => refreshEpss(options));
program
  .command('vendor')
  .requiredOption('--from <file>', 'a vendor-advisories-YYYY-MM-DD tarball or directory')
  .action((options: { from: string }) => refreshVendor(options.from));

await program.parseAsync();
