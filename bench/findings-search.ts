/**
 * Findings search benchmark (issue 23, docs/findings-search.md): seeds BENCH_FINDINGS findings
 * (100,000 by default) into a fresh database of each engine and times one page of the list
 * (`listFindings`, 25 rows and the total, caches off) under the search filters: free text `q`,
 * `target` exact, by leading labels and by CIDR range, and `overdue`, alone and combined. Prints
 * a markdown table per engine with the median and 95th percentile of BENCH_RUNS runs (10), and
 * the indexes the planner chose for the count.
 *
 *   npm run bench -- findings-search
 *   BENCH_FINDINGS=5000 BENCH_RUNS=3 npm run bench -- findings-search     (a quick check)
 *   BENCH_ENGINES=pglite npm run bench -- findings-search                  (one engine)
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres …       (the default)
 *
 * Loopback only: the PostgreSQL URL must point at 127.0.0.1, ::1 or localhost; a database of
 * its own is created there and dropped at the end. Targets are loopback addresses and names.
 */
import { randomBytes } from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import { openDatabase, type Database } from '../server/db/index.ts';
import { migrateLatest } from '../server/db/migrate.ts';
import { setFindingsCaching } from '../server/findings/caches.ts';
import { applyFilter, type FindingFilter } from '../server/findings/findings.repository.ts';
import { listFindings } from '../server/findings/listing.ts';
import { createOrganization } from '../server/identity/organizations.ts';

const FINDINGS = Number(process.env.BENCH_FINDINGS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const ENGINES = (process.env.BENCH_ENGINES ?? 'pglite,postgres').split(',').map((e) => e.trim());
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const CASES: [string, FindingFilter][] = [
  ['no filter', {}],
  ['q=weakness 42 (a rare title)', { q: 'weakness 42 ' }],
  ['q=redis (a common word)', { q: 'redis' }],
  ['q=CVE-2024-0042', { q: 'CVE-2024-0042' }],
  ['target=127.2.2.3 (exact)', { target: '127.2.2.3' }],
  ['target=127.2.2 (leading labels)', { target: '127.2.2' }],
  ['target=redis-7 (leading labels of names)', { target: 'redis-7' }],
  ['target=127.2.0.0/16 (CIDR)', { target: '127.2.0.0/16' }],
  ['overdue=true', { overdue_at: new Date() }],
  [
    'overdue=true&q=redis&target=127.0.0.0/16',
    { overdue_at: new Date(), q: 'redis', target: '127.0.0.0/16' },
  ],
];

function assertLoopback(url: string): void {
  const host = new URL(url).hostname;
  if (!['127.0.0.1', 'localhost', '[::1]', '::1'].includes(host) && !host.startsWith('127.')) {
    throw new Error(`refusing to benchmark against ${host}: loopback only`);
  }
}

/** FINDINGS findings of one organization: half on loopback addresses, half on names; a due date each. */
async function seed(db: Knex, orgId: string, scanId: string): Promise<void> {
  await db.raw('select setseed(0.23)');
  await db.raw(
    `insert into findings (
       id, org_id, fingerprint, scan_id, last_scan_id, title, severity, severity_rank, status,
       cvss_score, target, affected_component, port, tool, template_id, cve_ids, cwe_ids,
       description, impact, remediation, evidence, frameworks, kev, due_date, detected_at, last_seen_at,
       created_at, updated_at)
     select
       'finding_search' || lpad(g::text, 10, '0'), ?, md5('search' || g), ?, ?,
       (array['Redis without a password', 'Benchmark weakness ' || (g % 997), 'TLS certificate expired',
              'Directory listing enabled'])[1 + g % 4],
       sev, case sev when 'critical' then 4 when 'high' then 3 when 'medium' then 2 when 'low' then 1 else 0 end,
       case when r3 < 0.70 then 'open' when r3 < 0.80 then 'in_progress' else 'resolved' end,
       5.0, tgt, 'tcp://' || tgt || ':' || (1000 + g % 5000), 1000 + g % 5000, 'scanward',
       'bench-check-' || (g % 2000),
       case when g % 3 = 0 then array['CVE-2024-' || lpad((g % 9000)::text, 4, '0')] else '{}'::text[] end,
       array['CWE-16'],
       repeat('A benchmark description of the weakness, its context and how it was found. ', 3),
       'An attacker could read data they should not.',
       jsonb_build_object('summary', 'Apply the vendor fix.', 'steps', jsonb_build_array('Upgrade'),
         'code_example', '', 'references', jsonb_build_array()),
       jsonb_build_object('request', '', 'response', '', 'screenshot_url', null),
       '[{"name":"soc2","controls":["ctrl_soc2_cc7_1"]}]'::jsonb,
       g % 50 = 0,
       now() - r4 * interval '180 days' + interval '30 days',
       now() - r4 * interval '180 days', now(), now(), now()
     from (
       select g, random() as r1, random() as r3, random() as r4 from generate_series(1, ?::int) g
     ) r
     cross join lateral (
       select case when r1 < 0.05 then 'critical' when r1 < 0.30 then 'high' when r1 < 0.65 then 'medium'
                   when r1 < 0.85 then 'low' else 'info' end as sev,
              case when g % 2 = 0 then '127.' || (g % 7) || '.' || (g % 250) || '.' || (g % 199 + 1)
                   else 'redis-' || (g % 300) || '.bench.example.test' end as tgt
     ) s`,
    [orgId, scanId, scanId, FINDINGS],
  );
  await db.raw('vacuum analyze findings');
}

/** The indexes the planner picks for the filter's count (a plan names them). */
async function indexesUsed(db: Knex, orgId: string, filter: FindingFilter): Promise<string> {
  const { sql, bindings } = applyFilter(db('findings'), orgId, filter).count({ n: '*' }).toSQL();
  const plan = await db.raw<{ rows: { 'QUERY PLAN': string }[] }>(`explain ${sql}`, bindings);
  const names = new Set<string>();
  for (const row of plan.rows) {
    for (const m of row['QUERY PLAN'].matchAll(
      /(?:Index Only Scan|Index Scan|Bitmap Index Scan) (?:Backward )?on (\w+)/g,
    ))
      names.add(m[1]!);
  }
  return names.size ? [...names].join(', ') : 'none (sequential scan)';
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function benchEngine(engine: string): Promise<void> {
  let database: Database;
  let admin: Knex | undefined;
  let dbName: string | undefined;
  if (engine === 'postgres') {
    assertLoopback(DATABASE_URL);
    dbName = `scanward_bench_search_${randomBytes(4).toString('hex')}`;
    admin = knexFactory({ client: 'pg', connection: DATABASE_URL, pool: { min: 0, max: 1 } });
    await admin.raw(`create database ${dbName}`);
    const url = new URL(DATABASE_URL);
    url.pathname = `/${dbName}`;
    database = await openDatabase({ databaseUrl: url.toString() });
  } else if (engine === 'pglite') {
    database = await openDatabase({ dataDir: 'memory://' });
  } else {
    throw new Error(`unknown engine ${engine}: pglite or postgres`);
  }
  try {
    const db = database.db;
    await migrateLatest(db);
    const org = await createOrganization(db, { name: 'Search Bench', plan: 'enterprise' });
    const scanId = `scan_bench${randomBytes(8).toString('hex')}`;
    await db('scans').insert({
      id: scanId,
      org_id: org.id,
      target: '127.0.0.0/16',
      scan_type: 'full',
      status: 'completed',
      phase: 'complete',
      progress: 100,
      estimated_duration: 3600,
    });
    const seeding = performance.now();
    await seed(db, org.id, scanId);
    const seconds = ((performance.now() - seeding) / 1000).toFixed(1);
    const trigram = await db.raw<{ rows: unknown[] }>("select 1 from pg_extension where extname = 'pg_trgm'");
    console.log(`\n## ${engine}: ${FINDINGS} findings (seeded in ${seconds} s), ${RUNS} runs each`);
    console.log(`pg_trgm: ${trigram.rows.length ? 'installed' : 'not available (q reads the rows)'}\n`);
    console.log('| filter | total | median ms | p95 ms | indexes (count query) |');
    console.log('| --- | ---: | ---: | ---: | --- |');
    for (const [name, filter] of CASES) {
      const options = { ...filter, page: 1, perPage: 25 };
      const first = await listFindings(db, org.id, options); // warm-up, and the total
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const start = performance.now();
        await listFindings(db, org.id, options);
        times.push(performance.now() - start);
      }
      times.sort((a, b) => a - b);
      const used = await indexesUsed(db, org.id, filter);
      console.log(
        `| ${name} | ${first.total} | ${percentile(times, 50).toFixed(1)} | ${percentile(times, 95).toFixed(1)} | ${used} |`,
      );
    }
  } finally {
    await database.close();
    if (admin && dbName) {
      await admin.raw(`drop database if exists ${dbName}`);
      await admin.destroy();
    }
  }
}

setFindingsCaching(false);
for (const engine of ENGINES) await benchEngine(engine);
