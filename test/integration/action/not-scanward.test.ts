import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasNode24, NODE24 } from '../../helpers/node24.ts';

/** Node 24 when the machine has it (as CI does); else the test runner's own Node. */
const NODE = hasNode24 ? NODE24! : process.execPath;

/**
 * scanward-ci (the bundled dist/ci/index.js) pointed at a web server that is not Scanward, as
 * a newcomer does with a typo in SCANWARD_API_URL: whatever the page answers (200 or 404, an
 * HTML page), the run exits 2 with one `error:` line that says so and names api-url, and no
 * markup of the page reaches the log.
 */

const CLI = resolve(import.meta.dirname, '../../../dist/ci/index.js');
const PAGE =
  '<!doctype html>\n<html>\n<head><title>Welcome to the intranet</title><style>body{color:red}</style></head>\n' +
  '<body>\n<h1>Intranet</h1>\n<script>window.alert(1)</script>\n</body>\n</html>\n';

interface Page {
  url: string;
  server: Server;
}

async function servePage(status: number): Promise<Page> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runCli(apiUrl: string, cwd: string): Promise<Run> {
  const child = spawn(NODE, [CLI, '--target', '127.0.0.1'], {
    cwd,
    env: {
      PATH: process.env.PATH ?? '',
      SCANWARD_API_URL: apiUrl,
      SCANWARD_API_KEY: 'sw_not_scanward_0123456789',
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  return new Promise((r) => child.on('close', (code) => r({ code, stdout, stderr })));
}

describe('scanward-ci against a server that is not Scanward', { timeout: 60_000 }, () => {
  let ok: Page;
  let missing: Page;
  let dir: string;

  beforeAll(async () => {
    ok = await servePage(200);
    missing = await servePage(404);
    dir = await mkdtemp(join(tmpdir(), 'scanward-not-scanward-'));
  });
  afterAll(async () => {
    for (const page of [ok, missing]) if (page) await new Promise<void>((r) => page.server.close(() => r()));
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it.each([
    ['answers every request with a 200 page', () => ok],
    ['answers every request with a 404 page', () => missing],
  ])('exits 2 with a one-line error and no HTML when the server %s', async (_what, page) => {
    const run = await runCli(page().url, dir);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stdout).toBe('');
    const errors = run.stderr.split('\n').filter((line) => line.startsWith('error:'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('an HTML page ("Welcome to the intranet"), not the Scanward API');
    expect(errors[0]).toContain('Check api-url');
    expect(run.stderr).not.toMatch(/<[a-z!/]/i);
    expect(run.stderr).not.toContain('window.alert');
  });
});
