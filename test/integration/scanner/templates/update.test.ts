import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../../server/cli/program.ts';
import { installedTemplates, type SignatureReport } from '../../../../server/scanner/templates/install.ts';

const CORPUS = fileURLToPath(
  new URL('../../../../../shared/data/nuclei-templates-9424c7c.tar.gz', import.meta.url),
);
const haveCorpus = existsSync(CORPUS);
if (!haveCorpus) console.warn(`skipping the templates update test: ${CORPUS} is absent`);

/** The corpus's one template without a signature. */
const UNSIGNED = 'http/exposures/configs/exposed-gitmodules.yaml';
/** Signed corpus templates for a tree of our own. */
const SIGNED = [
  'http/miscellaneous/dir-listing.yaml',
  'http/exposures/configs/git-config.yaml',
  'network/exposures/exposed-redis.yaml',
];

/** A tree of signed corpus templates under `<dir>/tree`, and `change` applied to it, as a tarball. */
function smallCorpus(dir: string, change: (tree: string) => void = () => undefined): string {
  const tree = join(dir, 'tree');
  const unpacked = join(dir, 'unpacked');
  mkdirSync(unpacked, { recursive: true });
  execFileSync('tar', ['-xzf', CORPUS, '-C', unpacked, ...SIGNED]);
  for (const path of SIGNED) {
    mkdirSync(join(tree, path, '..'), { recursive: true });
    renameSync(join(unpacked, path), join(tree, path));
  }
  change(tree);
  const tarball = join(dir, `corpus-${readdirSync(dir).length}.tar.gz`);
  execFileSync('tar', ['-czf', tarball, '-C', tree, '.']);
  rmSync(tree, { recursive: true, force: true });
  rmSync(unpacked, { recursive: true, force: true });
  return tarball;
}

async function cli(argv: string[], dataDir: string) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    env: { SCANWARD_DATA_DIR: dataDir },
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    readStdin: async () => '',
  });
  return { code, stdout, stderr };
}

describe.skipIf(!haveCorpus)('scanward templates update --from FILE', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'scanward-data-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('installs the corpus with its licence where scans look for it, verified, and replaces it on the next update', async () => {
    expect(installedTemplates(dataDir)).toBeUndefined();
    const first = await cli(['templates', 'update', '--from', CORPUS], dataDir);
    expect(first.code).toBe(0);
    const directory = installedTemplates(dataDir)!;
    expect(first.stdout).toContain(`into ${directory}`);
    expect(existsSync(join(directory, 'http', 'exposures', 'configs', 'git-config.yaml'))).toBe(true);
    expect(existsSync(join(directory, 'network'))).toBe(true);
    expect(existsSync(join(directory, 'LICENSE.md'))).toBe(true);
    // Every template but one carries ProjectDiscovery's valid signature; the unsigned one is left out.
    expect(first.stdout).toMatch(
      /signatures: 10,075 of 10,076 templates verified against projectdiscovery\/nuclei-templates \(certificate SHA-256 6F:6C:2D:2D:/,
    );
    expect(first.stderr).toBe(
      'warning: 1 unsigned template left out:\n' +
        '  http/exposures/configs/exposed-gitmodules.yaml\n' +
        'install them anyway with --allow-unsigned\n',
    );
    expect(existsSync(join(directory, UNSIGNED))).toBe(false);
    const report = JSON.parse(readFileSync(join(directory, 'signatures.json'), 'utf8')) as SignatureReport;
    expect(report).toMatchObject({
      allow_unsigned: false,
      templates: 10_076,
      verified: 10_075,
      unsigned: [UNSIGNED],
      mismatched: [],
      installed_unverified: false,
      key: { name: 'projectdiscovery/nuclei-templates', fragment: '922c64590222798bb761d5b6d8e72950' },
    });
    expect(report.verified_crlf).toEqual([
      'http/vulnerabilities/yonyou/yonyou-nc-lfi.yaml',
      'network/detection/unauth-java-message-broker-detect.yaml',
    ]);

    const second = await cli(['templates', 'update', '--from', CORPUS, '--allow-unsigned'], dataDir);
    expect(second.code).toBe(0);
    expect(second.stderr).toBe(
      'warning: 1 unsigned template installed anyway (--allow-unsigned):\n' +
        '  http/exposures/configs/exposed-gitmodules.yaml\n',
    );
    expect(readdirSync(join(dataDir, 'templates'))).toEqual(['nuclei-templates']);
    expect(existsSync(join(directory, UNSIGNED))).toBe(true);
    expect(JSON.parse(readFileSync(join(directory, 'signatures.json'), 'utf8'))).toMatchObject({
      allow_unsigned: true,
      installed_unverified: true,
      unsigned: [UNSIGNED],
    });
  }, 240_000);

  it('leaves out tampered and unsigned templates, keeps workflows and profiles, and installs all with --allow-unsigned', async () => {
    const own = mkdtempSync(join(tmpdir(), 'scanward-data-'));
    try {
      const tarball = smallCorpus(own, (tree) => {
        // One byte of a signed template changed: its matcher now looks for "[corf]".
        const tampered = join(tree, SIGNED[1]!);
        const text = readFileSync(tampered, 'utf8');
        expect(text).toContain('[core]');
        writeFileSync(tampered, text.replace('[core]', '[corf]'));
        mkdirSync(join(tree, 'http', 'own'));
        writeFileSync(
          join(tree, 'http', 'own', 'mine.yaml'),
          'id: mine\ninfo: {name: Mine, severity: info}\n',
        );
        mkdirSync(join(tree, 'workflows'));
        writeFileSync(
          join(tree, 'workflows', 'w.yaml'),
          'id: w\ninfo: {name: W}\nworkflows:\n  - template: x.yaml\n',
        );
        mkdirSync(join(tree, 'profiles'));
        writeFileSync(join(tree, 'profiles', 'p.yml'), 'tags: [cve]\n');
      });

      const strict = await cli(['templates', 'update', '--from', tarball], own);
      expect(strict.code).toBe(0);
      expect(strict.stdout).toContain('signatures: 2 of 4 templates verified');
      expect(strict.stderr).toBe(
        'warning: 1 unsigned template left out:\n  http/own/mine.yaml\n' +
          'warning: 1 template whose signature does not match left out:\n' +
          `  ${SIGNED[1]} (the signature does not match the content)\n` +
          'install them anyway with --allow-unsigned\n',
      );
      const installed = installedTemplates(own)!;
      expect(existsSync(join(installed, SIGNED[0]!))).toBe(true);
      expect(existsSync(join(installed, SIGNED[2]!))).toBe(true);
      expect(existsSync(join(installed, SIGNED[1]!))).toBe(false);
      expect(existsSync(join(installed, 'http', 'own', 'mine.yaml'))).toBe(false);
      expect(existsSync(join(installed, 'workflows', 'w.yaml'))).toBe(true);
      expect(existsSync(join(installed, 'profiles', 'p.yml'))).toBe(true);

      const json = await cli(['templates', 'update', '--from', tarball, '--json'], own);
      expect(json.code).toBe(0);
      expect(JSON.parse(json.stdout)).toMatchObject({
        directory: installed,
        signatures: {
          templates: 4,
          verified: 2,
          unsigned: ['http/own/mine.yaml'],
          mismatched: [{ path: SIGNED[1], reason: 'the signature does not match the content' }],
          installed_unverified: false,
        },
      });

      const lenient = await cli(['templates', 'update', '--from', tarball, '--allow-unsigned'], own);
      expect(lenient.code).toBe(0);
      expect(lenient.stderr).toContain('warning: 1 unsigned template installed anyway (--allow-unsigned)');
      expect(lenient.stderr).toContain('whose signature does not match installed anyway (--allow-unsigned)');
      expect(lenient.stderr).not.toContain('install them anyway');
      expect(existsSync(join(installed, SIGNED[1]!))).toBe(true);
      expect(existsSync(join(installed, 'http', 'own', 'mine.yaml'))).toBe(true);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  }, 120_000);

  it('refuses a tree with no valid signature at all and keeps the installed corpus', async () => {
    const own = mkdtempSync(join(tmpdir(), 'scanward-data-'));
    try {
      expect((await cli(['templates', 'update', '--from', smallCorpus(own)], own)).code).toBe(0);
      const junk = join(own, 'unsigned');
      mkdirSync(join(junk, 'http'), { recursive: true });
      writeFileSync(join(junk, 'http', 'a.yaml'), 'id: a\ninfo: {name: A, severity: info}\n');
      const tarball = join(own, 'unsigned.tar.gz');
      execFileSync('tar', ['-czf', tarball, '-C', junk, 'http']);
      const refused = await cli(['templates', 'update', '--from', tarball], own);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(
        /none of the 1 templates in .*unsigned\.tar\.gz carries a valid ProjectDiscovery signature; nothing installed \(--allow-unsigned installs them anyway\)/,
      );
      expect(existsSync(join(installedTemplates(own)!, SIGNED[1]!))).toBe(true);
      expect(existsSync(join(installedTemplates(own)!, 'http', 'a.yaml'))).toBe(false);
      expect(readdirSync(join(own, 'templates'))).toEqual(['nuclei-templates']);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  it('refuses an archive without templates and keeps the installed corpus', async () => {
    const own = mkdtempSync(join(tmpdir(), 'scanward-data-'));
    try {
      expect((await cli(['templates', 'update', '--from', smallCorpus(own)], own)).code).toBe(0);
      const junk = join(own, 'junk');
      mkdirSync(join(junk, 'docs'), { recursive: true });
      writeFileSync(join(junk, 'docs', 'README.md'), 'not templates');
      const tarball = join(own, 'junk.tar.gz');
      execFileSync('tar', ['-czf', tarball, '-C', junk, 'docs']);
      const result = await cli(['templates', 'update', '--from', tarball], own);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/holds no http\/ folder/);
      expect(installedTemplates(own)).toBeDefined();
      expect(readdirSync(join(own, 'templates'))).toEqual(['nuclei-templates']);
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });
});
