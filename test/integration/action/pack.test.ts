import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * How docs/github-action.md tells a user to install scanward-ci outside GitHub: the release
 * tarball `npm run pack:ci` makes (server/cli/pack-ci.mjs), run with `npm exec --package=<tarball>`
 * from an empty directory. The tarball has no dependencies, so this works offline: the test
 * passes `--offline` and points the registry at a closed loopback port, with an empty npm cache.
 * It runs on the test runner's Node and the npm beside it (never a node or npm found on PATH).
 */

const ROOT = resolve(import.meta.dirname, '../../..');
const PACK = join(ROOT, 'server/cli/pack-ci.mjs');
const NPM_CLI = resolve(dirname(process.execPath), '../lib/node_modules/npm/bin/npm-cli.js');
const { version } = (await import('../../../package.json', { with: { type: 'json' } })).default as {
  version: string;
};

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  const child = spawn(process.execPath, args, {
    cwd,
    // The runner's Node first on PATH: npm runs the package's bin (`#!/usr/bin/env node`) with it.
    env: { PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`, HOME: cwd, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  return new Promise((r) => child.on('close', (code) => r({ code, stdout, stderr })));
}

describe.skipIf(!existsSync(NPM_CLI))('the scanward-ci release tarball', { timeout: 120_000 }, () => {
  let dir: string;
  let tarball: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'scanward-ci-pack-test-'));
    const packed = await run([PACK, '--out', join(dir, 'release')], ROOT, {
      HOME: dir,
      npm_config_cache: join(dir, 'npm-cache'),
    });
    expect(packed.code, packed.stderr).toBe(0);
    tarball = packed.stdout.trim();
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('is named scanward-ci-<version>.tgz', () => {
    expect(tarball).toBe(join(dir, 'release', `scanward-ci-${version}.tgz`));
    expect(existsSync(tarball)).toBe(true);
  });

  it('runs with npm exec --package=<tarball> from an empty directory, offline', async () => {
    const work = join(dir, 'job');
    await mkdir(work);
    const offline = {
      npm_config_cache: join(dir, 'npm-cache'),
      npm_config_registry: 'http://127.0.0.1:9/',
      npm_config_update_notifier: 'false',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
    };
    const npmExec = (args: string[]) =>
      run(
        [NPM_CLI, 'exec', '--offline', '--yes', `--package=${tarball}`, '--', 'scanward-ci', ...args],
        work,
        offline,
      );
    const help = await npmExec(['--help']);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toContain('Usage: scanward-ci [options]');
    const shown = await npmExec(['--version']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout.trim()).toMatch(/^scanward-ci \S+$/);
  });
});
