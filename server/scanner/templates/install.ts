/**
 * Installs a nuclei-templates corpus into the data directory (`scanward templates update`):
 * from a tarball given with `--from`, or from the latest GitHub release of
 * projectdiscovery/nuclei-templates. The tree is unpacked beside the installed one, checked
 * (an `http/` folder must be there), every template's signature is verified against
 * ProjectDiscovery's key (signature.ts), and it is swapped in with two renames, so a scan never
 * sees a half-written tree and a failed update leaves the previous one in place. Templates that
 * are unsigned or whose signature does not match are left out unless `allowUnsigned`; the
 * outcome is written beside them (`signatures.json`). The upstream `LICENSE.md` (MIT) is kept
 * with the templates.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import PQueue from 'p-queue';
import { checkTemplateSignature, isTemplateDocument, projectDiscoveryKey } from './signature.ts';

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

/** What `templates update` found of the templates' signatures (`signatures.json` in the tree). */
export interface SignatureReport {
  key: { name: string; certificate_sha256: string; fragment: string };
  allow_unsigned: boolean;
  /** YAML files that are templates (scan profiles and workflows, unsigned upstream, are not). */
  templates: number;
  verified: number;
  /** Verified over their CRLF bytes, as signed before nuclei normalized line ends. */
  verified_crlf: string[];
  unsigned: string[];
  mismatched: Array<{ path: string; reason: string }>;
  /** Whether the unsigned and mismatched templates were installed (`allow_unsigned`) or left out. */
  installed_unverified: boolean;
}

export interface InstallResult {
  directory: string;
  source: string;
  license: boolean;
  signatures: SignatureReport;
}

/** Name of the signature report written at the top of an installed tree. */
export const SIGNATURE_REPORT = 'signatures.json';

async function yamlFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && /\.ya?ml$/i.test(e.name))
    .map((e) => relative(root, join(e.parentPath, e.name)))
    .filter((path) => !path.split(sep).some((part) => part.startsWith('.')))
    .map((path) => path.split(sep).join('/'))
    .sort();
}

/**
 * Verifies every template under `root` against ProjectDiscovery's key and, unless
 * `allowUnsigned`, deletes those that are unsigned or do not match.
 */
export async function verifyTreeSignatures(root: string, allowUnsigned: boolean): Promise<SignatureReport> {
  const key = projectDiscoveryKey();
  const report: SignatureReport = {
    key: { name: key.name, certificate_sha256: key.certificate_sha256, fragment: key.fragment },
    allow_unsigned: allowUnsigned,
    templates: 0,
    verified: 0,
    verified_crlf: [],
    unsigned: [],
    mismatched: [],
    installed_unverified: false,
  };
  const queue = new PQueue({ concurrency: 32 });
  const rejected: string[] = [];
  await Promise.all(
    (await yamlFiles(root)).map((path) =>
      queue.add(async () => {
        const data = await readFile(join(root, path));
        const check = checkTemplateSignature(data, key);
        if (check.status === 'verified') {
          report.templates++;
          report.verified++;
          if (check.form === 'crlf') report.verified_crlf.push(path);
          return;
        }
        // Scan profiles and workflows carry no signature upstream and run nothing here.
        if (check.status === 'unsigned' && !isTemplateDocument(data.toString('utf8'))) return;
        report.templates++;
        if (check.status === 'unsigned') report.unsigned.push(path);
        else report.mismatched.push({ path, reason: check.reason ?? 'does not verify' });
        rejected.push(path);
      }),
    ),
  );
  report.verified_crlf.sort();
  report.unsigned.sort();
  report.mismatched.sort((a, b) => a.path.localeCompare(b.path));
  report.installed_unverified = allowUnsigned && rejected.length > 0;
  if (!allowUnsigned) await Promise.all(rejected.map((path) => rm(join(root, path), { force: true })));
  return report;
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
  /** Install templates that are unsigned or whose signature does not match, too. */
  allowUnsigned?: boolean;
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
    const signatures = await verifyTreeSignatures(root, options.allowUnsigned === true);
    if (signatures.templates > 0 && signatures.verified === 0 && !signatures.allow_unsigned)
      throw new Error(
        `none of the ${signatures.templates} templates in ${source} carries a valid ProjectDiscovery signature; ` +
          'nothing installed (--allow-unsigned installs them anyway)',
      );
    await writeFile(join(root, SIGNATURE_REPORT), `${JSON.stringify(signatures, null, 1)}\n`);
    const previous = `${target}.previous`;
    await rm(previous, { recursive: true, force: true });
    if (existsSync(target)) await rename(target, previous);
    await rename(root, target);
    await rm(previous, { recursive: true, force: true });
    return { directory: target, source, license: existsSync(join(target, 'LICENSE.md')), signatures };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
