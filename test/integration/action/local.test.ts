import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse as parseTestResults } from 'test-results-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitHubFake, type GitHubFake } from '../../fixtures/github-fake/server.ts';
import { randomLoopbackAddress } from '../../fixtures/listeners.ts';
import { startWebServer, type WebServer } from '../../fixtures/web-server.ts';
import { okBody } from '../../helpers/api-client.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { testEngine } from '../../helpers/database.ts';
import { factory, type BuiltTenant } from '../../helpers/factory.ts';
import { hasNode24, NODE24 } from '../../helpers/node24.ts';
import { multitool, validateSarif } from '../../helpers/sarif-multitool.ts';
import { getScanRoute, listScansRoute } from '../../../server/routes/scans.ts';

/**
 * The local engine (`scanward-ci scan --local`, the Action's `mode: local`) as a CI job runs
 * it: the committed bundles (dist/ci/index.js and dist/index.js, which load dist/local/engine.mjs)
 * under a real Node 24, against a web app on a loopback address only this test reaches. Without
 * a service the gate counts every finding; with one, the run is recorded as a scan of the named
 * asset and `gate: new` compares it with what the service knows of that asset.
 */

const CLI = resolve(import.meta.dirname, '../../../dist/ci/index.js');
const ACTION = resolve(import.meta.dirname, '../../../dist/index.js');
const GITHUB_TOKEN = 'ghs_local_token';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

interface JsonReport {
  scan: { id: string; target: string };
  findings: Array<{ id: string; severity: string; template_id?: string; change?: string }>;
}

/** A small web app; `weak` makes it announce a web server release with known exploited CVEs. */
function webApp(options: { weak: () => boolean; extraLinks?: string }) {
  const page = (res: ServerResponse) => {
    const headers: Record<string, string> = { 'Content-Type': 'text/html; charset=utf-8' };
    if (options.weak()) headers.Server = 'Apache/2.4.49';
    res
      .writeHead(200, headers)
      .end(`<html><body><a href="/about">About</a>${options.extraLinks ?? ''}</body></html>`);
  };
  return {
    routes: { '/': (_req: unknown, res: ServerResponse) => page(res) },
    fallback: (_req: unknown, res: ServerResponse) => page(res),
  };
}

function spawnRun(file: string, args: string[], cwd: string, env: Record<string, string>): Promise<Run> {
  const child = spawn(NODE24!, [file, ...args], { cwd, env: { PATH: process.env.PATH ?? '', ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  return new Promise((r) => child.on('close', (code) => r({ code, stdout, stderr })));
}

describe.skipIf(!hasNode24)(
  'the local engine from dist/ under Node 24, without a service',
  { timeout: 120_000 },
  () => {
    let dir: string;
    let plain: WebServer;
    let weak: WebServer;

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'scanward-local-'));
      plain = await startWebServer(webApp({ weak: () => false }));
      weak = await startWebServer(webApp({ weak: () => true }));
    });
    afterAll(async () => {
      await plain?.close();
      await weak?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    const cli = (args: string[]) => spawnRun(CLI, args, dir, {});

    it('exits 0 when nothing reaches fail-on, with SARIF valid under GitHub’s rules and JUnit a stock reader reads', async () => {
      const run = await cli([
        'scan',
        '--local',
        '--target',
        plain.url,
        '--fail-on',
        'high',
        '--sarif',
        'plain/scanward.sarif',
        '--junit',
        'plain/scanward.xml',
        '--json',
        'plain/scanward.json',
      ]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toMatch(/First probe \d+ ms after the step started/);
      expect(plain.requests.length).toBeGreaterThan(0);
      const report = JSON.parse(await readFile(join(dir, 'plain/scanward.json'), 'utf8')) as JsonReport;
      expect(report.findings.length).toBeGreaterThan(0);
      expect(report.findings.every((f) => f.change === 'new')).toBe(true);
      const junit = parseTestResults({ type: 'junit', files: [join(dir, 'plain/scanward.xml')] });
      expect(junit.total).toBe(report.findings.length);
      expect(junit.failed).toBe(0);
      const sarif = await readFile(join(dir, 'plain/scanward.sarif'), 'utf8');
      const parsed = JSON.parse(sarif) as { runs: Array<{ results: unknown[] }> };
      expect(parsed.runs[0]!.results.length).toBe(report.findings.length);
      if (multitool) expect((await validateSarif(dir, 'plain', sarif)).problems).toEqual([]);
    });

    it('scans locally with SCANWARD_API_KEY set but no api-url, saying the result is not recorded', async () => {
      const run = await spawnRun(CLI, ['scan', '--local', '--target', plain.url, '--fail-on', 'none'], dir, {
        SCANWARD_API_KEY: 'sw_a_key_the_ci_sets_for_every_job',
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain('credentials are set but `api-url` is not');
      expect(run.stderr).not.toContain('api-url` is required');
    });

    it('exits 1 when the gate fails: JUnit failures are exactly the findings at or above fail-on, SARIF valid', async () => {
      const run = await cli([
        'scan',
        '--local',
        '--target',
        weak.url,
        '--fail-on',
        'high',
        '--sarif',
        'weak/scanward.sarif',
        '--junit',
        'weak/scanward.xml',
        '--json',
        'weak/scanward.json',
      ]);
      expect(run.code, run.stderr).toBe(1);
      const report = JSON.parse(await readFile(join(dir, 'weak/scanward.json'), 'utf8')) as JsonReport;
      const atOrAboveHigh = report.findings.filter((f) => f.severity === 'critical' || f.severity === 'high');
      expect(atOrAboveHigh.length).toBeGreaterThan(0);
      const junit = parseTestResults({ type: 'junit', files: [join(dir, 'weak/scanward.xml')] });
      expect(junit.total).toBe(report.findings.length);
      expect(junit.failed).toBe(atOrAboveHigh.length);
      if (multitool) {
        const sarif = await readFile(join(dir, 'weak/scanward.sarif'), 'utf8');
        expect((await validateSarif(dir, 'weak', sarif)).problems).toEqual([]);
      }
    });

    it('reaches only what --target names: a redirect or a link to another host, or another port, is never followed', async () => {
      const elsewhere = await startWebServer({
        fallback: (_req, res) => res.writeHead(200).end('elsewhere'),
      });
      // Same address as the app, another port: outside what the target names too.
      const sidePort = await startWebServer({
        address: '127.0.0.1',
        fallback: (_req, res) => res.end('side'),
      });
      const app = await startWebServer({
        address: '127.0.0.1',
        routes: {
          '/': (_req, res) => res.writeHead(302, { Location: `${elsewhere.url}/login` }).end(),
          '/robots.txt': (_req, res) =>
            res
              .writeHead(200, { 'Content-Type': 'text/plain' })
              .end(`Sitemap: ${elsewhere.url}/sitemap.xml\n`),
        },
        fallback: (_req, res) =>
          res
            .writeHead(200, { 'Content-Type': 'text/html' })
            .end(
              `<html><a href="${elsewhere.url}/a">a</a><a href="http://127.0.0.1:${sidePort.port}/b">b</a><form action="${elsewhere.url}/f"></form></html>`,
            ),
      });
      try {
        const run = await cli(['scan', '--local', '--target', app.url, '--fail-on', 'none']);
        expect(run.code, run.stderr).toBe(0);
        expect(app.requests.length).toBeGreaterThan(0);
        expect(elsewhere.connections).toBe(0);
        expect(sidePort.connections).toBe(0);
        // A target the job cannot reach is refused as a usage error, naming it.
        const closed = await cli(['scan', '--local', '--target', `http://${randomLoopbackAddress()}:9`]);
        expect(closed.code, closed.stderr).toBe(2);
        expect(closed.stderr).toContain('nothing answered');
        const notUrl = await cli(['scan', '--local', '--target', 'localhost']);
        expect(notUrl.code).toBe(2);
        expect(notUrl.stderr).toContain('name the service as a URL');
      } finally {
        await Promise.all([elsewhere.close(), sidePort.close(), app.close()]);
      }
    });
  },
);

describe.skipIf(!hasNode24)(
  `the local engine recorded on the service (${testEngine})`,
  { timeout: 180_000 },
  () => {
    let app: TestApp;
    let t: BuiltTenant;
    let key: string;
    let dir: string;
    let weakNow = false;
    let web: WebServer;
    let github: GitHubFake;

    beforeAll(async () => {
      app = await startTestApp();
      t = await factory.tenant(app, { plan: 'enterprise' });
      key = await t.apiKey(['read:scans', 'write:scans', 'read:findings']);
      dir = await mkdtemp(join(tmpdir(), 'scanward-local-service-'));
      web = await startWebServer(webApp({ weak: () => weakNow }));
      github = await startGitHubFake({ token: GITHUB_TOKEN, processing: ['complete'] });
    });
    afterAll(async () => {
      await web?.close();
      await github?.close();
      await app?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    const asset = 'octo/shop:pr-app';
    const cli = (args: string[]) =>
      spawnRun(CLI, ['scan', '--local', '--target', web.url, '--asset', asset, ...args], dir, {
        SCANWARD_API_URL: app.url,
        SCANWARD_API_KEY: key,
      });

    it('records the run as a scan of the asset; gate new passes when nothing changed and fails when the app gains a weakness', async () => {
      weakNow = false; // whatever a test before this one left
      const first = await cli(['--gate', 'new', '--fail-on', 'high', '--json', 'first.json']);
      expect(first.code, first.stderr).toBe(0);
      const firstReport = JSON.parse(await readFile(join(dir, 'first.json'), 'utf8')) as JsonReport;
      expect(firstReport.scan.id).toMatch(/^scan_/);
      const detail = okBody(await t.api.call(getScanRoute, { params: { scan_id: firstReport.scan.id } }));
      expect(detail).toMatchObject({ target: asset, source: 'import', status: 'completed' });
      expect(firstReport.findings.length).toBeGreaterThan(0);
      expect(firstReport.findings.every((f) => f.change === 'new')).toBe(true);

      const again = await cli(['--gate', 'new', '--fail-on', 'low', '--json', 'again.json']);
      expect(again.code, again.stderr).toBe(0);
      const againReport = JSON.parse(await readFile(join(dir, 'again.json'), 'utf8')) as JsonReport;
      expect(againReport.scan.id).not.toBe(firstReport.scan.id);
      expect(againReport.findings.map((f) => f.change)).toEqual(againReport.findings.map(() => 'unchanged'));
      const scans = okBody(await t.api.call(listScansRoute, { query: { target: asset } })).items;
      expect(scans).toHaveLength(2);

      weakNow = true;
      const worse = await cli(['--gate', 'new', '--fail-on', 'high', '--json', 'worse.json']);
      expect(worse.code, worse.stderr).toBe(1);
      const worseReport = JSON.parse(await readFile(join(dir, 'worse.json'), 'utf8')) as JsonReport;
      const added = worseReport.findings.filter((f) => f.change === 'new');
      expect(added.some((f) => f.severity === 'critical')).toBe(true);
      // What was there before stays known: only the weakness the app gained is new.
      const before = new Set(firstReport.findings.map((f) => f.template_id));
      expect(added.every((f) => !before.has(f.template_id))).toBe(true);
    });

    it('the Action (dist/index.js) with mode: local runs the engine in the job, uploads SARIF and fails the step on the gate', async () => {
      weakNow = true;
      const outputFile = join(dir, 'output.txt');
      const summaryFile = join(dir, 'summary.md');
      await writeFile(outputFile, '');
      await writeFile(summaryFile, '');
      const run = await spawnRun(ACTION, [], dir, {
        GITHUB_ACTIONS: 'true',
        GITHUB_WORKSPACE: dir,
        GITHUB_OUTPUT: outputFile,
        GITHUB_STEP_SUMMARY: summaryFile,
        GITHUB_EVENT_NAME: 'push',
        GITHUB_REPOSITORY: 'octo/shop',
        GITHUB_SHA: 'c0ffee0123456789abcdef0123456789abcdef01',
        GITHUB_REF: 'refs/heads/main',
        GITHUB_RUN_ID: '7',
        GITHUB_RUN_ATTEMPT: '1',
        GITHUB_JOB: 'scan',
        GITHUB_API_URL: github.url,
        GITHUB_SERVER_URL: 'https://github.example',
        RUNNER_TEMP: dir,
        INPUT_MODE: 'local',
        'INPUT_API-URL': app.url,
        'INPUT_API-KEY': key,
        INPUT_TARGET: web.url,
        'INPUT_FAIL-ON': 'high',
        INPUT_GATE: 'all',
        'INPUT_REPORT-SEVERITY': 'info',
        'INPUT_UPLOAD-SARIF': 'true',
        'INPUT_GITHUB-TOKEN': GITHUB_TOKEN,
        'INPUT_SARIF-FILE': 'action.sarif',
        INPUT_WAIT: 'true',
        INPUT_COMMENT: 'false',
        'INPUT_TIMEOUT-MINUTES': '5',
        'INPUT_POLL-INTERVAL-SECONDS': '1',
      });
      expect(run.code, run.stdout).toBe(1);
      expect(run.stdout).toContain('::error');
      expect(github.uploads).toHaveLength(1);
      const uploaded = JSON.parse(github.uploads[0]!.sarif) as { runs: Array<{ results: unknown[] }> };
      expect(uploaded.runs[0]!.results.length).toBeGreaterThan(0);
      const outputs = await readFile(outputFile, 'utf8');
      expect(outputs).toMatch(/result<<[^\n]+\nfailed\n/);
      expect(await readFile(summaryFile, 'utf8')).toContain('critical');
      // Recorded on the service as a scan of the default asset, <repository>:<target>.
      const scanId = /scan-id<<[^\n]+\n(scan_\w+)\n/.exec(outputs)?.[1];
      expect(scanId).toMatch(/^scan_\w+$/);
      const recorded = okBody(await t.api.call(getScanRoute, { params: { scan_id: scanId! } }));
      expect(recorded).toMatchObject({
        target: `octo/shop:${web.url}`,
        source: 'import',
        tool: 'scanward',
        report_name: 'scanward-local.json',
        phases_completed: [],
      });
      // It says what it was: a local engine run, and which CI run.
      expect(recorded.ci_run).toMatch(/^octo\/shop run \d+/);
      expect(recorded.label).toMatch(/^Recorded from a local engine run \(octo\/shop run \d+/);
    });
  },
);
