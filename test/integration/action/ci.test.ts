import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse as parseTestResults } from 'test-results-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closeAll,
  fakeRedis,
  randomLoopbackAddress,
  startListener,
  type FixtureListener,
} from '../../fixtures/listeners.ts';
import { findScan } from '../../../server/scans/scans.repository.ts';
import { openWebOptions } from '../../../server/scans/web-options.ts';
import { testEngine } from '../../helpers/database.ts';
import { hasNode24, NODE24 } from '../../helpers/node24.ts';
import { startScanApp, type ScanApp } from '../../helpers/scanner.ts';

/**
 * `scanward-ci` (the bundled dist/ci/index.js, the package's `bin`) under a
 * real Node 24 against the real service: the exit codes a pipeline acts on,
 * and the JUnit report, read back by an independent JUnit reader from npm
 * (test-results-parser), with failures exactly the findings at or above
 * --fail-on.
 */

const CLI = resolve(import.meta.dirname, '../../../dist/ci/index.js');

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

describe.skipIf(!hasNode24)(
  `scanward-ci under Node 24 against the real service (${testEngine})`,
  { timeout: 90_000 },
  () => {
    let scanner: ScanApp;
    let apiKey: string;
    let host: string;
    let redis: FixtureListener;
    let dir: string;

    beforeAll(async () => {
      scanner = await startScanApp();
      apiKey = await scanner.tenant.apiKey(['read:scans', 'write:scans', 'read:findings']);
      host = randomLoopbackAddress();
      redis = await startListener({ host, serve: fakeRedis });
      dir = await mkdtemp(join(tmpdir(), 'scanward-ci-'));
    });
    afterAll(async () => {
      await scanner?.close();
      if (redis) await closeAll([redis]);
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    /** Runs the command as a CI job would: the service and key from the environment, the rest as flags. */
    async function cli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
      const child = spawn(NODE24!, [CLI, ...args], {
        cwd: dir,
        env: {
          PATH: process.env.PATH ?? '',
          SCANWARD_API_URL: scanner.app.url,
          SCANWARD_API_KEY: apiKey,
          SCANWARD_POLL_INTERVAL_SECONDS: '0.1',
          ...env,
        },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
      const code = await new Promise<number | null>((r) => child.on('close', r));
      return { code, stdout, stderr };
    }

    it('exits 1 when the gate fails, with a JUnit report whose failures are exactly the findings at or above --fail-on', async () => {
      const run = await cli([
        '--target',
        host,
        '--scan-type',
        'quick',
        '--ports',
        String(redis.port),
        '--fail-on',
        'high',
        '--junit',
        'reports/scanward.xml',
        '--json',
        'reports/scanward.json',
        '--sarif',
        'reports/scanward.sarif',
      ]);
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).toMatch(/Scan scan_\w+: pending|Scan scan_\w+: running/);
      // Followed through the event stream, not by polling.
      expect(run.stderr).not.toContain('The event stream is not available');
      expect(run.stdout).toContain('at or above the fail-on threshold (high)');

      const report = JSON.parse(await readFile(join(dir, 'reports/scanward.json'), 'utf8')) as {
        scan: { id: string };
        findings: Array<{ id: string; severity: string; title: string; affected_component: string }>;
      };
      const atOrAboveHigh = report.findings.filter((f) => f.severity === 'critical' || f.severity === 'high');
      expect(atOrAboveHigh.map((f) => f.affected_component)).toEqual([`redis://${host}:${redis.port}`]);

      const junit = parseTestResults({ type: 'junit', files: [join(dir, 'reports/scanward.xml')] });
      expect(junit.total).toBe(report.findings.length);
      expect(junit.failed).toBe(atOrAboveHigh.length);
      expect(junit.passed).toBe(report.findings.length - atOrAboveHigh.length);
      const cases = junit.suites.flatMap((s) => s.cases);
      expect(cases.filter((c) => c.status === 'FAIL').map((c) => c.name)).toEqual(
        atOrAboveHigh.map((f) => `[${f.severity}] ${f.title} on ${f.affected_component}`),
      );

      const sarif = JSON.parse(await readFile(join(dir, 'reports/scanward.sarif'), 'utf8')) as {
        version: string;
        runs: [{ results: unknown[] }];
      };
      expect(sarif.version).toBe('2.1.0');
      expect(sarif.runs[0].results).toHaveLength(report.findings.length);
    });

    it('exits 0 when nothing new reaches --fail-on, with a JUnit report without failures', async () => {
      // The planted critical fails a run that gates on every finding, whichever test scanned first …
      const every = await cli(['--target', host, '--ports', String(redis.port), '--fail-on', 'critical'], {
        SCANWARD_SCAN_TYPE: 'quick',
      });
      expect(every.code, every.stderr).toBe(1);
      // … and is no longer new to the next run, which gates on new findings only.
      const run = await cli(
        [
          '--target',
          host,
          '--ports',
          String(redis.port),
          '--fail-on',
          'critical',
          '--gate',
          'new',
          '--junit',
          'pass.xml',
        ],
        { SCANWARD_SCAN_TYPE: 'quick' },
      );
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('No new findings at or above the fail-on threshold (critical).');
      const junit = parseTestResults({ type: 'junit', files: [join(dir, 'pass.xml')] });
      expect(junit.failed).toBe(0);
      expect(junit.total).toBeGreaterThanOrEqual(1);
    });

    it('exits 3 and cancels the scan when it does not finish within --timeout-minutes', async () => {
      // Every port, so the scan is still sweeping when the 30 ms timeout has passed: a scan of
      // one port can complete before the client's first poll.
      const run = await cli(['--target', host, '--ports', '1-65535', '--timeout-minutes', '0.0005']);
      expect(run.code, run.stderr).toBe(3);
      expect(run.stderr).toContain('did not finish within --timeout-minutes');
      const id = /scan (scan_\w+)/.exec(run.stderr)![1]!;
      expect((await findScan(scanner.app.services.db, scanner.tenant.orgId, id))?.status).toBe('cancelled');
    });

    it('exits 2 on bad usage, naming every problem, before calling the service', async () => {
      const bad = await cli(['--target', host, '--fail-on', 'severe', '--gate', 'changed']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('`fail-on` is "severe"');
      expect(bad.stderr).toContain('`gate` is "changed"');
      const unknown = await cli(['--targett', host]);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('--targett');
      const missingKey = await cli(['--target', host], { SCANWARD_API_KEY: '' });
      expect(missingKey.code).toBe(2);
      expect(missingKey.stderr).toContain('Set `api-key`');
    });

    it('exits 2 when the service refuses the target as out of scope', async () => {
      const run = await cli(['--target', '192.0.2.10', '--ports', '80']);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain('TARGET_NOT_ALLOWED');
    });

    it('with --no-wait prints the new scan id and exits 0 at once', async () => {
      const run = await cli(['--target', host, '--ports', String(redis.port), '--no-wait']);
      expect(run.code, run.stderr).toBe(0);
      const id = run.stdout.trim();
      expect(id).toMatch(/^scan_\w+$/);
      expect(await findScan(scanner.app.services.db, scanner.tenant.orgId, id)).toBeDefined();
    });

    it('creates the scan with the --credential-checks asked for', async () => {
      const run = await cli(
        ['--target', host, '--ports', String(redis.port), '--scan-type', 'full', '--no-wait'],
        {
          SCANWARD_CREDENTIAL_CHECKS: 'none',
        },
      );
      expect(run.code, run.stderr).toBe(0);
      const scan = await findScan(scanner.app.services.db, scanner.tenant.orgId, run.stdout.trim());
      expect(scan?.credential_checks).toBe('none');
    });

    it("sends --active, --login-url, --username, --password-env and --exclude as the scan's web options, the password never printed", async () => {
      const password = 'ci-web-password-6d2f';
      const run = await cli(
        [
          'scan',
          '--target',
          host,
          '--ports',
          String(redis.port),
          '--no-wait',
          '--active',
          '--login-url',
          `http://${host}:${redis.port}/login`,
          '--username',
          'admin',
          '--password-env',
          'APP_PASSWORD',
          '--exclude',
          '/logout',
        ],
        { APP_PASSWORD: password, SCANWARD_DEBUG: '1' },
      );
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout + run.stderr).not.toContain(password);
      const scan = await findScan(scanner.app.services.db, scanner.tenant.orgId, run.stdout.trim());
      expect(JSON.stringify(scan?.web)).not.toContain(password);
      expect(openWebOptions(scanner.app.services.keys.encryptionKey, scan!.web!)).toEqual({
        active: true,
        authentication: {
          type: 'form',
          login_url: `http://${host}:${redis.port}/login`,
          username: 'admin',
          password,
        },
        exclude_paths: ['/logout'],
      });
    });

    it('refuses a --login-url on another host with exit 2 before creating a scan', async () => {
      const run = await cli(
        ['--target', host, '--login-url', 'http://localhost/login', '--username', 'a', '--password-env', 'P'],
        { P: 'x' },
      );
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('`login-url` must be on the scan');
    });
  },
);
