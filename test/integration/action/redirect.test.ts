import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hasNode24, NODE24 } from '../../helpers/node24.ts';

/**
 * The bundled Action (dist/index.js) and scanward-ci (dist/ci/index.js) under Node 24 against
 * an `api-url` that answers every request with 307 to a second loopback listener on another
 * port (another origin): the clients never follow it, so the second listener never sees a
 * request, let alone the API key (fetch would carry `X-API-Key` across origins); the run fails
 * at once, without retrying, with an error naming the `Location`. scanward-ci exits 2, the
 * exit code of a configuration the user must fix.
 */

const ACTION = resolve(import.meta.dirname, '../../../dist/index.js');
const CLI = resolve(import.meta.dirname, '../../../dist/ci/index.js');
const API_KEY = 'sw_redirect_test_key_0123456789';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

interface Listener {
  url: string;
  seen: Seen[];
  server: Server;
}

async function listen(
  answer: (req: Seen, res: import('node:http').ServerResponse) => void,
): Promise<Listener> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const request = { method: req.method ?? '', url: req.url ?? '', headers: req.headers };
    seen.push(request);
    req.resume();
    req.on('end', () => answer(request, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

async function spawnNode24(args: string[], env: Record<string, string>, cwd: string): Promise<Run> {
  const child = spawn(NODE24!, args, { cwd, env: { PATH: process.env.PATH ?? '', ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const code = await new Promise<number | null>((r) => child.on('close', r));
  return { code, stdout, stderr };
}

describe.skipIf(!hasNode24)(
  'the API clients under Node 24 against a redirecting api-url',
  { timeout: 60_000 },
  () => {
    let elsewhere: Listener;
    let redirecting: Listener;
    let workspace: string;

    beforeAll(async () => {
      elsewhere = await listen((_req, res) => {
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 'scan_stolen', status: 'pending' }));
      });
      redirecting = await listen((req, res) => {
        res.writeHead(307, { location: `${elsewhere.url}${req.url}` });
        res.end();
      });
      workspace = await mkdtemp(join(tmpdir(), 'scanward-redirect-'));
    });
    afterEach(() => {
      elsewhere.seen.length = 0;
      redirecting.seen.length = 0;
    });
    afterAll(async () => {
      for (const listener of [elsewhere, redirecting]) {
        if (listener) await new Promise<void>((r) => listener.server.close(() => r()));
      }
      if (workspace) await rm(workspace, { recursive: true, force: true });
    });

    /** The one request the client sent: to the api-url, with the key, and never retried. */
    function expectOneRequestThatStayedHome(): void {
      expect(elsewhere.seen).toEqual([]);
      expect(redirecting.seen.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /api/v1/scans']);
      expect(redirecting.seen[0]!.headers['x-api-key']).toBe(API_KEY);
    }

    it('the Action fails the step naming the redirect, and the other origin never sees the key', async () => {
      const outputFile = join(workspace, 'output.txt');
      await writeFile(outputFile, '');
      const run = await spawnNode24(
        [ACTION],
        {
          GITHUB_ACTIONS: 'true',
          GITHUB_WORKSPACE: workspace,
          GITHUB_OUTPUT: outputFile,
          GITHUB_REPOSITORY: 'octo/shop',
          GITHUB_RUN_ID: '7',
          'INPUT_API-URL': redirecting.url,
          'INPUT_API-KEY': API_KEY,
          INPUT_TARGET: '127.0.0.1',
          'INPUT_UPLOAD-SARIF': 'false',
          'INPUT_POLL-INTERVAL-SECONDS': '0.1',
        },
        workspace,
      );
      const log = run.stdout + run.stderr;
      expect(run.code, log).toBe(1);
      expect(log).toContain('v24.');
      const failure = log.split('\n').find((l) => l.startsWith('::error::'));
      expect(failure).toBe(
        `::error::Scanward: create the scan: the service answered 307 with a redirect to ${elsewhere.url}/api/v1/scans. ` +
          'Scanward clients never follow a redirect, so the credentials are not sent to another address; ' +
          'set api-url to the address the service answers on itself.',
      );
      expect(log).not.toContain('failed unexpectedly');
      expect(log).not.toContain('scan_stolen');
      expectOneRequestThatStayedHome();
      expect(await readFile(outputFile, 'utf8')).not.toContain('scan_stolen');
    });

    it('scanward-ci exits 2 naming the redirect, and the other origin never sees the key', async () => {
      const run = await spawnNode24(
        [CLI, '--target', '127.0.0.1', '--json', 'report.json'],
        { SCANWARD_API_URL: redirecting.url, SCANWARD_API_KEY: API_KEY },
        workspace,
      );
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(
        `error: Scanward: create the scan: the service answered 307 with a redirect to ${elsewhere.url}/api/v1/scans.`,
      );
      expect(run.stdout).toBe('');
      expectOneRequestThatStayedHome();
    });
  },
);
