import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ServerProcess, spawnServer } from '../../helpers/server-process.ts';

/**
 * The server as operators run it (`node server/main.js`, the build `npm start` runs) on an embedded
 * database in a data directory: graceful shutdown and the data-dir lock.
 */

const ADMIN = { email: 'ops@example.test', password: 'correct-horse-battery' };
const basicAuth = `Basic ${Buffer.from(`${ADMIN.email}:${ADMIN.password}`).toString('base64')}`;

interface SlowUpload {
  /** Sends the rest of the body and resolves with the answer. */
  finish(): Promise<{ status: number; body: string }>;
}

/**
 * Starts a login whose form body is sent in two parts (chunked, no
 * Content-Length): the server cannot answer before the second part, so the
 * request stays in flight for as long as the test wants.
 */
async function startSlowLogin(url: string): Promise<SlowUpload> {
  const form = new URLSearchParams({ username: ADMIN.email, password: ADMIN.password }).toString();
  const cut = Math.floor(form.length / 2);
  const req = httpRequest(`${url}/api/v1/auth/token`, {
    method: 'POST',
    agent: false,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
  await new Promise<void>((resolve, reject) =>
    req.write(form.slice(0, cut), (err) => (err ? reject(err) : resolve())),
  );
  return {
    finish: () => {
      req.end(form.slice(cut));
      return answer;
    },
  };
}

describe('a server process on an embedded data directory (pglite)', () => {
  let root: string;
  let dataDir: string;
  const started: ServerProcess[] = [];
  const start = async () => {
    const server = await spawnServer({
      SCANWARD_DATA_DIR: dataDir,
      SCANWARD_ADMIN_EMAIL: ADMIN.email,
      SCANWARD_ADMIN_PASSWORD: ADMIN.password,
    });
    started.push(server);
    return server;
  };

  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), 'scanward-process-'));
  });
  beforeEach(({ task }) => {
    // A data directory per test: a test that fails half-way leaves no lock for the next.
    dataDir = path.join(root, String(task.id));
  });
  afterEach(async () => {
    for (const s of started.splice(0)) {
      s.kill();
      await s.exited;
    }
  });
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('refuses a second server on the same data directory, and the first keeps serving intact data', async () => {
    const first = await start();
    await first.ready();

    const second = await start();
    const code = await second.exited;
    expect(code).not.toBe(0);
    expect(second.stderr()).toMatch(/in use by another Scanward process/);
    expect(second.stderr()).toMatch(/Stop the server first/);
    expect(second.stderr()).toMatch(/PostgreSQL \(set DATABASE_URL\)/);

    const health = await fetch(`${first.url}/api/health`);
    expect(health.status).toBe(200);
    // The bootstrap admin, written before the second process tried, still logs in.
    const docs = await fetch(`${first.url}/openapi.json`, { headers: { authorization: basicAuth } });
    expect(docs.status).toBe(200);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
  }, 120_000);

  it('finishes an in-flight response on SIGTERM, exits 0 and releases the data directory', async () => {
    const server = await start();
    await server.ready();

    const login = await startSlowLogin(server.url);
    // A request on a later connection answered means the server has taken the login's connection too.
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);

    server.child.kill('SIGTERM');
    await server.waitForOutput((line) => line.includes('"msg":"shutting down"'), 'the shutdown to begin');
    // The login cannot be answered before its body is complete: the process must wait for it.
    expect(server.child.exitCode).toBeNull();

    const answer = await login.finish();
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ token_type: 'bearer', expires_in: 3600 });
    expect(await server.exited).toBe(0);
    expect(server.stdout()).toContain('"msg":"stopped"');

    // New connections are refused once it is gone, and the next server opens the same data at once.
    await expect(fetch(`${server.url}/api/health`)).rejects.toThrow();
    const next = await start();
    await next.ready();
    const docs = await fetch(`${next.url}/openapi.json`, { headers: { authorization: basicAuth } });
    expect(docs.status).toBe(200);
  }, 120_000);
});
