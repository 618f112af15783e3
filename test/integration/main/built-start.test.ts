import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomLoopbackAddress } from '../../fixtures/listeners.ts';
import { listenTracked, type TrackedServer } from '../../fixtures/web-server.ts';
import { createTestDatabase, testEngine, type TestDatabase } from '../../helpers/database.ts';
import { waitFor } from '../../helpers/poll.ts';
import { freePort, REPO_ROOT } from '../../helpers/server-process.ts';

/**
 * The service as a fresh clone runs it: the working tree copied as `git clone` would give it
 * (tracked and new files, nothing ignored: no build, no data), built by the `prepare` script
 * that `npm install` runs, then started with `npm start`, with a node_modules that has no
 * TypeScript loader or compiler in it (tsx, esbuild and typescript left out), so nothing but the
 * built JavaScript can run. It must serve the API, the console and a full scan, whose sweep
 * threads and template loader are worker threads started from the build.
 */

/** Packages a production process must not need: the TypeScript loader and compilers. */
const TYPESCRIPT_TOOLING = new Set(['tsx', 'esbuild', '@esbuild', 'typescript', '.bin']);
const ADMIN_PASSWORD = 'fresh-clone-admin-password';
const SLOW = 300_000;

/** The working tree's files as a clone of it would have them (tracked, and new but not ignored). */
function copyCheckout(to: string): void {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  for (const file of listed.split('\0').filter(Boolean)) {
    const target = path.join(to, file);
    mkdirSync(path.dirname(target), { recursive: true });
    try {
      cpSync(path.join(REPO_ROOT, file), target);
    } catch (error) {
      // A file deleted in the working tree but not yet in git's index is not in a clone either.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

/** node_modules for running: every installed package, as links, but the TypeScript tooling. */
function productionModules(app: string): void {
  const modules = path.join(app, 'node_modules');
  rmSync(modules, { recursive: true, force: true });
  mkdirSync(modules);
  const installed = path.join(REPO_ROOT, 'node_modules');
  for (const entry of readdirSync(installed)) {
    if (TYPESCRIPT_TOOLING.has(entry)) continue;
    symlinkSync(path.join(installed, entry), path.join(modules, entry));
  }
}

/**
 * The arguments of a package.json script that runs `node …`, to start on the runner's own Node
 * (test/unit/child-processes.test.ts): the script as written is what `npm run` would execute.
 */
function nodeScript(app: string, name: string): string[] {
  const { scripts } = JSON.parse(readFileSync(path.join(app, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const [command, ...args] = scripts[name]!.split(' ');
  expect(command, `the ${name} script runs node`).toBe('node');
  return args;
}

describe(`a fresh clone, built on install and started with npm start (${testEngine})`, () => {
  let root: string;
  let app: string;
  let database: TestDatabase;
  let server: ChildProcess | undefined;
  let web: TrackedServer;
  let stdout = '';
  let stderr = '';

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'scanward-fresh-clone-'));
    app = path.join(root, 'scanward');
    copyCheckout(app);
    // `npm install` installs the packages and runs `prepare`: the build.
    symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(app, 'node_modules'));
    const prepare = spawnSync(process.execPath, nodeScript(app, 'prepare'), {
      cwd: app,
      encoding: 'utf8',
      env: process.env,
    });
    expect(prepare.status, prepare.stderr).toBe(0);
    productionModules(app);
    database = await createTestDatabase();
    web = await listenTracked(
      createServer((_request, response) => {
        response.setHeader('Server', 'nginx/1.25.3');
        response.end('<html><head><title>fixture</title></head><body>hello</body></html>');
      }),
      randomLoopbackAddress(),
    );
  }, SLOW);

  afterAll(async () => {
    if (server?.pid && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once('exit', resolve));
      process.kill(-server.pid, 'SIGTERM');
      await exited;
    }
    await web?.close();
    await database?.drop();
    rmSync(root, { recursive: true, force: true });
  }, SLOW);

  it(
    'serves the API, the console and a full scan, with no TypeScript loader installed',
    async () => {
      const port = await freePort();
      server = spawn(process.execPath, nodeScript(app, 'start'), {
        cwd: app,
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          PORT: String(port),
          HOST: '127.0.0.1',
          LOG_LEVEL: 'info',
          SCANWARD_ADMIN_PASSWORD: ADMIN_PASSWORD,
          SCANWARD_SCAN_ALLOW: '127.0.0.0/8,::1,localhost',
          ...(database.url ? { DATABASE_URL: database.url } : { SCANWARD_DATA_DIR: path.join(root, 'data') }),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
        // Its own process group, so the clean-up reaches it and anything it starts.
        detached: true,
      });
      server.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      server.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      const base = `http://127.0.0.1:${port}`;
      await waitFor(
        async () => {
          if (server!.exitCode !== null) throw new Error(`npm start exited: ${stderr}`);
          return stdout.includes('"msg":"listening"');
        },
        (listening) => listening,
        { timeoutMs: 120_000, intervalMs: 100 },
      );
      // The prestart check found the build current: nothing was built (esbuild is not even there).
      expect(stderr).not.toMatch(/built \d+ modules|the build failed/);

      const health = await fetch(`${base}/api/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: 'healthy' });

      const page = await fetch(`${base}/scans`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await page.text();
      const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
      expect(script).toBeDefined();
      const asset = await fetch(`${base}${script}`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-type')).toMatch(/javascript/);

      const login = await fetch(`${base}/api/v1/auth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ username: 'admin@localhost', password: ADMIN_PASSWORD }),
      });
      expect(login.status).toBe(200);
      const auth = {
        authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}`,
      };
      const created = await fetch(`${base}/api/v1/scans`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({
          target: web.address,
          ports: String(web.port),
          scan_type: 'full',
          authorized: true,
        }),
      });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: string };
      const scan = await waitFor(
        async () =>
          (await (await fetch(`${base}/api/v1/scans/${id}`, { headers: auth })).json()) as Record<
            string,
            unknown
          >,
        (s) => ['completed', 'failed', 'cancelled'].includes(s.status as string),
        { timeoutMs: 240_000, intervalMs: 250 },
      );
      expect(scan).toMatchObject({ status: 'completed' });
      // The open HTTP service, found by the sweep threads and named by the probes.
      const findings = (await (
        await fetch(`${base}/api/v1/findings?scan_id=${id}&per_page=100`, { headers: auth })
      ).json()) as { items: { title: string; affected_component: string }[] };
      expect(findings.items).toContainEqual(
        expect.objectContaining({
          title: `Open port ${web.port}/tcp: nginx 1.25.3`,
          affected_component: `http://${web.address}:${web.port}`,
        }),
      );
      // The templates were loaded (in their worker thread, from the build) and run.
      expect(stdout).toContain('"msg":"nuclei-format templates loaded"');
      expect(stderr).not.toMatch(/Error|ERR_/);
    },
    SLOW,
  );
});
