import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ActionCore } from '../../../action/github/core.ts';
import type { GitHubContext } from '../../../action/github/context.ts';
import { run, type ActionDeps } from '../../../action/github/run.ts';
import {
  startGitHubFake,
  type GitHubFake,
  type GitHubFakeOptions,
} from '../../fixtures/github-fake/server.ts';

/**
 * `run(deps)` against what the real service cannot be made to do on cue: a
 * scripted Scanward API (429 with Retry-After, 5xx while polling, a scan that
 * fails or completes just as it is cancelled, a key without read:findings,
 * chosen `change` values) and the local fake of GitHub's API. The happy path
 * runs against the real service under Node 24 in action-e2e.test.ts. Time is a
 * fake clock that moves when the Action sleeps, so nothing waits for real.
 */

const API_KEY = 'sw_test_key_0123456789';
const GITHUB_TOKEN = 'ghs_test_token';
const SHA = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';

type Severity = 'critical' | 'high' | 'medium' | 'low' | 'info';

interface FakeFinding {
  id: string;
  title: string;
  severity: Severity;
  cvss_score: number;
  status: string;
  tool: string;
  affected_component: string;
  description: string;
  remediation: string;
  cve_ids: string[];
  detected_at: string;
  template_id: string;
  cwe_ids: string[];
  change?: 'new' | 'reopened' | 'unchanged';
}

interface ScanState {
  status: string;
  progress: number;
  phase: string;
  current_tool?: string;
  error?: string;
}

interface Recorded {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface ScanwardFakeOptions {
  /** States answered by successive GET /scans/{id}; the last one repeats. */
  script: ScanState[];
  findings?: FakeFinding[];
  /** Serve at most this many items per page, to make the Action walk pages. */
  perPageCap?: number;
  /** Answers to the first create requests, before one succeeds. */
  createFailures?: Array<{ status: number; body: unknown; headers?: Record<string, string> }>;
  /** Statuses answered to the first scan reads. */
  readFailures?: number[];
  /** GET /api/v1/findings answers 403, as for an API key without read:findings. */
  refsForbidden?: boolean;
  /** The scan completes just as the Action cancels it: DELETE answers 409 SCAN_NOT_CANCELLABLE. */
  completesOnCancel?: boolean;
  /** From this scan read on, GET /scans/{id} answers 307 to this origin (the same path). */
  redirectReadsTo?: { origin: string; fromRead: number };
}

const severityCount = (findings: FakeFinding[], s: Severity) =>
  findings.filter((f) => f.severity === s).length;

/** A scripted Scanward API: one scan per Idempotency-Key, progressing one script step per read. */
async function startScanwardFake(options: ScanwardFakeOptions) {
  const requests: Recorded[] = [];
  const createFailures = [...(options.createFailures ?? [])];
  const readFailures = [...(options.readFailures ?? [])];
  const findings = options.findings ?? [];
  const scansByKey = new Map<string, string>();
  let reads = 0;
  let cancelled = false;
  let completed = false;

  const scanView = (id: string) => {
    const step = cancelled
      ? { status: 'cancelled', progress: 40, phase: 'vulnerability_scanning' }
      : completed
        ? { status: 'completed', progress: 100, phase: 'complete' }
        : options.script[Math.min(reads - 1, options.script.length - 1)]!;
    const done = step.status === 'completed';
    const count = (s: Severity) => (done ? severityCount(findings, s) : 0);
    return {
      id,
      target: '127.0.0.1',
      scan_type: 'quick',
      created_at: '2026-01-01T00:00:00.000Z',
      ...(step.status !== 'pending' ? { started_at: '2026-01-01T00:00:01.000Z' } : {}),
      ...(done ? { completed_at: '2026-01-01T00:04:31.000Z' } : {}),
      ...step,
      vulnerabilities_found: count('critical') + count('high') + count('medium') + count('low'),
      critical_count: count('critical'),
      high_count: count('high'),
      medium_count: count('medium'),
      low_count: count('low'),
      info_count: count('info'),
      phases_completed: [],
      phases_remaining: [],
      ...(cancelled ? { message: 'Scan cancelled' } : {}),
    };
  };

  const page = <T>(items: T[], url: URL) => {
    const perPage = Math.min(Number(url.searchParams.get('per_page') ?? 20), options.perPageCap ?? 100);
    const pageNo = Number(url.searchParams.get('page') ?? 1);
    return {
      items: items.slice((pageNo - 1) * perPage, pageNo * perPage),
      total: items.length,
      page: pageNo,
      per_page: perPage,
      pages: Math.ceil(items.length / perPage),
    };
  };

  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      requests.push({
        method: req.method ?? '',
        path: url.pathname + url.search,
        headers: req.headers,
        body,
      });
      const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(payload));
      };
      if (url.pathname === '/api/health') return send(200, { status: 'healthy', version: '0.1.0' });
      if (req.headers['x-api-key'] !== API_KEY) {
        return send(401, { detail: 'invalid API key', error_code: 'INVALID_API_KEY' });
      }
      if (req.method === 'POST' && url.pathname === '/api/v1/scans') {
        const failure = createFailures.shift();
        if (failure) return send(failure.status, failure.body, failure.headers);
        const key = String(req.headers['idempotency-key']);
        const id = scansByKey.get(key) ?? `scan_fake${scansByKey.size + 1}`;
        scansByKey.set(key, id);
        return send(201, {
          id,
          target: '127.0.0.1',
          scan_type: 'quick',
          status: 'pending',
          created_at: '2026-01-01T00:00:00.000Z',
          estimated_duration: 300,
        });
      }
      const scan = /^\/api\/v1\/scans\/([^/]+)(\/findings)?$/.exec(url.pathname);
      if (scan && req.method === 'GET' && !scan[2]) {
        const redirect = options.redirectReadsTo;
        if (redirect && reads + 1 >= redirect.fromRead) {
          res.writeHead(307, { location: `${redirect.origin}${url.pathname}` });
          return res.end();
        }
        const failure = readFailures.shift();
        if (failure) return send(failure, { detail: 'database unavailable', error_code: 'INTERNAL_ERROR' });
        reads++;
        return send(200, scanView(scan[1]!));
      }
      if (scan && req.method === 'DELETE') {
        if (options.completesOnCancel) {
          completed = true;
          return send(409, { detail: 'scan is completed', error_code: 'SCAN_NOT_CANCELLABLE' });
        }
        cancelled = true;
        return send(200, { id: scan[1], status: 'cancelled', message: 'Scan cancelled' });
      }
      if (scan && req.method === 'GET' && scan[2]) {
        const items = findings.map((f) => ({
          id: f.id,
          title: f.title,
          severity: f.severity,
          cvss_score: f.cvss_score,
          status: f.status,
          tool: f.tool,
          affected_component: f.affected_component,
          description: f.description,
          remediation: f.remediation,
          cve_ids: f.cve_ids,
          detected_at: f.detected_at,
          ...(f.change ? { change: f.change } : {}),
        }));
        return send(200, page(items, url));
      }
      if (req.method === 'GET' && url.pathname === '/api/v1/findings') {
        if (options.refsForbidden) {
          return send(403, { detail: 'API key lacks read:findings', error_code: 'INSUFFICIENT_PERMISSION' });
        }
        const items = findings.map((f) => ({
          id: f.id,
          template_id: f.template_id,
          cwe_ids: f.cwe_ids,
          target: '127.0.0.1',
          frameworks: ['pci-dss'],
        }));
        return send(200, page(items, url));
      }
      send(404, { detail: 'not found', error_code: 'NOT_FOUND' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    creates: () => requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/scans'),
    cancels: () => requests.filter((r) => r.method === 'DELETE'),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

function finding(n: number, severity: Severity, overrides: Partial<FakeFinding> = {}): FakeFinding {
  return {
    id: `finding_${n}`,
    title: `Weakness ${n} | with a pipe`,
    severity,
    cvss_score: { critical: 9.8, high: 7.5, medium: 5.3, low: 3.1, info: 0 }[severity],
    status: 'open',
    tool: 'nuclei',
    affected_component: `https://127.0.0.1:8443/path${n}`,
    description: `Description of weakness ${n}.`,
    remediation: `Fix weakness ${n}.`,
    cve_ids: [],
    detected_at: '2026-01-01T00:03:00.000Z',
    template_id: `check-${n}`,
    cwe_ids: ['CWE-79'],
    ...overrides,
  };
}

const CONTEXT: GitHubContext = {
  eventName: 'push',
  repository: 'octo/shop',
  sha: SHA,
  ref: 'refs/heads/main',
  runId: '4242',
  runAttempt: '1',
  job: 'scan',
  step: 'scanward',
  serverUrl: 'https://github.example',
  apiUrl: 'http://127.0.0.1:1',
};

const COMPLETED_SCRIPT: ScanState[] = [
  { status: 'pending', progress: 0, phase: 'discovery' },
  { status: 'running', progress: 20, phase: 'discovery', current_tool: 'nmap' },
  { status: 'running', progress: 20, phase: 'discovery', current_tool: 'nmap' },
  { status: 'running', progress: 60, phase: 'vulnerability_scanning', current_tool: 'nuclei' },
  { status: 'completed', progress: 100, phase: 'complete' },
];

interface RecordingCore extends ActionCore {
  outputs: Map<string, string>;
  infos: string[];
  warnings: string[];
  errors: string[];
  debugs: string[];
  failures: string[];
  summaries: string[];
  secrets: string[];
}

const text = (message: string | Error) => (message instanceof Error ? message.message : message);

function recordingCore(inputs: Record<string, string>): RecordingCore {
  const core: RecordingCore = {
    outputs: new Map(),
    infos: [],
    warnings: [],
    errors: [],
    debugs: [],
    failures: [],
    summaries: [],
    secrets: [],
    getInput: (name) => (inputs[name] ?? '').trim(),
    getIDToken: () => Promise.reject(new Error('this test job has no ID token')),
    setOutput: (name, value) => void core.outputs.set(name, String(value)),
    setSecret: (secret) => void core.secrets.push(secret),
    info: (message) => void core.infos.push(message),
    warning: (message) => void core.warnings.push(text(message)),
    error: (message) => void core.errors.push(text(message)),
    debug: (message) => void core.debugs.push(message),
    setFailed: (message) => void core.failures.push(text(message)),
    group: (_name, fn) => fn(),
    summary: {
      addRaw: (markdown: string) => void core.summaries.push(markdown),
      write: async () => undefined,
    },
  };
  return core;
}

/** A clock that only moves when the Action sleeps. */
function fakeClock() {
  let now = Date.parse('2026-01-01T00:00:00.000Z');
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: async (ms: number, signal?: AbortSignal) => {
      signal?.throwIfAborted();
      sleeps.push(ms);
      now += ms;
      await new Promise((r) => setImmediate(r));
    },
  };
}

interface SarifShape {
  version: string;
  runs: Array<{
    tool: { driver: { name: string; rules: Array<{ id: string; properties: Record<string, unknown> }> } };
    results: Array<{
      ruleId: string;
      level: string;
      message: { text: string };
      partialFingerprints: Record<string, string>;
      locations: Array<{ physicalLocation: { artifactLocation: { uri: string } } }>;
    }>;
  }>;
}

describe('the Scanward Action', () => {
  let workspace: string;
  let scanward: Awaited<ReturnType<typeof startScanwardFake>> | undefined;
  let github: GitHubFake | undefined;

  beforeEach(async () => {
    workspace = await mkdtemp(join(tmpdir(), 'scanward-action-'));
  });
  afterEach(async () => {
    await scanward?.close();
    await github?.close();
    scanward = undefined;
    github = undefined;
    await rm(workspace, { recursive: true, force: true });
  });

  async function start(options: ScanwardFakeOptions, githubOptions: Partial<GitHubFakeOptions> = {}) {
    scanward = await startScanwardFake(options);
    github = await startGitHubFake({ token: GITHUB_TOKEN, ...githubOptions });
  }

  async function runAction(
    inputs: Record<string, string> = {},
    overrides: Partial<ActionDeps> = {},
    context: Partial<GitHubContext> = {},
  ) {
    const core = recordingCore({
      'api-url': `${scanward!.url}/api/v1`,
      'api-key': API_KEY,
      target: '127.0.0.1',
      'scan-type': 'quick',
      'fail-on': 'high',
      'timeout-minutes': '30',
      'poll-interval-seconds': '0.005',
      'upload-sarif': 'true',
      'github-token': GITHUB_TOKEN,
      'sarif-file': 'out/scanward.sarif',
      ...inputs,
    });
    const clock = fakeClock();
    const deps: ActionDeps = {
      core,
      context: { ...CONTEXT, apiUrl: github!.url, ...context },
      fetch: (input, init) => fetch(input, init),
      sleep: clock.sleep,
      now: clock.now,
      writeFile: (path, data) => writeFile(path, data, 'utf8'),
      mkdir: async (path) => void (await mkdir(path, { recursive: true })),
      cwd: workspace,
      sarifProcessing: { attempts: 5, intervalMs: 1 },
      githubRetryBaseMs: 1,
      githubThrottle: false,
      ...overrides,
    };
    const result = await run(deps);
    return { result, core, clock };
  }

  it('waits as long as Retry-After asks on a 429 and retries the create with the same Idempotency-Key', async () => {
    await start({
      script: COMPLETED_SCRIPT,
      createFailures: [
        {
          status: 429,
          headers: { 'Retry-After': '7' },
          body: { detail: 'concurrent scan limit reached', error_code: 'CONCURRENT_SCAN_LIMIT' },
        },
      ],
    });
    const { result, core, clock } = await runAction({ 'fail-on': 'none' });

    expect(result.outcome).toBe('passed');
    const creates = scanward!.creates();
    expect(creates).toHaveLength(2);
    expect(creates[1]!.headers['idempotency-key']).toBe(creates[0]!.headers['idempotency-key']);
    expect(clock.sleeps[0]).toBe(7000);
    expect(core.infos.some((l) => l.includes('429 (rate limited); retrying in 7s'))).toBe(true);
  });

  it("sends the web inputs as the scan's web, masking the password and every header value first", async () => {
    await start({ script: COMPLETED_SCRIPT });
    const { result, core } = await runAction({
      'fail-on': 'none',
      active: 'true',
      'auth-headers': 'Authorization: Bearer web-token-1\nCookie: sid=web-cookie-2',
      'exclude-paths': '/logout',
    });
    expect(result.outcome).toBe('passed');
    expect(core.secrets).toEqual(expect.arrayContaining(['Bearer web-token-1', 'sid=web-cookie-2']));
    const [create] = scanward!.creates();
    expect(JSON.parse(create!.body).web).toEqual({
      active: true,
      authentication: {
        type: 'headers',
        headers: { Authorization: 'Bearer web-token-1', Cookie: 'sid=web-cookie-2' },
      },
      exclude_paths: ['/logout'],
    });
    const logged = [...core.infos, ...core.warnings, ...core.debugs, ...core.summaries].join('\n');
    expect(logged).not.toContain('web-token-1');
    expect(logged).not.toContain('web-cookie-2');
  });

  it('retries a transient server error while polling', async () => {
    await start({ script: COMPLETED_SCRIPT, readFailures: [500, 503] });
    const { result, core } = await runAction({ 'fail-on': 'none' });

    expect(result.outcome).toBe('passed');
    expect(core.outputs.get('status')).toBe('completed');
    expect(core.infos.filter((l) => l.includes('retrying in'))).toHaveLength(2);
  });

  it('retries a failed SARIF upload', async () => {
    await start({ script: COMPLETED_SCRIPT, findings: [finding(1, 'low')] }, { uploadFailures: [502] });
    const { result } = await runAction({ 'fail-on': 'none' });

    expect(result.outcome).toBe('passed');
    expect(github!.requests.filter((r) => r.startsWith('POST'))).toHaveLength(2);
    expect(github!.uploads).toHaveLength(1);
  });

  it('cancels the scan and fails when it does not finish within timeout-minutes', async () => {
    await start({
      script: [{ status: 'running', progress: 30, phase: 'enumeration', current_tool: 'nmap' }],
    });
    const { result, core, clock } = await runAction({
      'timeout-minutes': '1',
      'poll-interval-seconds': '10',
    });

    expect(result).toMatchObject({ outcome: 'failed', timedOut: true, status: 'cancelled' });
    expect(scanward!.cancels().map((r) => r.path)).toEqual(['/api/v1/scans/scan_fake1']);
    expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBe(60_000);
    expect(core.outputs.get('status')).toBe('cancelled');
    expect(core.failures[0]).toContain('did not finish within timeout-minutes (1 min) and was cancelled');
    expect(core.summaries.join('\n')).toContain('did not finish within timeout-minutes and was cancelled');
    expect(github!.uploads).toEqual([]);
    // The same progress line is not repeated on every poll.
    expect(core.infos.filter((l) => l.startsWith('Scan scan_fake1:'))).toHaveLength(1);
  });

  it('uses the result when the scan completes just as the timeout cancels it', async () => {
    await start({
      script: [{ status: 'running', progress: 95, phase: 'reporting' }],
      findings: [finding(1, 'low')],
      completesOnCancel: true,
    });
    const { result, core } = await runAction({
      'timeout-minutes': '1',
      'poll-interval-seconds': '30',
      'fail-on': 'none',
    });

    expect(result).toMatchObject({ outcome: 'passed', status: 'completed' });
    expect(scanward!.cancels()).toHaveLength(1);
    expect(core.outputs.get('status')).toBe('completed');
    expect(github!.uploads).toHaveLength(1);
  });

  it('cancels the scan when the job is cancelled while it runs', async () => {
    await start({ script: [{ status: 'running', progress: 10, phase: 'discovery' }] });
    const aborter = new AbortController();
    let sleeps = 0;
    const sleep = async (_ms: number, signal?: AbortSignal) => {
      if (++sleeps === 3) aborter.abort(new Error('received SIGINT'));
      signal?.throwIfAborted();
      await new Promise((r) => setImmediate(r));
    };
    const { result, core } = await runAction({}, { signal: aborter.signal, sleep });

    expect(result.outcome).toBe('failed');
    expect(scanward!.cancels()).toHaveLength(1);
    expect(core.failures).toEqual(['The job was cancelled; Scanward scan scan_fake1 was cancelled too.']);
  });

  it('reports a failed scan with its reason and uploads nothing', async () => {
    await start({
      script: [
        { status: 'running', progress: 10, phase: 'discovery' },
        { status: 'failed', progress: 10, phase: 'discovery', error: 'the scan runner stopped' },
      ],
    });
    const { result, core } = await runAction();

    expect(result).toMatchObject({ outcome: 'failed', status: 'failed' });
    expect(core.outputs.get('status')).toBe('failed');
    expect(core.failures[0]).toBe('Scanward scan scan_fake1 failed: the scan runner stopped.');
    expect(core.summaries.join('\n')).toContain('**The scan failed:** the scan runner stopped');
    expect(github!.uploads).toEqual([]);
    expect(core.outputs.has('sarif-file')).toBe(false);
  });

  it('names SARIF rules after titles, with a warning, when the API key cannot read findings', async () => {
    await start({ script: COMPLETED_SCRIPT, findings: [finding(1, 'high')], refsForbidden: true });
    const { core } = await runAction({ 'fail-on': 'none' });

    expect(core.warnings.some((w) => w.includes('INSUFFICIENT_PERMISSION'))).toBe(true);
    const sarif = JSON.parse(github!.uploads[0]!.sarif) as SarifShape;
    expect(sarif.runs[0]!.results[0]!.ruleId).toBe('scanward/weakness-1-with-a-pipe');
  });

  it('fails with a permissions hint when GitHub refuses the upload, after writing the summary', async () => {
    await start(
      { script: COMPLETED_SCRIPT, findings: [finding(1, 'low')] },
      { refuseUploads: { status: 403, message: 'Resource not accessible by integration' } },
    );
    const { result, core } = await runAction({ 'fail-on': 'none' });

    expect(result.outcome).toBe('failed');
    expect(core.outputs.get('result')).toBe('failed');
    expect(core.failures[0]).toContain('security-events: write');
    expect(core.summaries.join('\n')).toContain('upload to code scanning failed');
  });

  it('fails when GitHub cannot process the uploaded SARIF', async () => {
    await start(
      { script: COMPLETED_SCRIPT, findings: [finding(1, 'low')] },
      { processing: ['pending', 'failed'], processingErrors: ['locationFromSarifResult: expected a file'] },
    );
    const { result, core } = await runAction({ 'fail-on': 'none' });

    expect(result.outcome).toBe('failed');
    expect(core.failures[0]).toContain('locationFromSarifResult: expected a file');
  });

  it('refuses bad inputs before calling the service, listing each problem', async () => {
    await start({ script: COMPLETED_SCRIPT });
    const { result, core } = await runAction({ 'scan-type': 'deep', ports: '0-80', 'fail-on': 'severe' });

    expect(result.outcome).toBe('failed');
    expect(core.failures[0]).toContain('`scan-type` is "deep"');
    expect(core.failures[0]).toContain('`ports`');
    expect(core.failures[0]).toContain('`fail-on` is "severe"');
    expect(scanward!.requests).toEqual([]);
  });

  it('with gate: new counts only new and reopened findings, annotates them and comments on the pull request', async () => {
    const findings = [
      finding(1, 'critical', { change: 'unchanged' }),
      finding(2, 'high', { change: 'new' }),
      finding(3, 'medium', { change: 'reopened' }),
      finding(4, 'high', { change: 'new', status: 'accepted' }),
    ];
    await start({ script: COMPLETED_SCRIPT, findings }, { comments: [{ issue: 12, body: 'LGTM' }] });
    const pr = { eventName: 'pull_request', ref: 'refs/pull/12/merge', pullRequest: { number: 12 } };
    const { result, core } = await runAction({ gate: 'new', 'fail-on': 'medium', comment: 'true' }, {}, pr);

    expect(result.outcome).toBe('failed');
    expect(result.gate?.counts).toEqual({ critical: 0, high: 1, medium: 1, low: 0, info: 0 });
    expect(result.gate?.failing.map((f) => f.id)).toEqual(['finding_2', 'finding_3']);
    expect(core.failures[0]).toContain(
      '1 high, 1 medium new finding(s) at or above the fail-on threshold (medium)',
    );
    expect(core.errors).toEqual([expect.stringContaining('Weakness 2')]);
    expect(core.warnings).toEqual([expect.stringContaining('Weakness 3')]);
    expect(core.outputs.get('new-findings')).toBe('2');
    expect(result.comment).toBe('created');

    const ours = github!.comments.filter((c) => c.body.includes('scanward-action:pr-comment'));
    expect(ours).toHaveLength(1);
    expect(ours[0]!.issue).toBe(12);
    expect(ours[0]!.body).toContain('Weakness 2');
    expect(ours[0]!.body).toContain('Weakness 3 \\| with a pipe (reopened)');
    expect(ours[0]!.body).not.toContain('Weakness 1');
    // Links go to the console's pages, not to the API.
    expect(ours[0]!.body).toContain(`${scanward!.url}/findings/finding_2)`);
    expect(ours[0]!.body).not.toContain('/api/v1/findings/finding_');

    const again = await runAction({ gate: 'new', 'fail-on': 'medium', comment: 'true' }, {}, pr);
    expect(again.result.comment).toBe('updated');
    expect(github!.comments.filter((c) => c.body.includes('scanward-action:pr-comment'))).toHaveLength(1);
    expect(github!.comments).toHaveLength(2);
  });

  it('annotates at most ten findings that failed the gate, then says how many more', async () => {
    const findings = Array.from({ length: 13 }, (_, i) => finding(i + 1, 'high'));
    await start({ script: COMPLETED_SCRIPT, findings });
    const { core } = await runAction({ 'upload-sarif': 'false' });

    expect(core.errors).toHaveLength(11);
    expect(core.errors[10]).toBe('…and 3 more finding(s) failed the gate; see the job summary.');
  });

  it('puts only findings at or above report-severity into the SARIF and the summary, gating independently', async () => {
    const findings = [finding(1, 'high'), finding(2, 'medium'), finding(3, 'low'), finding(4, 'info')];
    await start({ script: COMPLETED_SCRIPT, findings });
    const { result, core } = await runAction({ 'report-severity': 'medium', 'fail-on': 'low' });

    expect(result.gate?.counts).toMatchObject({ high: 1, medium: 1, low: 1 });
    const sarif = JSON.parse(github!.uploads[0]!.sarif) as SarifShape;
    expect(sarif.runs[0]!.results.map((r) => r.ruleId)).toEqual(['check-1', 'check-2']);
    expect(core.summaries.join('\n')).not.toContain('Weakness 3');
  });

  it('with wait: false creates the scan, sets its outputs and returns without polling', async () => {
    await start({ script: COMPLETED_SCRIPT });
    const { result, core } = await runAction({ wait: 'false' });

    expect(result).toMatchObject({ outcome: 'started', scanId: 'scan_fake1' });
    expect(core.outputs.get('scan-id')).toBe('scan_fake1');
    expect(core.outputs.get('result')).toBe('started');
    expect(scanward!.requests.filter((r) => r.method === 'GET')).toEqual([]);
    expect(core.failures).toEqual([]);
  });

  it('with scan-id follows that scan instead of creating one', async () => {
    await start({ script: COMPLETED_SCRIPT, findings: [finding(1, 'low')] });
    const { result, core } = await runAction({ 'scan-id': 'scan_deploy42', target: '' });

    expect(result).toMatchObject({ outcome: 'passed', scanId: 'scan_deploy42', status: 'completed' });
    expect(scanward!.creates()).toEqual([]);
    expect(core.outputs.get('scan-id')).toBe('scan_deploy42');
  });

  it('refuses gate: new against a service that does not report change', async () => {
    await start({ script: COMPLETED_SCRIPT, findings: [finding(1, 'high')] });
    const { result, core } = await runAction({ gate: 'new' });

    expect(result.outcome).toBe('failed');
    expect(core.failures[0]).toContain('does not say which findings are new');
    expect(core.failures[0]).not.toContain('failed unexpectedly');
  });

  it('never follows a redirect with the API key: fails naming the Location, and cancels the scan where it runs', async () => {
    const elsewhere: Recorded[] = [];
    const other = createServer((req, res) => {
      elsewhere.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: '' });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    const origin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    try {
      await start({ script: COMPLETED_SCRIPT, redirectReadsTo: { origin, fromRead: 3 } });
      const { result, core } = await runAction();

      expect(result.outcome).toBe('failed');
      expect(core.failures).toEqual([
        expect.stringContaining(
          `Scanward: read scan scan_fake1: the service answered 307 with a redirect to ${origin}/api/v1/scans/scan_fake1.`,
        ),
      ]);
      expect(core.failures[0]).toContain('set api-url to the address the service answers on itself');
      expect(core.failures[0]).not.toContain('failed unexpectedly');
      expect(elsewhere).toEqual([]);
      // One redirected read, no retry of it; the scan is cancelled at the service it runs on.
      const redirected = scanward!.requests.filter(
        (r) => r.method === 'GET' && r.path === '/api/v1/scans/scan_fake1',
      );
      expect(redirected).toHaveLength(3);
      expect(scanward!.cancels()).toHaveLength(1);
      expect(scanward!.cancels()[0]!.headers['x-api-key']).toBe(API_KEY);
    } finally {
      await new Promise<void>((r) => other.close(() => r()));
    }
  });

  it('writes no pull request comment outside a pull_request event', async () => {
    await start({ script: COMPLETED_SCRIPT, findings: [finding(1, 'high', { change: 'new' })] });
    const { result } = await runAction({ comment: 'true', 'fail-on': 'none' });

    expect(result).toMatchObject({ outcome: 'passed', comment: undefined });
    expect(github!.requests.filter((r) => r.includes('/issues/'))).toEqual([]);
  });
});
