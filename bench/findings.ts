/**
 * Findings API benchmark on PostgreSQL: 100,000 findings in a fresh database.
 *
 *   npx tsx bench/findings.ts            (PostgreSQL at 127.0.0.1:5432, user postgres)
 *   BENCH_DATABASE_URL=postgres://…@127.0.0.1:5432/postgres npx tsx bench/findings.ts
 *   (BENCH_FINDINGS=n, BENCH_SECONDS=s, BENCH_SKIP_LOAD=1 for the export only, BENCH_KEEP=1)
 *
 * 1. The list (`?per_page=100&severity=high&sort=cvss_score`) and the statistics, with
 *    autocannon at 50 connections, against the real app (bearer token, enterprise org
 *    with unlimited request rate, response validation off) and against a minimal raw
 *    `pg` + node:http handler that runs the same SQL (built by the same query code),
 *    each in its own process, one after the other.
 * 2. The CSV export of all 100,000 findings, downloaded with curl: peak RSS growth of the
 *    app process while it streams, and wall time against `psql \copy` of the same columns
 *    in the same order (both C clients writing a file).
 *
 * Prints a markdown table. Loopback only: the database URL must point at 127.0.0.1,
 * ::1 or localhost. The database is dropped at the end (BENCH_KEEP=1 keeps it).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { createApp } from '../server/app.ts';
import { createSession } from '../server/auth/sessions.ts';
import { issueToken } from '../server/auth/tokens.ts';
import { loadConfig } from '../server/config.ts';
import { setFindingsCaching } from '../server/findings/caches.ts';
import { applyFilter, applyOrder, selectColumns } from '../server/findings/findings.repository.ts';
import { statsGroupsQuery, type StatsGroup } from '../server/findings/findings-stats.repository.ts';
import { LIST_COLUMNS } from '../server/findings/rows.ts';
import { foldStatsGroups } from '../server/findings/stats.ts';
import { createOrganization, setLimits } from '../server/identity/organizations.ts';
import { createUser } from '../server/identity/users.ts';
import { createLogger } from '../server/logger.ts';
import { startRuntime } from '../server/runtime.ts';

const FINDINGS = Number(process.env.BENCH_FINDINGS ?? 100_000);
const CONNECTIONS = 50;
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 15);
const WARMUP_S = 3;
const EXPORT_RUNS = 3;
const LIST_PATH = '/api/v1/findings?per_page=100&severity=high&sort=cvss_score';
const STATS_PATH = '/api/v1/findings/stats';

// ---------------------------------------------------------------------------------------
// Child process roles (dispatched at the end of the file): the app, or the raw handler.
// Each prints {"port": n} when listening.

/** Where the database is: a PostgreSQL URL, or a PGlite data directory. */
type Place = { databaseUrl: string } | { dataDir: string };

function childEnv(place: Place, jwtSecret: string): Record<string, string> {
  return {
    ...('databaseUrl' in place ? { DATABASE_URL: place.databaseUrl } : { SCANWARD_DATA_DIR: place.dataDir }),
    SCANWARD_JWT_SECRET: jwtSecret,
    SCANWARD_SCAN_ALLOW: '127.0.0.0/8,::1,localhost',
    SCANWARD_ADMIN_PASSWORD: `bench-${randomBytes(8).toString('hex')}`,
    LOG_LEVEL: 'silent',
  };
}

async function serveApp(): Promise<void> {
  const place: Place = process.env.DATABASE_URL
    ? { databaseUrl: process.env.DATABASE_URL }
    : { dataDir: process.env.SCANWARD_DATA_DIR! };
  const config = loadConfig(childEnv(place, process.env.SCANWARD_JWT_SECRET!));
  const { services } = await startRuntime(config, createLogger('silent'), { validateResponses: false });
  if (process.env.BENCH_FINDINGS_CACHE === 'off') setFindingsCaching(false);
  const server = createApp(services).listen(0, '127.0.0.1');
  server.once('listening', () => {
    process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
  });
}

/**
 * The baseline: the same SQL as the app (built by the app's own filter and order
 * code, then sent as plain parameterized queries through a `pg` pool of the same
 * size), the same JSON, and nothing else: no authentication, no validation, no
 * framework.
 */
async function serveRaw(): Promise<void> {
  const orgId = process.env.BENCH_ORG_ID!;
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL!, max: 10 });
  const builder = knexFactory({ client: 'pg' });
  const native = (q: Knex.QueryBuilder) => q.toSQL().toNative();

  const list = native(
    applyOrder(applyFilter(builder('findings'), orgId, { severity: 'high' }), 'cvss_score', 'desc')
      .select(selectColumns(builder, LIST_COLUMNS))
      .limit(100)
      .offset(0),
  );
  const count = native(applyFilter(builder('findings'), orgId, { severity: 'high' }).count({ n: '*' }));
  const server = createServer(async (req, res) => {
    try {
      let body: unknown;
      if (req.url === LIST_PATH) {
        const rows = (await pool.query(list.sql, list.bindings as unknown[])).rows as Record<
          string,
          unknown
        >[];
        const total = (await pool.query(count.sql, count.bindings as unknown[])).rows[0].n as number;
        body = {
          items: rows.map((r) => ({
            ...r,
            frameworks: (r.frameworks as { name: string }[]).map((f) => f.name),
          })),
          total,
          page: 1,
          per_page: 100,
          pages: Math.ceil(total / 100),
        };
      } else if (req.url === STATS_PATH) {
        const q = native(statsGroupsQuery(builder, orgId, {}, new Date()));
        body = foldStatsGroups((await pool.query(q.sql, q.bindings as unknown[])).rows as StatsGroup[]);
      } else {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    } catch (err) {
      res.writeHead(500).end(String(err));
    }
  });
  server.listen(0, '127.0.0.1', () => {
    process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
  });
}

// ---------------------------------------------------------------------------------------
// The orchestrator: database, seed, servers, load, export, table.

interface AutocannonResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  '2xx': number;
  non2xx: number;
  errors: number;
}
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
}) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

function assertLoopback(url: string): void {
  const host = new URL(url).hostname;
  if (!['127.0.0.1', 'localhost', '[::1]', '::1'].includes(host) && !host.startsWith('127.')) {
    throw new Error(`refusing to benchmark against ${host}: loopback only`);
  }
}

interface Child {
  process: ChildProcess;
  port: number;
  stop(): Promise<void>;
}

/** The caller's environment without database settings: each child gets its own. */
function inherited(): NodeJS.ProcessEnv {
  const { DATABASE_URL: _url, SCANWARD_DATA_DIR: _dir, ...rest } = process.env;
  return rest;
}

function startChild(which: 'app' | 'raw', env: Record<string, string>): Promise<Child> {
  const self = fileURLToPath(import.meta.url);
  const child = spawn(process.execPath, ['--import', 'tsx', self], {
    env: { ...inherited(), ...env, BENCH_FINDINGS_ROLE: which },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`${which} server exited with ${code}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (!line) return;
      child.removeAllListeners('exit');
      resolve({
        process: child,
        port: (JSON.parse(line) as { port: number }).port,
        stop: () =>
          new Promise<void>((done) => {
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

/** Resident set size of a process, in bytes (Linux /proc). */
function rssOf(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status);
  return match ? Number(match[1]) * 1024 : 0;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function seed(db: Knex, orgId: string, scanId: string): Promise<void> {
  await db.raw('select setseed(0.42)');
  await db.raw(
    `insert into findings (
       id, org_id, fingerprint, scan_id, last_scan_id, title, severity, severity_rank, status,
       cvss_score, cvss_vector, epss_score, target, affected_component, port, tool, template_id, category,
       cve_ids, cwe_ids, description, impact, remediation, evidence, frameworks, kev,
       detected_at, last_seen_at, times_seen, resolved_at, created_at, updated_at)
     select
       'finding_bench' || lpad(g::text, 11, '0'), ?, md5('bench' || g), ?, ?,
       case when g % 100 = 0 then '=HYPERLINK("x")' else 'Benchmark weakness ' || (g % 997) end,
       sev, case sev when 'critical' then 4 when 'high' then 3 when 'medium' then 2 when 'low' then 1 else 0 end,
       case when r3 < 0.70 then 'open' when r3 < 0.80 then 'in_progress' when r3 < 0.92 then 'resolved'
            when r3 < 0.97 then 'false_positive' else 'accepted' end,
       case sev when 'critical' then round((9 + r2)::numeric, 1) when 'high' then round((7 + r2 * 1.9)::numeric, 1)
                when 'medium' then round((4 + r2 * 2.9)::numeric, 1) when 'low' then round((0.1 + r2 * 3.8)::numeric, 1)
                else 0 end::float8,
       case when sev = 'info' then null else 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N' end,
       case when g % 4 = 0 then null else round(r2::numeric, 4)::float8 end,
       'host-' || (g % 500) || '.bench.example.test',
       'https://host-' || (g % 500) || '.bench.example.test:443/path/' || g, 443,
       (array['nuclei', 'scanward-http', 'scanward-tls', 'scanward-tcp', 'nmap'])[1 + g % 5],
       'bench-check-' || (g % 2000), 'misconfiguration',
       case when g % 3 = 0 then array['CVE-2024-' || lpad((g % 9000)::text, 4, '0')] else '{}'::text[] end,
       array['CWE-' || (g % 800)],
       repeat('A benchmark description of the weakness, its context and how it was found. ', 4),
       'An attacker could read data they should not, or change the service configuration.',
       jsonb_build_object('summary', 'Apply the vendor fix and restrict access.',
         'steps', jsonb_build_array('Upgrade the package', 'Restrict the listener', 'Rescan'),
         'code_example', 'server { add_header Strict-Transport-Security "max-age=31536000"; }',
         'references', jsonb_build_array('https://owasp.org/www-project-top-ten/')),
       jsonb_build_object('request', 'GET /path/' || g || E' HTTP/1.1\\r\\nHost: bench.example.test',
         'response', E'HTTP/1.1 200 OK\\r\\nServer: bench\\r\\n\\r\\n' || repeat('x', 600), 'screenshot_url', null),
       '[{"name":"soc2","controls":["ctrl_soc2_cc7_1"]},{"name":"pci-dss","controls":["ctrl_pci_dss_6_3_3"]}]'::jsonb,
       g % 50 = 0,
       now() - r4 * interval '180 days', now() - r4 * interval '10 days', 1 + (g % 5),
       case when r3 >= 0.80 and r3 < 0.92 then now() - r4 * interval '180 days' + r2 * interval '20 days' end,
       now(), now()
     from (
       select g, random() as r1, random() as r2, random() as r3, random() as r4 from generate_series(1, ?::int) g
     ) r
     cross join lateral (
       select case when r1 < 0.05 then 'critical' when r1 < 0.30 then 'high' when r1 < 0.65 then 'medium'
                   when r1 < 0.85 then 'low' else 'info' end as sev
     ) s`,
    [orgId, scanId, scanId, FINDINGS],
  );
  // resolved_at never later than now.
  await db.raw('update findings set resolved_at = least(resolved_at, now()) where resolved_at is not null');
  await db.raw(
    `insert into finding_observations (scan_id, finding_id, org_id, severity, change, observed_at)
     select scan_id, id, org_id, severity, 'new', detected_at from findings where org_id = ?`,
    [orgId],
  );
  // Steady state: autovacuum would have set the visibility map (index-only scans) by now.
  await db.raw('vacuum analyze findings, finding_observations');
}

interface LoadRow {
  name: string;
  app: AutocannonResult;
  uncached: AutocannonResult;
  raw: AutocannonResult;
}

async function load(url: string, headers: Record<string, string>): Promise<AutocannonResult> {
  await autocannon({ url, connections: CONNECTIONS, duration: WARMUP_S, headers });
  return autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
}

interface ExportRun {
  ms: number;
  bytes: number;
  rssGrowth: number;
}

/**
 * Downloads the CSV export with curl (a C client, like psql on the other side of the
 * comparison), writing it to a file as psql does, while sampling the app's RSS.
 */
async function exportOnce(app: Child, token: string): Promise<ExportRun> {
  const pid = app.process.pid!;
  const out = `/tmp/scanward-bench-export-${process.pid}.csv`;
  const before = rssOf(pid);
  writeFileSync(`/proc/${pid}/clear_refs`, '5'); // resets VmHWM to the current RSS
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 5);
  const started = performance.now();
  const status = await new Promise<string>((resolve, reject) => {
    const curl = spawn(
      'curl',
      [
        '-sS',
        '-o',
        out,
        '-w',
        '%{http_code}',
        '-H',
        `authorization: Bearer ${token}`,
        `http://127.0.0.1:${app.port}/api/v1/findings/export?format=csv`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let written = '';
    curl.stdout.on('data', (chunk: Buffer) => (written += chunk.toString()));
    curl.once('error', reject);
    curl.once('close', () => resolve(written));
  });
  const ms = performance.now() - started;
  clearInterval(sampler);
  if (status !== '200') throw new Error(`export answered ${status}`);
  peak = Math.max(peak, rssOf(pid, 'VmHWM'));
  const bytes = readFileSync(out).byteLength;
  rmSync(out, { force: true });
  return { ms, bytes, rssGrowth: peak - before };
}

function psqlCopy(databaseUrl: string, orgId: string): { ms: number; bytes: number } {
  const columns =
    'id, title, severity, status, cvss_score, epss_score, target, affected_component, tool, template_id, ' +
    'cve_ids, cwe_ids, scan_id, detected_at, frameworks, description';
  const out = `/tmp/scanward-bench-copy-${process.pid}.csv`;
  const sql =
    `\\copy (select ${columns} from findings where org_id = '${orgId}' ` +
    `order by severity_rank desc, detected_at desc, id desc) to '${out}' with (format csv, header)`;
  const started = performance.now();
  const result = spawnSync('psql', ['-X', '-q', '-d', databaseUrl, '-c', sql], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const ms = performance.now() - started;
  if (result.status !== 0) throw new Error(`psql failed: ${result.stderr.toString()}`);
  const bytes = readFileSync(out).byteLength;
  rmSync(out, { force: true });
  return { ms, bytes };
}

async function orchestrate(): Promise<void> {
  const engine = process.env.BENCH_ENGINE === 'pglite' ? 'pglite' : 'postgres';
  const base = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `scanward_bench_${randomBytes(4).toString('hex')}`;
  let place: Place;
  let cleanup: () => Promise<void>;
  if (engine === 'postgres') {
    assertLoopback(base);
    const admin = knexFactory({ client: 'pg', connection: base, pool: { min: 0, max: 1 } });
    await admin.raw(`create database ${name}`);
    const url = new URL(base);
    url.pathname = `/${name}`;
    place = { databaseUrl: url.toString() };
    cleanup = async () => {
      if (!process.env.BENCH_KEEP) await admin.raw(`drop database if exists ${name} with (force)`);
      await admin.destroy();
    };
  } else {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'scanward-bench-pglite-'));
    place = { dataDir };
    cleanup = async () => {
      if (!process.env.BENCH_KEEP) rmSync(dataDir, { recursive: true, force: true });
    };
  }
  const jwtSecret = randomBytes(48).toString('base64url');
  const env = childEnv(place, jwtSecret);
  const children: Child[] = [];

  try {
    const config = loadConfig(env);
    const { services, database } = await startRuntime(config, createLogger('silent'), {
      dataDir: 'dataDir' in place ? place.dataDir : undefined,
    });
    const db = services.db;
    const org = await createOrganization(db, { name: 'Bench Corp', plan: 'enterprise' });
    await setLimits(db, org.id, { hourly: -1, daily: -1 });
    const user = await createUser(db, {
      orgId: org.id,
      email: 'bench@bench.example.test',
      password: randomBytes(12).toString('hex'),
      role: 'admin',
    });
    const session = await createSession(
      db,
      { orgId: org.id, userId: user.id },
      { ip: '127.0.0.1', userAgent: 'bench' },
    );
    const { access_token: token } = await issueToken(services.keys.jwtSecret, {
      sub: user.id,
      org: org.id,
      sid: session.id,
    });
    const scanId = `scan_bench${randomBytes(8).toString('hex')}`;
    await db('scans').insert({
      id: scanId,
      org_id: org.id,
      target: '127.0.0.0/24',
      scan_type: 'full',
      status: 'completed',
      phase: 'complete',
      progress: 100,
      estimated_duration: 3600,
    });
    const seeding = performance.now();
    await seed(db, org.id, scanId);
    console.error(`seeded ${FINDINGS} findings in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);
    await database.close();

    const auth = { authorization: `Bearer ${token}` };
    const rows: LoadRow[] = [];
    // The raw baseline is a PostgreSQL client: on PGlite only the export is measured.
    const loadCases =
      process.env.BENCH_SKIP_LOAD || engine === 'pglite'
        ? []
        : ([
            ['GET /api/v1/findings?per_page=100&severity=high&sort=cvss_score', LIST_PATH],
            ['GET /api/v1/findings/stats', STATS_PATH],
          ] as const);
    for (const [label, path] of loadCases) {
      const measure = async (
        which: 'app' | 'raw',
        extra: Record<string, string>,
        headers: Record<string, string>,
      ) => {
        const child = await startChild(which, { ...env, ...extra });
        children.push(child);
        const result = await load(`http://127.0.0.1:${child.port}${path}`, headers);
        await child.stop();
        return result;
      };
      const appResult = await measure('app', {}, auth);
      const uncached = await measure('app', { BENCH_FINDINGS_CACHE: 'off' }, auth);
      const rawResult = await measure('raw', { BENCH_ORG_ID: org.id }, {});
      rows.push({ name: label, app: appResult, uncached, raw: rawResult });
    }

    const app = await startChild('app', env);
    children.push(app);
    await exportOnce(app, token); // warm-up
    const exports: ExportRun[] = [];
    const copies: { ms: number; bytes: number }[] = [];
    for (let i = 0; i < EXPORT_RUNS; i++) {
      exports.push(await exportOnce(app, token));
      if ('databaseUrl' in place) copies.push(psqlCopy(place.databaseUrl, org.id));
    }
    await app.stop();

    const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
    const lat = (x: AutocannonResult) => `${x.latency.p50} / ${x.latency.p99}`;
    const exportMs = median(exports.map((e) => e.ms));
    const copyMs = copies.length > 0 ? median(copies.map((c) => c.ms)) : undefined;
    const rssGrowth = Math.max(...exports.map((e) => e.rssGrowth));
    const exportTargets = [
      `RSS ${rssGrowth < 100 * 1024 * 1024 ? 'met' : 'missed'}`,
      ...(copyMs
        ? [`time ${exportMs <= 2 * copyMs ? 'met' : 'missed'} (${(exportMs / copyMs).toFixed(2)}× psql)`]
        : []),
    ].join(', ');
    const lines = [
      `Findings benchmark: ${FINDINGS.toLocaleString('en')} findings, ${engine === 'pglite' ? 'PGlite' : 'PostgreSQL'}, ${CONNECTIONS} connections, ${DURATION_S} s per run`,
      '',
      ...(rows.length > 0
        ? [
            '| endpoint | app req/s | app, caches off | raw pg req/s | app / raw | app p50 / p99 ms | caches off p50 / p99 ms | raw p50 / p99 ms | targets (≥ 0.5× raw, p99 < 50 ms) |',
            '|---|---|---|---|---|---|---|---|---|',
            ...rows.map((r) => {
              const ratio = r.app.requests.average / r.raw.requests.average;
              const ok = ratio >= 0.5 && r.app.latency.p99 < 50;
              const errors = [r.app, r.uncached, r.raw].reduce((n, x) => n + x.non2xx + x.errors, 0);
              return `| \`${r.name}\` | ${r.app.requests.average.toFixed(0)} | ${r.uncached.requests.average.toFixed(0)} | ${r.raw.requests.average.toFixed(0)} | ${ratio.toFixed(2)} | ${lat(r.app)} | ${lat(r.uncached)} | ${lat(r.raw)} | ${ok ? 'met' : 'missed'}${errors ? ` (${errors} errors/non-2xx)` : ''} |`;
            }),
            '',
          ]
        : []),
      '| CSV export of all findings | median time s | size MB | peak RSS growth MB | targets |',
      '|---|---|---|---|---|',
      `| app \`GET /api/v1/findings/export?format=csv\` | ${(exportMs / 1000).toFixed(2)} | ${mb(exports[0]!.bytes)} | ${mb(rssGrowth)} (max of ${EXPORT_RUNS}) | ${exportTargets} |`,
      ...(copyMs
        ? [
            `| \`psql \\copy\` of the same columns and order | ${(copyMs / 1000).toFixed(2)} | ${mb(copies[0]!.bytes)} | n/a | |`,
          ]
        : []),
    ];
    console.log(lines.join('\n'));
  } finally {
    for (const child of children) if (child.process.exitCode === null) child.process.kill('SIGTERM');
    await cleanup();
  }
}

// Dispatch last, once every module-level constant above is initialized.
const role = process.env.BENCH_FINDINGS_ROLE;
if (role === 'app') await serveApp();
else if (role === 'raw') await serveRaw();
else await orchestrate();
