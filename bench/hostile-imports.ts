/**
 * Hostile report imports beside a health probe (issue 31 item 2): the service as users run it
 * (the JavaScript build, `node server/main.js`, PGlite in a temporary directory, loopback
 * only), four hostile imports sent in parallel, `BENCH_ROUNDS` times (3 by default):
 *
 * - a ZAP report of 20,480 `<!DOCTYPE` openings (~245 KB, the review's 12 s freeze);
 * - 200,000 unclosed `<a` (400 KB);
 * - 70,000 nested elements (490 KB);
 * - a 100 MB upload (over SCANWARD_IMPORT_LIMIT: 413);
 *
 * while `GET /api/health` is asked one request after another, from before the first import
 * until the last answers. Prints each import's status and time and the health probe's
 * p50/p99/max (goal: p99 under 100 ms), after the same probe alone (the machine's own noise).
 *
 *   npx tsx bench/hostile-imports.ts     (or `npm run bench -- hostile-imports`)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PASSWORD = 'bench-hostile-imports-password';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const zap = (prologue: string, body = '') =>
  Buffer.from(
    `<?xml version="1.0"?>${prologue}<OWASPZAPReport version="2.9.0"><site name="http://127.0.0.1" host="127.0.0.1" port="80" ssl="false"><alerts>${body}</alerts></site></OWASPZAPReport>`,
  );

const IMPORTS: Array<{ name: string; body: () => Buffer }> = [
  { name: '20,480 <!DOCTYPE openings', body: () => zap('<!DOCTYPE '.repeat(20_480)) },
  { name: '200,000 unclosed <a', body: () => Buffer.from(`<OWASPZAPReport>${'<a'.repeat(200_000)}`) },
  { name: '70,000 nested elements', body: () => zap('', `${'<a>'.repeat(70_000)}${'</a>'.repeat(70_000)}`) },
  { name: '100 MB upload', body: () => Buffer.alloc(100 * 1024 * 1024, 0x20) },
];

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startService(dataDir: string): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['server/main.js'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      HOST: '127.0.0.1',
      SCANWARD_DATA_DIR: dataDir,
      SCANWARD_ADMIN_PASSWORD: PASSWORD,
      SCANWARD_ADMIN_PLAN: 'enterprise',
      SCANWARD_SCAN_ALLOW: '127.0.0.0/8,::1,localhost',
      SCANWARD_ROLE: 'api',
      // The event loop's delay, read from /metrics (prom-client's monitor, reset at each read).
      SCANWARD_METRICS_PUBLIC: 'true',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Scanward API on')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the service exited with ${code} before listening`)));
  });
  return { child, base: `http://127.0.0.1:${port}` };
}

async function token(base: string): Promise<string> {
  const login = await fetch(`${base}/api/v1/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: 'admin@localhost', password: PASSWORD }),
  });
  if (login.status !== 200) throw new Error(`log-in: ${login.status} ${await login.text()}`);
  return ((await login.json()) as { access_token: string }).access_token;
}

const SENDER = `
const { parentPort, workerData } = require('node:worker_threads');
const { base, authorization, round, bodies } = workerData;
Promise.all(bodies.map(async ({ name, bytes }) => {
  const begin = performance.now();
  let status;
  try {
    const res = await fetch(base + '/api/v1/imports?target=bench-' + round, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/octet-stream' },
      body: new Uint8Array(bytes),
    });
    status = (res.status + ' ' + ((await res.json()).error_code ?? '')).trim();
  } catch (err) {
    status = 'connection closed (' + (err.cause ? err.cause.message : err.message) + ')';
  }
  return { name, status, ms: performance.now() - begin };
})).then((answers) => parentPort.postMessage(answers));
`;

interface Answer {
  name: string;
  status: string;
  ms: number;
}

function sendFromWorker(
  base: string,
  authorization: string,
  round: number,
  bodies: Array<{ name: string; bytes: Buffer }>,
): Promise<Answer[]> {
  const copies = bodies.map(({ name, bytes }) => ({ name, bytes: new Uint8Array(bytes).buffer }));
  const worker = new Worker(SENDER, {
    eval: true,
    workerData: { base, authorization, round, bodies: copies },
    transferList: copies.map((c) => c.bytes),
  });
  return new Promise((resolve, reject) => {
    worker.once('message', (answers: Answer[]) => {
      void worker.terminate();
      resolve(answers);
    });
    worker.once('error', reject);
  });
}

/** The event loop delay since the last read, from the service's /metrics, in ms. */
async function loopDelay(base: string): Promise<{ p99: number; max: number }> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const value = (name: string) =>
    Number(new RegExp(`^scanward_${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN) * 1000;
  return { p99: value('nodejs_eventloop_lag_p99_seconds'), max: value('nodejs_eventloop_lag_max_seconds') };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

const dataDir = mkdtempSync(path.join(tmpdir(), 'scanward-bench-imports-'));
const service = await startService(dataDir);
try {
  const authorization = `Bearer ${await token(service.base)}`;
  // BENCH_ONLY=DOCTYPE (a part of the names) sends only the imports it names.
  const only = process.env.BENCH_ONLY;
  const bodies = IMPORTS.filter((i) => !only || i.name.includes(only)).map((i) => ({
    ...i,
    bytes: i.body(),
  }));
  // The same probe with nothing else going on: what the machine itself gives.
  const idle: number[] = [];
  await loopDelay(service.base);
  for (let i = 0; i < 300; i++) {
    const begin = performance.now();
    await (await fetch(`${service.base}/api/health`)).arrayBuffer();
    idle.push(performance.now() - begin);
  }
  const idleLag = await loopDelay(service.base); // and resets the monitor: what follows is the imports' time
  const health: number[] = [];
  const rows: string[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    let importing = true;
    const probe = (async () => {
      while (importing) {
        const begin = performance.now();
        const res = await fetch(`${service.base}/api/health`);
        await res.arrayBuffer();
        health.push(performance.now() - begin);
      }
    })();
    // The imports are sent from a worker thread, so their 100 MB upload does not hold up the
    // probe's own event loop (the probe measures the service, not this client).
    const answers = await sendFromWorker(service.base, authorization, round, bodies);
    importing = false;
    await probe;
    for (const a of answers) rows.push(`| ${round} | ${a.name} | ${a.status} | ${a.ms.toFixed(0)} |`);
  }
  const lag = await loopDelay(service.base);
  const quiet = [...idle].sort((a, b) => a - b);
  console.log(
    `/api/health alone first: ${quiet.length} requests, p50 ${percentile(quiet, 50).toFixed(1)} ms, ` +
      `p99 ${percentile(quiet, 99).toFixed(1)} ms, max ${quiet.at(-1)!.toFixed(1)} ms; ` +
      `event loop delay p99 ${idleLag.p99.toFixed(1)} ms, max ${idleLag.max.toFixed(1)} ms\n`,
  );
  const sorted = [...health].sort((a, b) => a - b);
  console.log('| round | import | answer | ms |\n|---|---|---|---|');
  console.log(rows.join('\n'));
  console.log(
    `\n/api/health during the imports: ${sorted.length} requests, p50 ${percentile(sorted, 50).toFixed(1)} ms, ` +
      `p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms (goal: p99 < 100 ms)`,
  );
  console.log(
    `the service's event loop during the imports: delay p99 ${lag.p99.toFixed(1)} ms, max ${lag.max.toFixed(1)} ms ` +
      '(time the main thread could not run, whatever the machine was doing)',
  );
} finally {
  const exited = new Promise((resolve) => service.child.once('exit', resolve));
  service.child.kill('SIGTERM');
  await exited;
  rmSync(dataDir, { recursive: true, force: true });
}
