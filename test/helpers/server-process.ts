import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_ENV } from './app.ts';

/**
 * Real server processes, as `npm start` runs them (`node server/main.js`, the JavaScript build that
 * test/helpers/global-setup.ts keeps current, no TypeScript loader), on free loopback ports, for
 * the tests of start-up, restarts and several processes.
 */

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A TCP port free on 127.0.0.1 right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
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

/** The command line `npm start` runs (package.json), after `node`. */
export const SERVER_ENTRY = ['server/main.js'];

/** Starts `node server/main.js` as its own process on a free loopback port. */
export async function spawnServer(env: Record<string, string>): Promise<ServerProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  // One process, as a supervisor runs it (docs/self-hosting.md): npm would be a second process
  // that does not pass a SIGTERM sent to it alone on to the server.
  const child = spawn(process.execPath, SERVER_ENTRY, {
    cwd: REPO_ROOT,
    env: childEnv({ ...env, PORT: String(port) }),
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so cleanup reaches whatever it starts (nmap) as well.
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
