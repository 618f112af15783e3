/**
 * The curated default template set (`default/`), built from a nuclei-templates corpus and
 * committed, so a fresh install runs templates without set-up. Not a copy of the corpus: only
 * templates the engine runs as written (they compile under the supported subset, loader.ts),
 * chosen by SELECTION, each kept verbatim under its upstream path, with upstream's LICENSE.md
 * (MIT) and a manifest naming the upstream commit and, per template, its path, id, why it was
 * chosen, the SHA-1 of its text and whether its `# digest:` signature verifies against
 * ProjectDiscovery's key (signature.ts). The same inputs always give the same bytes.
 *
 *   npm run templates:default -- --from nuclei-templates.tar.gz --commit <sha> \
 *     --kev cisa-kev-YYYY-MM-DD.json
 *
 * rebuilds it (test/unit/scanner/templates/default-set.test.ts checks the committed set equals a
 * rebuild from ../shared/data).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { checkTemplateSignature, projectDiscoveryKey, type SignatureStatus } from './signature.ts';
import { compileAnyTemplate, protocolOf, type AnyTemplate } from './template-set.ts';

const run = promisify(execFile);

/** Why a template is in the default set; the first rule that takes it names it. */
export type SelectionReason =
  'kev-cve' | 'exposure' | 'misconfiguration' | 'default-login' | 'network' | 'ssl';

/** Tags of templates that could disturb a service or only guess: never in the default set. */
const EXCLUDED_TAGS = new Set([
  'intrusive',
  'dos',
  'fuzz',
  'bruteforce',
  'honeypot',
  'osint',
  'c2',
  'malware',
]);
const RANK = { info: 0, low: 1, medium: 2, high: 3, critical: 4 } as const;

/**
 * The rules, in order. `kev-cve`: a CVE template (`http/cves/`, `network/cves/`) whose CVE is in
 * the CISA KEV catalogue. `default-login`: `http/default-logins/`, whatever the severity (they
 * run only under `credential_checks: defaults`; network logins are the built-in checks' alone,
 * under the fixed list of the credential policy). `exposure` (config, backup, log and file
 * exposures) and `misconfiguration` (the top of http/misconfiguration) at `medium` or above, to
 * keep the set compact; `network` (exposures, misconfig) and `ssl` at `low` or above (`info`
 * templates are fingerprints, not weaknesses).
 */
export function selectionReason(
  path: string,
  template: AnyTemplate,
  kev: ReadonlySet<string>,
): SelectionReason | undefined {
  const tags = template.info.tags.map((t) => t.toLowerCase());
  if (tags.some((t) => EXCLUDED_TAGS.has(t))) return undefined;
  if (/^(http|network)\/cves\//.test(path)) {
    return template.info.cveIds.some((id) => kev.has(id)) ? 'kev-cve' : undefined;
  }
  if (/^http\/default-logins\//.test(path)) return 'default-login';
  const rank = RANK[template.info.severity];
  if (rank < RANK.low) return undefined;
  if (/^http\/exposures\/(configs|backups|logs|files)\//.test(path))
    return rank >= RANK.medium ? 'exposure' : undefined;
  if (/^http\/misconfiguration\/[^/]+\.yaml$/.test(path))
    return rank >= RANK.medium ? 'misconfiguration' : undefined;
  if (/^network\/(exposures|misconfig)\//.test(path)) return 'network';
  if (/^ssl\/[^/]+\.yaml$/.test(path)) return 'ssl';
  return undefined;
}

export interface ManifestEntry {
  path: string;
  id: string;
  protocol: 'http' | 'network' | 'ssl';
  severity: string;
  reason: SelectionReason;
  cve_ids: string[];
  sha1: string;
  /** Whether the file as shipped carries ProjectDiscovery's valid signature. */
  signature: SignatureStatus;
}

export interface DefaultSetManifest {
  source: string;
  commit: string;
  license: string;
  notice: string;
  kev_catalog: string;
  /** The key the templates' signatures were checked against. */
  signing_key: { name: string; certificate_sha256: string; fragment: string };
  counts: Record<SelectionReason, number>;
  signatures: Record<SignatureStatus, number>;
  templates: ManifestEntry[];
}

async function yamlFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && /\.ya?ml$/i.test(e.name))
    .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/'))
    .filter((p) => /^(http|network|ssl)\//.test(p))
    .sort();
}

/** The default set of a corpus tree: the files to write (upstream path → text) and the manifest. */
export async function buildDefaultSet(options: {
  corpus: string;
  commit: string;
  kev: { catalogVersion: string; vulnerabilities: { cveID: string }[] };
}): Promise<{ files: Map<string, string>; manifest: DefaultSetManifest; license: string }> {
  const kev = new Set(options.kev.vulnerabilities.map((v) => v.cveID.toUpperCase()));
  const files = new Map<string, string>();
  const entries: ManifestEntry[] = [];
  const ids = new Set<string>();
  for (const path of await yamlFiles(options.corpus)) {
    const text = await readFile(join(options.corpus, path), 'utf8');
    let template: AnyTemplate;
    try {
      template = compileAnyTemplate(text, path);
    } catch {
      continue; // not run faithfully by the engine: never shipped
    }
    const reason = selectionReason(path, template, kev);
    if (!reason || ids.has(template.id)) continue;
    ids.add(template.id);
    files.set(path, text);
    entries.push({
      path,
      id: template.id,
      protocol: protocolOf(template),
      severity: template.info.severity,
      reason,
      cve_ids: template.info.cveIds,
      sha1: createHash('sha1').update(text).digest('hex'),
      signature: checkTemplateSignature(Buffer.from(text, 'utf8')).status,
    });
  }
  const counts = { 'kev-cve': 0, exposure: 0, misconfiguration: 0, 'default-login': 0, network: 0, ssl: 0 };
  const signatures = { verified: 0, unsigned: 0, mismatched: 0 };
  for (const e of entries) {
    counts[e.reason]++;
    signatures[e.signature]++;
  }
  const key = projectDiscoveryKey();
  const licensePath = join(options.corpus, 'LICENSE.md');
  const license = existsSync(licensePath) ? await readFile(licensePath, 'utf8') : '';
  if (!license) throw new Error(`${options.corpus} has no LICENSE.md: the MIT notice must be kept`);
  return {
    files,
    license,
    manifest: {
      source: 'https://github.com/projectdiscovery/nuclei-templates',
      commit: options.commit,
      license: 'MIT',
      notice:
        'Templates from projectdiscovery/nuclei-templates, Copyright (c) ProjectDiscovery, Inc., ' +
        'MIT License (LICENSE.md in this folder). Kept verbatim under their upstream paths.',
      kev_catalog: `CISA Known Exploited Vulnerabilities catalog ${options.kev.catalogVersion} (CC0 1.0)`,
      signing_key: { name: key.name, certificate_sha256: key.certificate_sha256, fragment: key.fragment },
      counts,
      signatures,
      templates: entries,
    },
  };
}

/** Writes a built set into `dir` (emptied first). */
export async function writeDefaultSet(
  dir: string,
  built: Awaited<ReturnType<typeof buildDefaultSet>>,
): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  for (const [path, text] of built.files) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  await writeFile(join(dir, 'LICENSE.md'), built.license);
  await writeFile(join(dir, 'manifest.json'), `${JSON.stringify(built.manifest, null, 1)}\n`);
}

/** Builds from a corpus tarball (unpacked in a temporary directory). */
export async function buildFromTarball(options: { from: string; commit: string; kevFile: string }) {
  const work = await mkdtemp(join(tmpdir(), 'scanward-default-set-'));
  try {
    await run('tar', ['-xzf', options.from, '-C', work], { maxBuffer: 16 * 1024 * 1024 });
    const top = await readdir(work, { withFileTypes: true });
    const corpus =
      existsSync(join(work, 'http')) || top.length !== 1 || !top[0]!.isDirectory()
        ? work
        : join(work, top[0]!.name);
    const kev = JSON.parse(await readFile(options.kevFile, 'utf8')) as Parameters<
      typeof buildDefaultSet
    >[0]['kev'];
    return await buildDefaultSet({ corpus, commit: options.commit, kev });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
