import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../../server/cli/program.ts';
import { installedTemplates } from '../../../../server/scanner/templates/install.ts';

const CORPUS = fileURLToPath(
  new URL('../../../../../shared/data/nuclei-templates-9424c7c.tar.gz', import.meta.url),
);
const haveCorpus = existsSync(CORPUS);
if (!haveCorpus) console.warn(`skipping the templates update test: ${CORPUS} is absent`);

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

  it('installs the corpus with its licence where scans look for it, and replaces it on the next update', async () => {
    expect(installedTemplates(dataDir)).toBeUndefined();
    const first = await cli(['templates', 'update', '--from', CORPUS], dataDir);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const directory = installedTemplates(dataDir)!;
    expect(first.stdout).toContain(`into ${directory}`);
    expect(existsSync(join(directory, 'http', 'exposures', 'configs', 'git-config.yaml'))).toBe(true);
    expect(existsSync(join(directory, 'network'))).toBe(true);
    expect(existsSync(join(directory, 'LICENSE.md'))).toBe(true);

    const second = await cli(['templates', 'update', '--from', CORPUS], dataDir);
    expect(second.code).toBe(0);
    expect(readdirSync(join(dataDir, 'templates'))).toEqual(['nuclei-templates']);
  }, 120_000);

  it('refuses an archive without templates and keeps the installed corpus', async () => {
    const junk = join(dataDir, 'junk');
    mkdirSync(join(junk, 'docs'), { recursive: true });
    writeFileSync(join(junk, 'docs', 'README.md'), 'not templates');
    const tarball = join(dataDir, 'junk.tar.gz');
    execFileSync('tar', ['-czf', tarball, '-C', junk, 'docs']);
    const result = await cli(['templates', 'update', '--from', tarball], dataDir);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/holds no http\/ folder/);
    expect(installedTemplates(dataDir)).toBeDefined();
    expect(readdirSync(join(dataDir, 'templates'))).toEqual(['nuclei-templates']);
  });
});
