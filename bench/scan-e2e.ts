/**
 * A scan of 127.0.0.1 end to end, the way a user runs one: the service started
 * with `server/main.ts` on a fresh embedded database (API and runner in one
 * process), a log-in, `POST /api/v1/scans`, then polling `GET /api/v1/scans/{id}`
 * until it completes. Times from the POST to `completed`, and prints the
 * services the scan identified.
 *
 *   npx tsx bench/scan-e2e.ts [runs=3] [scan_type=quick]
 *
 * Loopback only: the service runs with SCANWARD_SCAN_ALLOW set to loopback, so
 * it refuses any other target itself.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOOPBACK_SCOPE } from './loopback.ts';

const runs = Number(process.argv[2] ?? 3);
const scanType = process.argv[3] ?? 'quick';
const TARGET = '127.0.0.1';
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PASSWORD = 'bench-password-0123456789';

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

async function startService(port: number, dataDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SCANWARD_DATA_DIR: dataDir,
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
  return child;
}

interface ScanView {
  status: string;
  progress: number;
  phase: string;
  error?: string;
}

async function main(): Promise<void> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'scanward-bench-'));
  const base = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const service = await startService(port, dataDir);
  const startupMs = performance.now() - started;
  try {
    const login = await fetch(`${base}/api/v1/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: 'admin@localhost', password: PASSWORD }),
    });
    const { access_token: token } = (await login.json()) as { access_token: string };
    const auth = { authorization: `Bearer ${token}` };

    const times: number[] = [];
    let services: string[] = [];
    for (let run = 0; run < runs; run++) {
      const begin = performance.now();
      const created = await fetch(`${base}/api/v1/scans`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ target: TARGET, scan_type: scanType, authorized: true }),
      });
      if (created.status !== 201)
        throw new Error(`POST /api/v1/scans: ${created.status} ${await created.text()}`);
      const { id } = (await created.json()) as { id: string };
      let scan: ScanView;
      for (;;) {
        scan = (await (await fetch(`${base}/api/v1/scans/${id}`, { headers: auth })).json()) as ScanView;
        if (['completed', 'failed', 'cancelled'].includes(scan.status)) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const ms = performance.now() - begin;
      if (scan.status !== 'completed')
        throw new Error(`scan ${id} ended ${scan.status}: ${scan.error ?? ''}`);
      times.push(ms);
      const findings = (await (
        await fetch(`${base}/api/v1/scans/${id}/findings?per_page=100`, { headers: auth })
      ).json()) as { items: { affected_component: string; title: string; severity: string }[] };
      services = findings.items
        .map((f) => `${f.severity.padEnd(8)} ${f.affected_component}  ${f.title}`)
        .sort();
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)]!;
    console.log(
      `## ${scanType} scan of ${TARGET}, end to end (${cpus().length} CPUs, load ${loadavg()[0]!.toFixed(2)})\n`,
    );
    console.log(`service start (fresh PGlite, migrations, bootstrap): ${(startupMs / 1000).toFixed(1)} s\n`);
    console.log('| runs | median | min | max |');
    console.log('| ---: | ---: | ---: | ---: |');
    console.log(
      `| ${times.length} | ${(median / 1000).toFixed(2)} s | ${(times[0]! / 1000).toFixed(2)} s | ${(times[times.length - 1]! / 1000).toFixed(2)} s |\n`,
    );
    console.log('Findings of the last run:\n');
    console.log('```');
    for (const line of services) console.log(line);
    console.log('```');
  } finally {
    service.kill('SIGTERM');
    await new Promise((resolve) => service.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
