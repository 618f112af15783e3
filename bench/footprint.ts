/**
 * `npm run bench -- footprint`: the service's memory as a user runs it (`npm start`: the built
 * JavaScript, `node server/main.js`, role `all`, fresh database, loopback scope), on both
 * databases, printed beside the goals of issue 25:
 *
 * - resident memory (VmRSS) idle after start: PostgreSQL (BENCH_DATABASE_URL, default the
 *   loopback server), and the embedded PGlite on its first start (a new data directory) and on
 *   a restart;
 * - at idle, the API's latency (GET /api/health and an authenticated list, p99 of 200 each);
 * - the first scan's latency: a full scan of 127.0.0.1, ports 1-65535 (the service's clock,
 *   created_at → completed_at), and the peak RSS growth over it (VmHWM, reset before, less VmRSS
 *   before);
 * - the peak RSS growth over a full scan of 127.0.0.0/24, default ports.
 *
 * Plus, for each database, the breakdown by subsystem (bench/footprint-stages.mjs).
 *
 * To compare with an earlier version, point it at that version's checkout and the command its
 * `npm start` ran (the breakdown is skipped then):
 *   BENCH_SERVICE_ROOT=/tmp/before BENCH_SERVICE_ARGS='--import tsx server/main.ts' npm run bench -- footprint
 *
 * Loopback only: every scan target is in 127.0.0.0/8 and the service runs under a loopback
 * scope policy, which refuses anything else. Port 2024, where this machine's own harness listens
 * on every address, is left out of the scans' port lists, so no check or template talks to it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { buildIfStale } from '../server/cli/build.mjs';
import { DEFAULT_PORTS } from '../server/scanner/check-registry.ts';
import { formatPortSpec, parsePortSpec } from '../server/scanner/net/ports.ts';
import { LOOPBACK_SCOPE } from './loopback.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The checkout and the node arguments of the service measured: this one, as `npm start` runs it. */
const SERVICE_ROOT = process.env.BENCH_SERVICE_ROOT ?? ROOT;
const SERVICE_ARGS = process.env.BENCH_SERVICE_ARGS?.split(' ') ?? ['server/main.js'];
const PASSWORD = 'bench-password-0123456789';
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** Where the harness of this machine listens on every loopback address: never scanned. */
const HARNESS_PORT = 2024;
const HOST_PORTS = formatPortSpec(parsePortSpec('1-65535').filter((p) => p !== HARNESS_PORT));
/** The default ports (unset), which do not include the harness's. */
if (DEFAULT_PORTS.includes(HARNESS_PORT)) throw new Error(`the default ports include ${HARNESS_PORT}`);
const SETTLE_MS = 5000;

const load = () => loadavg()[0]!.toFixed(1);
const mb = (kb: number) => Math.round(kb / 1024);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function memoryOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: field('VmRSS'), hwm: field('VmHWM') };
}

function resetPeak(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

interface Database {
  label: string;
  env: Record<string, string>;
  drop(): Promise<void>;
}

async function postgres(): Promise<Database> {
  const server = new URL(PG_URL);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(server.hostname))
    throw new Error('BENCH_DATABASE_URL must point at a loopback server');
  const name = `scanward_footprint_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${name}`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const own = new URL(PG_URL);
  own.pathname = `/${name}`;
  return {
    label: 'PostgreSQL',
    env: { DATABASE_URL: own.toString() },
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

function pglite(): Database {
  const dataDir = mkdtempSync(join(tmpdir(), 'scanward-footprint-'));
  return {
    label: 'PGlite',
    env: { SCANWARD_DATA_DIR: dataDir },
    drop: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

interface Service {
  child: ChildProcess;
  base: string;
  stop(): Promise<void>;
}

async function startService(dbEnv: Record<string, string>): Promise<Service> {
  const port = await freePort();
  const child = spawn(process.execPath, SERVICE_ARGS, {
    cwd: SERVICE_ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...dbEnv,
      PORT: String(port),
      HOST: '127.0.0.1',
      SCANWARD_ADMIN_PASSWORD: PASSWORD,
      SCANWARD_SCAN_ALLOW: LOOPBACK_SCOPE.join(','),
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
  return {
    child,
    base: `http://127.0.0.1:${port}`,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function settledRss(service: Service): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  return memoryOf(service.child.pid!).rss;
}

async function token(base: string): Promise<string> {
  const login = await fetch(`${base}/api/v1/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: 'admin@localhost', password: PASSWORD }),
  });
  return ((await login.json()) as { access_token: string }).access_token;
}

/** p99 of `count` requests one after the other, in ms. */
async function p99(url: string, headers: Record<string, string>, count = 200): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const begin = performance.now();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    times.push(performance.now() - begin);
  }
  times.sort((a, b) => a - b);
  return times[Math.ceil(count * 0.99) - 1]!;
}

interface ScanFigures {
  ms: number;
  beforeMb: number;
  peakGrowthMb: number;
  findings: number;
}

async function fullScan(service: Service, auth: Record<string, string>, target: string, ports?: string) {
  const pid = service.child.pid!;
  const before = memoryOf(pid);
  resetPeak(pid);
  const created = await fetch(`${service.base}/api/v1/scans`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ target, ...(ports ? { ports } : {}), scan_type: 'full', authorized: true }),
  });
  if (created.status !== 201)
    throw new Error(`POST /api/v1/scans: ${created.status} ${await created.text()}`);
  const { id } = (await created.json()) as { id: string };
  let scan: {
    status: string;
    error?: string;
    created_at: string;
    completed_at: string | null;
    vulnerabilities_found: number;
  };
  for (;;) {
    scan = (await (
      await fetch(`${service.base}/api/v1/scans/${id}`, { headers: auth })
    ).json()) as typeof scan;
    if (['completed', 'failed', 'cancelled'].includes(scan.status)) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  if (scan.status !== 'completed') throw new Error(`scan ${id} ended ${scan.status}: ${scan.error ?? ''}`);
  return {
    ms: Date.parse(scan.completed_at!) - Date.parse(scan.created_at),
    beforeMb: mb(before.rss),
    peakGrowthMb: mb(memoryOf(pid).hwm - before.rss),
    findings: scan.vulnerabilities_found,
  } satisfies ScanFigures;
}

interface Result {
  label: string;
  idleMb: number;
  restartIdleMb?: number;
  healthP99: number;
  listP99: number;
  host: ScanFigures;
  range: ScanFigures;
  load: string;
}

async function measure(database: Database): Promise<Result> {
  let service = await startService(database.env);
  try {
    const idleMb = mb(await settledRss(service));
    let restartIdleMb: number | undefined;
    if (database.label === 'PGlite') {
      await service.stop();
      service = await startService(database.env);
      restartIdleMb = mb(await settledRss(service));
    }
    const auth = { authorization: `Bearer ${await token(service.base)}` };
    const healthP99 = await p99(`${service.base}/api/health`, {});
    const listP99 = await p99(`${service.base}/api/v1/scans?per_page=20`, auth);
    const host = await fullScan(service, auth, '127.0.0.1', HOST_PORTS);
    const range = await fullScan(service, auth, '127.0.0.0/24');
    return { label: database.label, idleMb, restartIdleMb, healthP99, listP99, host, range, load: load() };
  } finally {
    await service.stop();
    await database.drop();
  }
}

function stages(env: Record<string, string>): string[] {
  const run = spawnSync(process.execPath, ['--expose-gc', 'bench/footprint-stages.mjs'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`footprint-stages failed: ${run.stderr}`);
  return run.stdout
    .trim()
    .split('\n')
    .map((line) => {
      const s = JSON.parse(line) as Record<string, number | string>;
      return `| ${s.step} | ${s.rss} | ${Number(s.delta) >= 0 ? '+' : ''}${s.delta} | ${s.heapUsed} | ${s.external} |`;
    });
}

async function main(): Promise<void> {
  if (await buildIfStale()) console.error('(rebuilt the JavaScript first)');
  console.log(
    `${new Date().toISOString()}; ${cpus().length} CPUs, ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.versions.node}; ` +
      `load average at the start ${load()}; service ${SERVICE_ROOT} ${SERVICE_ARGS.join(' ')}\n`,
  );
  const results: Result[] = [];
  for (const database of [await postgres(), pglite()]) results.push(await measure(database));
  const [pgResult, liteResult] = results as [Result, Result];

  const scanRow = (r: Result, f: ScanFigures) =>
    `${(f.ms / 1000).toFixed(1)} s, +${f.peakGrowthMb} MB (from ${f.beforeMb} MB), ${f.findings} findings`;
  console.log('| measure | goal | PostgreSQL | PGlite |');
  console.log('|---|---|---:|---:|');
  console.log(
    `| RSS idle after start | ≤ 150 MB (PostgreSQL), ≤ 800 MB (PGlite) | ${pgResult.idleMb} MB | ${liteResult.idleMb} MB first start, ${liteResult.restartIdleMb} MB restart |`,
  );
  console.log(
    `| p99 GET /api/health at idle (200 requests) | ≤ 100 ms | ${pgResult.healthP99.toFixed(1)} ms | ${liteResult.healthP99.toFixed(1)} ms |`,
  );
  console.log(
    `| p99 GET /api/v1/scans at idle (200 requests) | ≤ 100 ms | ${pgResult.listP99.toFixed(1)} ms | ${liteResult.listP99.toFixed(1)} ms |`,
  );
  console.log(
    `| full scan of 127.0.0.1, ports 1-65535 (first scan): time, peak RSS growth | ≤ +150 MB | ${scanRow(pgResult, pgResult.host)} | ${scanRow(liteResult, liteResult.host)} |`,
  );
  console.log(
    `| full scan of 127.0.0.0/24, default ports: time, peak RSS growth | ≤ +150 MB | ${scanRow(pgResult, pgResult.range)} | ${scanRow(liteResult, liteResult.range)} |`,
  );
  console.log(`| load average after | | ${pgResult.load} | ${liteResult.load} |`);
  if (SERVICE_ROOT !== ROOT) return;

  for (const [label, env] of [
    ['PostgreSQL', { DATABASE_URL: PG_URL }],
    ['PGlite (new data directory)', {}],
  ] as const) {
    const database = label === 'PostgreSQL' ? await postgres() : undefined;
    try {
      console.log(
        `\n${label}, by subsystem (node --expose-gc bench/footprint-stages.mjs, MB after a full GC):\n`,
      );
      console.log('| step | RSS | Δ RSS | heap used | external |');
      console.log('|---|---:|---:|---:|---:|');
      for (const line of stages(database ? database.env : env)) console.log(line);
    } finally {
      await database?.drop();
    }
  }
}

await main();
