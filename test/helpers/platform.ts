import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { Knex } from 'knex';
import { API_KEY_PREFIX, hashApiKey } from '../../server/auth/gatekeeper.ts';
import { createSession } from '../../server/auth/sessions.ts';
import { issueToken } from '../../server/auth/tokens.ts';
import { createApp } from '../../server/app.ts';
import { createHttpServer } from '../../server/http/server.ts';
import { loadConfig } from '../../server/config.ts';
import type { Database } from '../../server/db/index.ts';
import type { AnyRoute } from '../../server/http/contract.ts';
import { newId } from '../../server/identity/ids.ts';
import { createLogger } from '../../server/logger.ts';
import { allRoutes } from '../../server/routes/index.ts';
import type { Permission } from '../../server/schemas/common.ts';
import { startRuntime } from '../../server/services.ts';
import { TEST_ENV, type TestApp } from './app.ts';
import { createTestDatabase } from './database.ts';

/**
 * Helpers for the platform tests: an app with throwaway routes and a captured
 * log, credentials minted without the login endpoint, and real server
 * processes (`tsx server/main.ts`) on free loopback ports.
 */

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface PlatformApp extends TestApp {
  database: Database;
  /** Every log line the app wrote, parsed (only when `captureLogs` was set). */
  logs: Array<Record<string, unknown>>;
  /** The raw log output, for asserting that a secret appears nowhere. */
  rawLogs(): string;
}

export interface PlatformAppOptions {
  env?: Record<string, string>;
  /** Extra routes served beside the production ones (tests only). */
  extraRoutes?: AnyRoute[];
  /** Keep the log lines (at level info) instead of discarding them. */
  captureLogs?: boolean;
}

/**
 * Like startTestApp, with test-only routes added through createApp's `routes`
 * option (the production list stays as it is) and, optionally, the log captured.
 */
export async function startPlatformApp(options: PlatformAppOptions = {}): Promise<PlatformApp> {
  const testDb = await createTestDatabase();
  const config = loadConfig({
    ...TEST_ENV,
    ...(testDb.url ? { DATABASE_URL: testDb.url } : {}),
    ...(options.captureLogs ? { LOG_LEVEL: 'info' } : {}),
    ...options.env,
  });
  let raw = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      raw += chunk.toString('utf8');
      done();
    },
  });
  const logger = createLogger(config.logLevel, sink);
  const { services, database } = await startRuntime(config, logger, {
    validateResponses: true,
    dataDir: 'memory://',
  });
  const app = createApp(services, { routes: [...allRoutes, ...(options.extraRoutes ?? [])] });
  const server: Server = createHttpServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let closed = false;
  return {
    url,
    services,
    config,
    database,
    get logs() {
      return raw
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    },
    rawLogs: () => raw,
    request: (p, init) => fetch(url + p, init),
    close: async () => {
      if (closed) return;
      closed = true;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // The database may already be closed by a test that takes it down on purpose.
      await database.close().catch(() => undefined);
      await testDb.drop();
    },
  };
}

/** Opens a session for a user directly in the database and signs a bearer token for it. */
export async function mintBearerToken(
  db: Knex,
  jwtSecret: Uint8Array,
  user: { id: string; orgId: string },
): Promise<string> {
  const session = await createSession(
    db,
    { orgId: user.orgId, userId: user.id },
    { ip: '127.0.0.1', userAgent: 'platform-test' },
  );
  const token = await issueToken(jwtSecret, { sub: user.id, org: user.orgId, sid: session.id });
  return token.access_token;
}

/** Inserts an API key row for a user and returns the secret key. */
export async function mintApiKey(
  db: Knex,
  user: { id: string; orgId: string },
  permissions: Permission[] = ['read:scans'],
): Promise<string> {
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  await db('api_keys').insert({
    id: newId('key'),
    org_id: user.orgId,
    user_id: user.id,
    name: 'platform test key',
    prefix: key.slice(0, 10),
    key_hash: hashApiKey(key),
    permissions,
  });
  return key;
}

/** A TCP port free on 127.0.0.1 right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Polls until `check` returns a value, or fails after the deadline with the last error. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  port: number;
  /** Everything written to stdout and stderr so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal's name). */
  exited: Promise<number | string>;
  /** Resolves once a stdout line satisfies the predicate. */
  waitForOutput(predicate: (line: string) => boolean, what: string, timeoutMs?: number): Promise<string>;
  /** Resolves once GET /api/health answers 200; rejects if the process exits first. */
  ready(timeoutMs?: number): Promise<void>;
  /** SIGKILLs the process group if the server is still running (cleanup). */
  kill(): void;
}

/** Environment of a child server: the parent's PATH and HOME, none of its Scanward or database settings. */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = {};
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG'])
    if (process.env[name]) base[name] = process.env[name];
  return { ...base, ...TEST_ENV, LOG_LEVEL: 'info', HOST: '127.0.0.1', ...env };
}

/** Starts `tsx server/main.ts` as its own process on a free loopback port. */
export async function spawnServer(env: Record<string, string>): Promise<ServerProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const child = spawn(path.join(REPO_ROOT, 'node_modules/.bin/tsx'), ['server/main.ts'], {
    cwd: REPO_ROOT,
    env: childEnv({ ...env, PORT: String(port) }),
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so cleanup reaches the node process tsx starts as well.
    detached: true,
  });
  let out = '';
  let err = '';
  const listeners = new Set<() => void>();
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
    for (const l of listeners) l();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
  });
  let exitCode: number | string | undefined;
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => {
      exitCode = code ?? signal ?? 'unknown';
      for (const l of listeners) l();
      resolve(exitCode);
    });
  });
  const url = `http://127.0.0.1:${port}`;

  const waitForOutput = (predicate: (line: string) => boolean, what: string, timeoutMs = 90_000) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        listeners.delete(check);
        reject(new Error(`timed out waiting for ${what}; stdout:\n${out}\nstderr:\n${err}`));
      }, timeoutMs);
      function check() {
        const line = out.split('\n').find(predicate);
        if (line !== undefined) {
          clearTimeout(timer);
          listeners.delete(check);
          resolve(line);
        } else if (exitCode !== undefined) {
          clearTimeout(timer);
          listeners.delete(check);
          reject(new Error(`server exited (${exitCode}) before ${what}; stderr:\n${err}`));
        }
      }
      listeners.add(check);
      check();
    });

  return {
    child,
    url,
    port,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitForOutput,
    ready: async (timeoutMs = 90_000) => {
      await waitForOutput((line) => line.includes('"msg":"listening"'), 'the server to listen', timeoutMs);
      const res = await fetch(`${url}/api/health`);
      if (res.status !== 200) throw new Error(`health answered ${res.status}`);
    },
    kill: () => {
      if (exitCode === undefined && child.pid) process.kill(-child.pid, 'SIGKILL');
    },
  };
}
