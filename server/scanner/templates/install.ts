/**
 * Installs a nuclei-templates corpus into the data directory (`scanward templates update`):
 * from a tarball given with `--from`, or from the latest GitHub release of
 * projectdiscovery/nuclei-templates. The tree is unpacked beside the installed one, checked
 * (an `http/` folder must be there) and swapped in with two renames, so a scan never sees a
 * half-written tree and a failed update leaves the previous one in place. The upstream
 * `LICENSE.md` (MIT) is kept with the templates.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const RELEASE_API = 'https://api.github.com/repos/projectdiscovery/nuclei-templates/releases/latest';

/** Where `templates update` installs the corpus: `<data dir>/templates/nuclei-templates`. */
export function installedTemplatesDir(dataDir: string): string {
  return resolve(dataDir, 'templates', 'nuclei-templates');
}

/** The installed corpus, when there is one. */
export function installedTemplates(dataDir: string): string | undefined {
  const dir = installedTemplatesDir(dataDir);
  return existsSync(join(dir, 'http')) ? dir : undefined;
}

export interface InstallResult {
  directory: string;
  source: string;
  license: boolean;
}

/** The folder of an unpacked tarball that holds `http/`: the root or its single top-level folder. */
async function corpusRoot(dir: string): Promise<string | undefined> {
  if (existsSync(join(dir, 'http'))) return dir;
  const entries = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory());
  if (entries.length === 1 && existsSync(join(dir, entries[0]!.name, 'http')))
    return join(dir, entries[0]!.name);
  return undefined;
}

async function downloadRelease(to: string, fetchImpl: typeof fetch): Promise<string> {
  const release = await fetchImpl(RELEASE_API, { headers: { accept: 'application/vnd.github+json' } });
  if (!release.ok) throw new Error(`GitHub release lookup failed: HTTP ${release.status}`);
  const { tarball_url: url, tag_name: tag } = (await release.json()) as {
    tarball_url?: string;
    tag_name?: string;
  };
  if (!url) throw new Error('the latest release has no tarball');
  const archive = await fetchImpl(url);
  if (!archive.ok) throw new Error(`download of ${url} failed: HTTP ${archive.status}`);
  await writeFile(to, Buffer.from(await archive.arrayBuffer()));
  return `projectdiscovery/nuclei-templates ${tag ?? url}`;
}

export async function installTemplates(options: {
  dataDir: string;
  from?: string;
  fetch?: typeof fetch;
}): Promise<InstallResult> {
  const target = installedTemplatesDir(options.dataDir);
  const parent = resolve(target, '..');
  await mkdir(parent, { recursive: true });
  const work = await mkdtemp(join(parent, '.incoming-'));
  try {
    let archive = options.from;
    let source = options.from ?? '';
    if (!archive) {
      archive = join(work, 'release.tar.gz');
      source = await downloadRelease(archive, options.fetch ?? fetch);
    }
    const unpacked = join(work, 'tree');
    await mkdir(unpacked);
    try {
      await run('tar', ['-xzf', resolve(archive), '-C', unpacked], { maxBuffer: 16 * 1024 * 1024 });
    } catch (err) {
      throw new Error(`${source} could not be unpacked: ${(err as Error).message.split('\n')[0]}`, {
        cause: err,
      });
    }
    const root = await corpusRoot(unpacked);
    if (!root) throw new Error(`${source} holds no http/ folder of nuclei templates`);
    const previous = `${target}.previous`;
    await rm(previous, { recursive: true, force: true });
    if (existsSync(target)) await rename(target, previous);
    await rename(root, target);
    await rm(previous, { recursive: true, force: true });
    return { directory: target, source, license: existsSync(join(target, 'LICENSE.md')) };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
