import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../server/db/index.ts';
import { migrateLatest } from '../../../server/db/migrate.ts';
import { createOrganization } from '../../../server/identity/organizations.ts';
import { createUser } from '../../../server/identity/users.ts';
import { runCliCaptured } from '../../helpers/cli.ts';
import { createTestDatabase, testEngine, type TestDatabase } from '../../helpers/database.ts';
import { SERVER_ENTRY } from '../../helpers/server-process.ts';

/**
 * The real `scanward` binary and a real server process side by side: what a
 * checkout gives an operator. Most command behaviour is covered in-process by
 * cli-admin.test.ts; these few spawns prove the wiring, stdin, exit codes and
 * the data-directory lock across processes.
 */

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const BIN = path.join(ROOT, 'bin', 'scanward.js');
const ADMIN_PASSWORD = 'bootstrap-admin-password';
/** Generous: a loaded two-core CI machine starts PGlite slowly. */
const START_DEADLINE_MS = 90_000;
const SLOW = 120_000;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Every process a test started, so none outlives the file even when a test times out. */
const children = new Set<ChildProcess>();

function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Only what a process needs, so a DATABASE_URL of the test runner never leaks into a PGlite run. */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn', ...env };
}

function runBinary(args: string[], env: Record<string, string>, stdin = ''): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: childEnv(env) });
    track(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

interface RunningServer {
  url: string;
  stop(): Promise<number | null>;
}

/** Starts the built server (`node server/main.js`, as `npm start`) on a free loopback port and resolves once it listens. */
function startServer(env: Record<string, string>): Promise<RunningServer> {
  const child: ChildProcess = spawn(process.execPath, SERVER_ENTRY, {
    cwd: ROOT,
    env: childEnv({
      PORT: '0',
      HOST: '127.0.0.1',
      SCANWARD_ADMIN_PASSWORD: ADMIN_PASSWORD,
      SCANWARD_SCAN_ALLOW: '127.0.0.0/8,::1,localhost',
      ...env,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  track(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    return exited;
  };
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    const deadline = setTimeout(() => {
      void stop();
      reject(new Error(`server did not listen within ${START_DEADLINE_MS / 1000} s:\n${stderr}`));
    }, START_DEADLINE_MS);
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString();
      const port = /Scanward API on http:\/\/localhost:(\d+)/.exec(stdout)?.[1];
      if (port) {
        clearTimeout(deadline);
        resolve({ url: `http://127.0.0.1:${port}`, stop });
      }
    });
    void exited.then((code) => reject(new Error(`server exited with ${code} before listening:\n${stderr}`)));
  });
}

describe(`scanward binary (${testEngine})`, () => {
  let env: Record<string, string>;
  let dataDir: string | undefined;
  let pg: TestDatabase | undefined;
  /** The organizations of the two tests beside a server, one each (made while the database is open anyway). */
  const owned = { held: { orgId: '', email: 'held@binary.example' }, live: { orgId: '' } };

  beforeAll(async () => {
    if (testEngine === 'postgres') {
      pg = await createTestDatabase();
      env = { DATABASE_URL: pg.url! };
    } else {
      dataDir = mkdtempSync(path.join(tmpdir(), 'scanward-bin-'));
      env = { SCANWARD_DATA_DIR: dataDir };
    }
    // Create and migrate the database once here, so each spawned process only opens it.
    const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir });
    try {
      await migrateLatest(database.db);
      const held = await createOrganization(database.db, { name: 'Held Org', plan: 'professional' });
      owned.held.orgId = held.id;
      await createUser(database.db, {
        orgId: held.id,
        email: owned.held.email,
        password: 'held password 123',
        role: 'member',
      });
      owned.live.orgId = (
        await createOrganization(database.db, { name: 'Live Org', plan: 'professional' })
      ).id;
    } finally {
      await database.close();
    }
  });
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await pg?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'creates an organization (JSON with its id) and a user whose password arrives on stdin',
    async () => {
      const org = await runBinary(
        ['admin', 'org', 'create', '--name', 'Binary Org', '--plan', 'professional', '--json'],
        env,
      );
      expect(org.stderr).toBe('');
      expect(org.code).toBe(0);
      const created = JSON.parse(org.stdout) as { id: string; plan: string };
      expect(created.id).toMatch(/^org_[0-9a-z]{24}$/);
      expect(created.plan).toBe('professional');

      const user = await runBinary(
        [
          'admin',
          'user',
          'create',
          '--org',
          created.id,
          '--email',
          'operator@binary.example',
          '--password',
          '-',
        ],
        env,
        'piped password 123\n',
      );
      expect(user.stderr).toBe('');
      expect(user.code).toBe(0);
      expect(user.stdout).toMatch(/^user_[0-9a-z]{24}\n$/);
      const listed = await runCliCaptured(['admin', 'user', 'list', '--org', created.id, '--json'], env);
      expect((JSON.parse(listed.stdout) as { items: Array<{ id: string; email: string }> }).items).toEqual([
        expect.objectContaining({ id: user.stdout.trim(), email: 'operator@binary.example' }),
      ]);
    },
    SLOW,
  );

  it(
    'exits with status 2 and a one-line reason on bad input, and keeps stdout for output only',
    async () => {
      const usage = [
        'admin',
        'user',
        'create',
        '--org',
        'org_any',
        '--email',
        'x@binary.example',
        '--password',
        'short',
      ];
      const bad = await runBinary(usage, env);
      expect(bad.code).toBe(2);
      expect(bad.stdout).toBe('');
      expect(bad.stderr).toBe('scanward: error: the password must be at least 12 characters\n');

      // What libraries print on the way (knex reports connection errors with console.log) stays off stdout too.
      const down = await runBinary(['admin', 'user', 'list'], {
        DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
      });
      expect(down.code).toBe(1);
      expect(down.stdout).toBe('');
      expect(down.stderr).toContain('scanward: error: connect ECONNREFUSED 127.0.0.1:1');
    },
    SLOW,
  );

  it.runIf(testEngine === 'pglite')(
    'stops with a clear message while a server holds the embedded database, and leaves the data intact',
    async () => {
      const server = await startServer(env);
      let stopped = false;
      try {
        const health = await fetch(`${server.url}/api/health`);
        expect(health.status).toBe(200);

        const locked = await runBinary(['admin', 'user', 'list'], env);
        expect(locked.code).toBe(3);
        expect(locked.stdout).toBe('');
        expect(locked.stderr).toContain(
          `the embedded database in ${dataDir} is in use by another Scanward process`,
        );
        expect(locked.stderr).toContain('Stop the server first, or use PostgreSQL (set DATABASE_URL)');

        const lockedInProcess = await runCliCaptured(['migrate'], env);
        expect(lockedInProcess.code).toBe(3);

        // The server is unharmed by the refused attempts.
        expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
        expect(await server.stop()).toBe(0);
        stopped = true;

        const after = await runCliCaptured(
          ['admin', 'user', 'list', '--org', owned.held.orgId, '--json'],
          env,
        );
        expect(after.code).toBe(0);
        expect(
          (JSON.parse(after.stdout) as { items: Array<{ email: string }> }).items.map((u) => u.email),
        ).toEqual([owned.held.email]);
      } finally {
        if (!stopped) await server.stop();
      }
    },
    SLOW,
  );

  it.runIf(testEngine === 'postgres')(
    'works beside a running server: a user it creates logs in, and revoking the sessions ends the login',
    async () => {
      const server = await startServer(env);
      try {
        const email = 'live@binary.example';
        const created = await runCliCaptured(
          [
            'admin',
            'user',
            'create',
            '--org',
            owned.live.orgId,
            '--email',
            email,
            '--password',
            'live password 1',
          ],
          env,
        );
        expect(created.code).toBe(0);

        const login = await fetch(`${server.url}/api/v1/auth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ username: email, password: 'live password 1' }),
        });
        expect(login.status).toBe(200);
        const { access_token: token } = (await login.json()) as { access_token: string };
        const sessions = () =>
          fetch(`${server.url}/api/v1/auth/sessions`, { headers: { authorization: `Bearer ${token}` } });
        expect((await sessions()).status).toBe(200);

        const revoked = await runBinary(['admin', 'sessions', 'revoke', '--email', email, '--json'], env);
        expect(revoked.code).toBe(0);
        expect(JSON.parse(revoked.stdout)).toMatchObject({ email, revoked_sessions: 1 });
        expect((await sessions()).status).toBe(401);
      } finally {
        expect(await server.stop()).toBe(0);
      }
    },
    SLOW,
  );
});
