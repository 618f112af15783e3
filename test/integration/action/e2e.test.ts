import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGitHubFake, type GitHubFake } from '../../fixtures/github-fake/server.ts';
import {
  closeAll,
  fakeRedis,
  randomLoopbackAddress,
  startListener,
  type FixtureListener,
} from '../../fixtures/listeners.ts';
import { findScan } from '../../../server/scans/scans.repository.ts';
import { testEngine } from '../../helpers/database.ts';
import { hasNode24, NODE24 } from '../../helpers/node24.ts';
import { multitool, validateSarif } from '../../helpers/sarif-multitool.ts';
import { startScanApp, type ScanApp } from '../../helpers/scanner.ts';

/**
 * The bundled Action (dist/index.js) run as a GitHub runner runs it, under a
 * real Node 24, against the real Scanward service scanning a loopback host
 * with a planted critical (an unauthenticated Redis), and a local fake of
 * GitHub's code scanning and issue comment endpoints: inputs as INPUT_*,
 * outputs through GITHUB_OUTPUT, the job summary through GITHUB_STEP_SUMMARY,
 * a real pull_request payload at GITHUB_EVENT_PATH, annotations on stdout.
 */

const DIST = resolve(import.meta.dirname, '../../../dist/index.js');
const GITHUB_TOKEN = 'ghs_e2e_token';
const SHA = 'c0ffee0123456789abcdef0123456789abcdef01';
const PR = 7;

interface StepRun {
  code: number | null;
  stdout: string;
  outputs: Record<string, string>;
  summary: string;
}

/** Reads GITHUB_OUTPUT's `name<<delimiter` blocks. */
function readOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const head = /^([^<]+)<<(.+)$/.exec(lines[i]!);
    if (!head) continue;
    const value: string[] = [];
    for (i++; i < lines.length && lines[i] !== head[2]; i++) value.push(lines[i]!);
    outputs[head[1]!] = value.join('\n');
  }
  return outputs;
}

describe.skipIf(!hasNode24)(`the Action under Node 24 against the real service (${testEngine})`, () => {
  let scanner: ScanApp;
  let github: GitHubFake;
  let workspace: string;
  let apiKey: string;
  let host: string;
  let redis: FixtureListener;
  let laterRedis: FixtureListener;
  let eventPath: string;

  beforeAll(async () => {
    scanner = await startScanApp();
    apiKey = await scanner.tenant.apiKey(['read:scans', 'write:scans', 'read:findings']);
    host = randomLoopbackAddress();
    redis = await startListener({ host, serve: fakeRedis });
    laterRedis = await startListener({ host, serve: fakeRedis });
    github = await startGitHubFake({
      token: GITHUB_TOKEN,
      processing: ['complete'],
      comments: [{ issue: PR, body: 'Looks good to me!' }],
    });
    workspace = await mkdtemp(join(tmpdir(), 'scanward-e2e-'));
    eventPath = join(workspace, 'event.json');
    // A pull_request "synchronize" payload, trimmed to the fields GitHub always sends.
    await writeFile(
      eventPath,
      JSON.stringify({
        action: 'synchronize',
        number: PR,
        pull_request: {
          number: PR,
          state: 'open',
          html_url: `https://github.example/octo/shop/pull/${PR}`,
          head: { ref: 'feature', sha: SHA },
          base: { ref: 'main', sha: 'b'.repeat(40) },
        },
        repository: { full_name: 'octo/shop', name: 'shop', owner: { login: 'octo' } },
        sender: { login: 'octocat' },
      }),
    );
  });
  afterAll(async () => {
    await scanner?.close();
    await closeAll([redis, laterRedis].filter(Boolean));
    await github?.close();
    if (workspace) await rm(workspace, { recursive: true, force: true });
  });

  /** One run of the step, as the runner starts it; `attempt` is GITHUB_RUN_ATTEMPT (a re-run). */
  async function runStep(attempt: number, inputs: Record<string, string>): Promise<StepRun> {
    const outputFile = join(workspace, `output-${attempt}.txt`);
    const summaryFile = join(workspace, `summary-${attempt}.md`);
    await writeFile(outputFile, '');
    await writeFile(summaryFile, '');
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: workspace,
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: eventPath,
      GITHUB_REPOSITORY: 'octo/shop',
      GITHUB_SHA: SHA,
      GITHUB_REF: `refs/pull/${PR}/merge`,
      GITHUB_RUN_ID: '99',
      GITHUB_RUN_ATTEMPT: String(attempt),
      GITHUB_JOB: 'scan',
      GITHUB_ACTION: 'scanward',
      GITHUB_API_URL: github.url,
      GITHUB_SERVER_URL: 'https://github.example',
      'INPUT_API-URL': scanner.app.url,
      'INPUT_API-KEY': apiKey,
      INPUT_TARGET: host,
      'INPUT_SCAN-TYPE': 'quick',
      INPUT_PORTS: String(redis.port),
      'INPUT_FAIL-ON': 'high',
      INPUT_GATE: 'all',
      'INPUT_REPORT-SEVERITY': 'info',
      INPUT_COMMENT: 'true',
      'INPUT_TIMEOUT-MINUTES': '2',
      'INPUT_POLL-INTERVAL-SECONDS': '0.1',
      'INPUT_UPLOAD-SARIF': 'true',
      'INPUT_GITHUB-TOKEN': GITHUB_TOKEN,
      'INPUT_SARIF-FILE': `scanward-${attempt}.sarif`,
      ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v])),
    };
    const child = spawn(NODE24!, [DIST], { env, cwd: workspace });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    const code = await new Promise<number | null>((r) => child.on('close', r));
    return {
      code,
      stdout,
      outputs: readOutputs(await readFile(outputFile, 'utf8')),
      summary: await readFile(summaryFile, 'utf8'),
    };
  }

  it('gates a pull request, uploads valid SARIF, annotates, and keeps one comment edited in place', async () => {
    const first = await runStep(1, {});
    expect(first.stdout).toContain('v24.');
    expect(first.code, first.stdout).toBe(1);
    expect(first.stdout).toContain(`::add-mask::${apiKey}`);
    expect(first.stdout).not.toMatch(/deprecat/i);
    // The scan was followed through the event stream, not by polling.
    expect(first.stdout).not.toContain('The event stream is not available');

    // Outputs: the scan's own counts.
    const scanId = first.outputs['scan-id']!;
    expect(scanId).toMatch(/^scan_/);
    expect(first.outputs).toMatchObject({ status: 'completed', 'critical-count': '1', result: 'failed' });
    expect(Number(first.outputs['new-findings'])).toBeGreaterThanOrEqual(1);
    expect((await findScan(scanner.app.services.db, scanner.tenant.orgId, scanId))?.target).toBe(host);

    // One annotation for the critical, with a title, and the step failure.
    const component = `redis://${host}:${redis.port}`;
    const annotations = first.stdout.split('\n').filter((l) => l.startsWith('::error title=Scanward'));
    expect(annotations).toHaveLength(1);
    expect(annotations[0]).toContain(component);
    expect(first.stdout).toMatch(
      /^::error::Scanward found 1 critical finding\(s\) at or above the fail-on threshold \(high\)/m,
    );

    // The summary.
    expect(first.summary).toContain(`## Scanward scan of \`${host}\``);
    expect(first.summary).toContain('❌ failed: 1 critical at or above high');
    expect(first.summary, first.stdout).toContain('uploaded to code scanning and processed');

    // The SARIF GitHub received is the file on disk, and the SARIF Multitool with GitHub's rules accepts it.
    expect(github.uploads).toHaveLength(1);
    const upload = github.uploads[0]!;
    expect(upload).toMatchObject({
      owner: 'octo',
      repo: 'shop',
      commitSha: SHA,
      ref: `refs/pull/${PR}/merge`,
    });
    expect(upload.headers.authorization).toBe(`token ${GITHUB_TOKEN}`);
    expect(upload.sarif).toBe(await readFile(join(workspace, 'scanward-1.sarif'), 'utf8'));
    const sarif = JSON.parse(upload.sarif) as {
      runs: [{ results: Array<{ ruleId: string; level: string }> }];
    };
    expect(sarif.runs[0].results).toContainEqual(
      expect.objectContaining({ ruleId: 'redis-unauthenticated', level: 'error' }),
    );
    if (multitool) {
      const { problems, stdout } = await validateSarif(workspace, 'uploaded', upload.sarif);
      expect(problems, stdout).toEqual([]);
    }

    // The comment: created once, next to someone else's.
    const ours = () => github.comments.filter((c) => c.body.includes('scanward-action:pr-comment'));
    expect(ours()).toHaveLength(1);
    expect(ours()[0]).toMatchObject({ issue: PR, edits: 0 });
    expect(ours()[0]!.body).toContain('Redis');
    expect(ours()[0]!.body).toContain(`\`${component}\``);
    expect(github.comments).toHaveLength(2);

    // A re-run with gate: new: the critical is still there but not new, so the gate passes,
    // and the same comment is edited, not duplicated.
    const second = await runStep(2, { gate: 'new' });
    expect(second.code, second.stdout).toBe(0);
    expect(second.outputs['scan-id']).not.toBe(scanId);
    expect(second.outputs).toMatchObject({ 'critical-count': '1', 'new-findings': '0', result: 'passed' });
    expect(second.stdout).toContain('No new findings at or above the fail-on threshold (high).');
    expect(second.stdout).not.toContain('::error');
    expect(ours()).toHaveLength(1);
    expect(ours()[0]).toMatchObject({ edits: 1 });
    expect(ours()[0]!.body).toContain('No new findings in this scan.');
    expect(github.comments).toHaveLength(2);

    // A newly planted weakness fails gate: new, and only it is annotated.
    const third = await runStep(3, { gate: 'new', ports: `${redis.port},${laterRedis.port}` });
    expect(third.code, third.stdout).toBe(1);
    // New: the second Redis's critical and its open-port (info) finding.
    expect(third.outputs).toMatchObject({ 'critical-count': '2', 'new-findings': '2' });
    const thirdAnnotations = third.stdout.split('\n').filter((l) => l.startsWith('::error title=Scanward'));
    expect(thirdAnnotations).toHaveLength(1);
    expect(thirdAnnotations[0]).toContain(`redis://${host}:${laterRedis.port}`);
    expect(ours()).toHaveLength(1);
    expect(ours()[0]!.body).toContain(`redis://${host}:${laterRedis.port}`);
    expect(ours()[0]!.body).not.toContain(`\`${component}\``);
  }, 180_000);
});
