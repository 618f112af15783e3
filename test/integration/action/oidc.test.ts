import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CiIssuers } from '../../../server/auth/ci-issuers.ts';
import { listAuditEventsRoute } from '../../../server/routes/audit-events.ts';
import { githubClaims, startOidcIssuer, type OidcIssuer } from '../../fixtures/ci-oidc-issuer.ts';
import {
  closeAll,
  fakeRedis,
  randomLoopbackAddress,
  startListener,
  type FixtureListener,
} from '../../fixtures/listeners.ts';
import { apiClient, okBody } from '../../helpers/api-client.ts';
import { testEngine } from '../../helpers/database.ts';
import { hasNode24, NODE24 } from '../../helpers/node24.ts';
import { startScanApp, type ScanApp } from '../../helpers/scanner.ts';
import { postCiTrust } from '../../../server/routes/ci-trust.ts';

/**
 * Keyless CI sign-in end to end (issue 26): the bundled Action (dist/index.js) and
 * `scanward-ci` (dist/ci/index.js) under a real Node 24, with no API key, against the real
 * service trusting a local OpenID issuer over TLS (its CA handed to the in-process service's
 * issuer client, as NODE_EXTRA_CA_CERTS would at start-up). The runner's ID-token endpoint
 * (ACTIONS_ID_TOKEN_REQUEST_URL/_TOKEN) is faked on loopback and answers tokens the issuer
 * signs for the audience asked; the scan finds a planted critical, so the gate fails.
 */

const DIST = resolve(import.meta.dirname, '../../../dist/index.js');
const CLI = resolve(import.meta.dirname, '../../../dist/ci/index.js');
const REQUEST_TOKEN = 'runner-request-token';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

describe.skipIf(!hasNode24)(`keyless CI sign-in under Node 24 (${testEngine})`, { timeout: 90_000 }, () => {
  let issuer: OidcIssuer;
  let scanner: ScanApp;
  let host: string;
  let redis: FixtureListener;
  let dir: string;
  let tokenEndpoint: Server;
  let tokenUrl: string;
  const audiencesAsked: string[] = [];

  beforeAll(async () => {
    issuer = await startOidcIssuer();
    scanner = await startScanApp({ env: { SCANWARD_CI_OIDC_ISSUERS: issuer.issuer } });
    scanner.app.services.ciIssuers = new CiIssuers({ ca: issuer.ca });
    host = randomLoopbackAddress();
    redis = await startListener({ host, serve: fakeRedis });
    dir = await mkdtemp(join(tmpdir(), 'scanward-oidc-'));
    // The runner's ID-token service: GET <url>&audience=<aud> with the request token as bearer.
    tokenEndpoint = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (req.headers.authorization !== `Bearer ${REQUEST_TOKEN}`) return void res.writeHead(401).end();
      const audience = url.searchParams.get('audience') ?? '';
      audiencesAsked.push(audience);
      void issuer
        .sign(githubClaims({ repository: 'octo/shop', repository_owner: 'octo' }), { aud: audience })
        .then((value) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ value }));
        });
    });
    await new Promise<void>((r) => tokenEndpoint.listen(0, '127.0.0.1', r));
    tokenUrl = `http://127.0.0.1:${(tokenEndpoint.address() as AddressInfo).port}/token?api-version=2.0`;

    // The admin trusts pull requests of octo/shop, for the audience of the service's own address.
    const admin = apiClient(scanner.app, { token: await scanner.tenant.bearer() });
    okBody(
      await admin.call(postCiTrust, {
        body: {
          name: 'pull requests of octo/shop',
          issuer: issuer.issuer,
          conditions: { repository: 'octo/shop', ref: 'refs/pull/*/merge', event_name: 'pull_request' },
          permissions: ['read:scans', 'write:scans', 'read:findings'],
        },
      }),
      201,
    );
  });
  afterAll(async () => {
    await scanner?.close();
    await issuer?.close();
    if (redis) await closeAll([redis]);
    if (tokenEndpoint) await new Promise<void>((r) => tokenEndpoint.close(() => r()));
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const issued = async () => {
    const admin = apiClient(scanner.app, { token: await scanner.tenant.bearer() });
    return okBody(await admin.call(listAuditEventsRoute, { query: { action: 'ci.token_issued' } })).items;
  };

  function spawnNode(args: string[], env: Record<string, string>): Promise<Run> {
    const child = spawn(NODE24!, args, { cwd: dir, env: { PATH: process.env.PATH ?? '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    return new Promise((r) => child.on('close', (code) => r({ code, stdout, stderr })));
  }

  it('the Action signs in with the job ID token, no API key, and gates the scan', async () => {
    const before = (await issued()).length;
    const outputFile = join(dir, 'output.txt');
    const summaryFile = join(dir, 'summary.md');
    await writeFile(outputFile, '');
    await writeFile(summaryFile, '');
    const run = await spawnNode([DIST], {
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: dir,
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_REPOSITORY: 'octo/shop',
      GITHUB_SHA: 'c0ffee0123456789abcdef0123456789abcdef01',
      GITHUB_REF: 'refs/pull/7/merge',
      GITHUB_RUN_ID: '4242',
      GITHUB_RUN_ATTEMPT: '1',
      GITHUB_JOB: 'scan',
      ACTIONS_ID_TOKEN_REQUEST_URL: tokenUrl,
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: REQUEST_TOKEN,
      'INPUT_API-URL': scanner.app.url,
      INPUT_ORGANIZATION: scanner.tenant.orgId,
      INPUT_TARGET: host,
      INPUT_PORTS: String(redis.port),
      'INPUT_FAIL-ON': 'high',
      'INPUT_TIMEOUT-MINUTES': '2',
      'INPUT_POLL-INTERVAL-SECONDS': '0.1',
      'INPUT_UPLOAD-SARIF': 'false',
      INPUT_COMMENT: 'false',
    });
    const log = run.stdout + run.stderr;
    expect(log).toContain('v24.');
    expect(run.code, log).toBe(1);
    const outputs = await readFile(outputFile, 'utf8');
    expect(outputs).toMatch(/critical-count<<\S+\n1\n/);
    expect(outputs).toMatch(/status<<\S+\ncompleted\n/);
    // The audience the service told for the organization, never the instance's bare URL.
    expect(audiencesAsked).toContain(`${scanner.app.url}/ci/${scanner.tenant.orgId}`);
    expect(audiencesAsked).not.toContain(scanner.app.url);
    // Both the ID token and the access token are masked in the log.
    expect(log.match(/::add-mask::/g)?.length ?? 0).toBeGreaterThanOrEqual(2);
    const events = await issued();
    expect(events.length).toBe(before + 1);
    expect(events[0]!.details).toMatchObject({ repository: 'octo/shop', ref: 'refs/pull/7/merge' });
  });

  it('scanward-ci --id-token-env signs in with the token in that variable, no API key, and gates the scan', async () => {
    const before = (await issued()).length;
    const idToken = await issuer.sign(githubClaims({ repository: 'octo/shop', repository_owner: 'octo' }), {
      aud: `${scanner.app.url}/ci/${scanner.tenant.orgId}`,
    });
    const run = await spawnNode(
      [
        CLI,
        '--target',
        host,
        '--ports',
        String(redis.port),
        '--fail-on',
        'high',
        '--id-token-env',
        'SCANWARD_ID_TOKEN',
      ],
      {
        SCANWARD_API_URL: scanner.app.url,
        SCANWARD_POLL_INTERVAL_SECONDS: '0.1',
        SCANWARD_ID_TOKEN: idToken,
      },
    );
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain('at or above the fail-on threshold (high)');
    expect(run.stderr).not.toContain(idToken);
    const events = await issued();
    expect(events.length).toBe(before + 1);
    expect(events[0]!.details).toMatchObject({ repository: 'octo/shop', ref: 'refs/pull/7/merge' });

    // The variable named but empty: a usage error naming it.
    const empty = await spawnNode([CLI, '--target', host, '--id-token-env', 'NOT_SET_HERE'], {
      SCANWARD_API_URL: scanner.app.url,
    });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('NOT_SET_HERE');
  });
});
