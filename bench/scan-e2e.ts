/**
 * Scans end to end, the way a user runs them, side by side with nmap in the same run:
 * the service started with `server/main.ts` on a fresh database (API and runner in one
 * process, `SCANWARD_ROLE=all`), a log-in, `POST /api/v1/scans`, then polling
 * `GET /api/v1/scans/{id}` every 50 ms until it completes. Times from the POST to
 * `completed` and, interleaved with each run, nmap's `-sT` scan of the same ports; prints
 * the median of each, the ratio, the load average beside every figure, the service's peak
 * RSS growth during the scan and each phase's share of the time from `phase_timings`.
 *
 *   npx tsx bench/scan-e2e.ts [runs=3] [scenario ...]
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/scan-e2e.ts
 *
 * Scenarios: `host` (127.0.0.1, ports 1-65535), `range24` (127.0.0.0/24, default ports),
 * `range22` (127.0.0.0/22, ports 1-1024), `host-min-rate` (as `host`, against
 * `nmap --min-rate 5000`), `quick` (127.0.0.1, default ports; no nmap).
 * With BENCH_DATABASE_URL the service runs on a fresh database created on that (loopback)
 * server and dropped afterwards; without it, on a fresh embedded PGlite directory.
 *
 * Loopback only: the service runs with SCANWARD_SCAN_ALLOW set to loopback, so it refuses
 * any other target itself, and nmap is only ever given the same loopback targets.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { LOOPBACK_SCOPE } from './loopback.ts';

interface Scenario {
  title: string;
  target: string;
  ports?: string;
  nmap?: string[];
}

const SCENARIOS: Record<string, Scenario> = {
  host: {
    title: 'quick scan of 127.0.0.1, ports 1-65535',
    target: '127.0.0.1',
    ports: '1-65535',
    nmap: ['-sT', '-Pn', '-n', '-T4', '-p-', '127.0.0.1'],
  },
  range24: {
    title: 'quick scan of 127.0.0.0/24, default ports',
    target: '127.0.0.0/24',
    nmap: ['-sT', '-Pn', '-n', '-T4', '--top-ports', '1000', '127.0.0.0/24'],
  },
  range22: {
    title: 'quick scan of 127.0.0.0/22, ports 1-1024',
    target: '127.0.0.0/22',
    ports: '1-1024',
    nmap: ['-sT', '-Pn', '-n', '-T4', '-p', '1-1024', '127.0.0.0/22'],
  },
  // The issue's next step: the single-host full range against nmap held to at least 5,000 probes a second.
  'host-min-rate': {
    title: 'quick scan of 127.0.0.1, ports 1-65535, against nmap --min-rate 5000',
    target: '127.0.0.1',
    ports: '1-65535',
    nmap: ['-sT', '-Pn', '-n', '-T4', '--min-rate', '5000', '-p-', '127.0.0.1'],
  },
  quick: { title: 'quick scan of 127.0.0.1, default ports', target: '127.0.0.1' },
};

const args = process.argv.slice(2);
const runs = /^\d+$/.test(args[0] ?? '') ? Number(args.shift()) : 3;
const chosen = args.length > 0 ? args : ['host', 'range24', 'range22'];
for (const name of chosen) {
  if (!(name in SCENARIOS)) {
    console.error(`unknown scenario ${name}; choose from ${Object.keys(SCENARIOS).join(', ')}`);
    process.exit(2);
  }
}
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PASSWORD = 'bench-password-0123456789';
const POLL_MS = Number(process.env.BENCH_POLL_MS ?? 50);

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

/** A fresh database: a PGlite directory, or a new database on the loopback PostgreSQL server given. */
async function freshDatabase(): Promise<{
  env: Record<string, string>;
  label: string;
  drop(): Promise<void>;
}> {
  const url = process.env.BENCH_DATABASE_URL;
  if (!url) {
    const dataDir = mkdtempSync(join(tmpdir(), 'scanward-bench-'));
    return {
      env: { SCANWARD_DATA_DIR: dataDir },
      label: 'PGlite',
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const server = new URL(url);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(server.hostname))
    throw new Error('BENCH_DATABASE_URL must point at a loopback server');
  const name = `scanward_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`drop database if exists ${name}`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const own = new URL(url);
  own.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: own.toString() },
    label: 'PostgreSQL',
    drop: async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

async function startService(port: number, dbEnv: Record<string, string>): Promise<ChildProcess> {
  // BENCH_NODE_ARGS, e.g. `--cpu-prof`, profiles the service.
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  // The JavaScript build, as `npm start` runs it (bench/run.ts builds it when stale).
  const child = spawn(process.execPath, [...nodeArgs, 'server/main.js'], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...dbEnv,
      PORT: String(port),
      HOST: '127.0.0.1',
      SCANWARD_ADMIN_PASSWORD: PASSWORD,
      SCANWARD_SCAN_ALLOW: LOOPBACK_SCOPE.join(','),
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Scanward API on')) resolve();
      if (process.env.BENCH_LOG_LEVEL) process.stderr.write(chunk);
    });
    child.once('exit', (code) => reject(new Error(`the service exited with ${code} before listening`)));
  });
  return child;
}

/** Resident set size of a process in kB: now, and its peak since the last reset. */
function memoryOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: field('VmRSS'), hwm: field('VmHWM') };
}

/** Resets the peak RSS (VmHWM) of a process, where the kernel lets us. */
function resetPeak(pid: number): void {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // Not permitted: the peak is then the process's peak since it started.
  }
}

interface ScanView {
  status: string;
  error?: string;
  phase_timings?: { queue_wait?: number; phases: Record<string, number>; completion?: number };
}

interface Figure {
  ms: number;
  load: number;
}

const load = () => loadavg()[0]!;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/**
 * nmap's wall time. Spawned asynchronously: a synchronous spawn would freeze this process's
 * HTTP client for the whole nmap run, and its idle keep-alive connection to the service,
 * closed by the server meanwhile, would then be reused and fail.
 */
async function runNmap(argv: string[]): Promise<Figure> {
  const begin = performance.now();
  const child = spawn('nmap', argv, { stdio: 'ignore' });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`nmap ${argv.join(' ')} failed (${code})`);
  return { ms: performance.now() - begin, load: load() };
}

async function main(): Promise<void> {
  const hasNmap = spawnSync('nmap', ['--version'], { stdio: 'ignore' }).status === 0;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const database = await freshDatabase();
  const service = await startService(port, database.env);
  try {
    const login = await fetch(`${base}/api/v1/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: 'admin@localhost', password: PASSWORD }),
    });
    const { access_token: token } = (await login.json()) as { access_token: string };
    const auth = { authorization: `Bearer ${token}` };

    console.log(
      `${database.label}, role all; ${cpus().length} CPUs; ${new Date().toISOString()}; ` +
        `load average at the start ${load().toFixed(2)}\n`,
    );
    const rows: string[] = [];
    for (const name of chosen) {
      const scenario = SCENARIOS[name]!;
      const ours: Figure[] = [];
      const theirs: Figure[] = [];
      const peaks: number[] = [];
      let timings: ScanView['phase_timings'];
      let total = 0;
      for (let run = 0; run < runs; run++) {
        if (scenario.nmap && hasNmap) theirs.push(await runNmap(scenario.nmap));
        const before = memoryOf(service.pid!);
        resetPeak(service.pid!);
        const begin = performance.now();
        const created = await fetch(`${base}/api/v1/scans`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({
            target: scenario.target,
            scan_type: 'quick',
            authorized: true,
            ...(scenario.ports ? { ports: scenario.ports } : {}),
          }),
        });
        if (created.status !== 201)
          throw new Error(`POST /api/v1/scans: ${created.status} ${await created.text()}`);
        const { id } = (await created.json()) as { id: string };
        let scan: ScanView;
        for (;;) {
          scan = (await (await fetch(`${base}/api/v1/scans/${id}`, { headers: auth })).json()) as ScanView;
          if (['completed', 'failed', 'cancelled'].includes(scan.status)) break;
          await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        }
        const ms = performance.now() - begin;
        if (scan.status !== 'completed')
          throw new Error(`scan ${id} ended ${scan.status}: ${scan.error ?? ''}`);
        ours.push({ ms, load: load() });
        peaks.push(memoryOf(service.pid!).hwm - before.rss);
        timings = scan.phase_timings;
        total = ms;
      }
      const oursMs = median(ours.map((f) => f.ms));
      const nmapMs = theirs.length > 0 ? median(theirs.map((f) => f.ms)) : undefined;
      const loads = [...ours, ...theirs].map((f) => f.load);
      rows.push(
        `| ${scenario.title} | ${s(oursMs)} (${ours.map((f) => s(f.ms)).join(', ')}) | ` +
          `${nmapMs === undefined ? '–' : `${s(nmapMs)} (${theirs.map((f) => s(f.ms)).join(', ')})`} | ` +
          `${nmapMs === undefined ? '–' : `${(oursMs / nmapMs).toFixed(2)}×`} | ` +
          `${Math.round(Math.max(...peaks) / 1024)} MB | ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} |`,
      );
      if (timings) {
        console.log(`Phase timings of the last ${scenario.title} (of ${s(total)} from POST to completed):\n`);
        console.log('| step | ms | share |');
        console.log('| --- | ---: | ---: |');
        const share = (ms: number) => `${((100 * ms) / total).toFixed(0)} %`;
        const steps: [string, number | undefined][] = [
          ['queue wait (creation → claim)', timings.queue_wait],
          ...Object.entries(timings.phases),
          ['completion', timings.completion],
        ];
        let accounted = 0;
        for (const [step, ms] of steps) {
          if (ms === undefined) continue;
          accounted += ms;
          console.log(`| ${step} | ${ms} | ${share(ms)} |`);
        }
        console.log(
          `| rest (HTTP, polling every ${POLL_MS} ms, commits) | ${Math.round(total - accounted)} | ${share(total - accounted)} |\n`,
        );
      }
    }
    console.log(`## End to end against nmap (${database.label}, median of ${runs}, interleaved)\n`);
    console.log('| work | Scanward (create → completed) | nmap | ratio | peak RSS growth | load average |');
    console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
    for (const row of rows) console.log(row);
    if (!hasNmap) console.log('\n(nmap is not installed: no comparison)');
  } finally {
    service.kill('SIGTERM');
    await new Promise((resolve) => service.once('exit', resolve));
    await database.drop();
  }
}

await main();
