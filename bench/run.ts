/**
 * `npm run bench`: every benchmark, one after the other (they would disturb each
 * other's timings if run together), each printing its own markdown section.
 * docs/performance.md records the figures and what they mean.
 *
 *   npm run bench                  # all of them
 *   npm run bench -- portscan      # only the ones named
 *   npm run bench -- scan-vs-nmap  # scans end to end against nmap, side by side
 *   npm run bench -- footprint     # memory on both databases, beside issue 25's goals
 *   npm run bench -- findings-search  # the findings search filters on 100k findings, both databases
 *   npm run bench -- hostile-imports  # four hostile imports in parallel beside a health probe
 *
 * Loopback only: the scanner benchmarks run under a loopback scope policy
 * (bench/loopback.ts) and the service under SCANWARD_SCAN_ALLOW=loopback; the
 * findings benchmark refuses a database that is not on loopback.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildIfStale } from '../server/cli/build.mjs';

const BENCHMARKS: Record<string, string[]> = {
  portscan: ['bench/portscan.ts', '5'],
  'service-id': ['bench/service-id.ts', '3'],
  'quick-scan': ['bench/scan-e2e.ts', '3', 'quick'],
  // The three end-to-end rows against nmap, and the full range against nmap --min-rate 5000;
  // BENCH_DATABASE_URL runs them on PostgreSQL.
  'scan-vs-nmap': ['bench/scan-e2e.ts', '3', 'host', 'range24', 'range22', 'host-min-rate'],
  findings: ['bench/findings.ts'],
  // Issue 23's search filters (q, target, overdue) on 100,000 findings, both databases.
  'findings-search': ['bench/findings-search.ts'],
  'templates-load': ['bench/templates-load.ts', '3'],
  // Memory as users run the service (the JavaScript build), on both databases, beside issue 25's goals.
  footprint: ['bench/footprint.ts'],
  // Issue 31: four hostile report imports in parallel while /api/health is probed (p99).
  'hostile-imports': ['bench/hostile-imports.ts'],
};

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const chosen = process.argv.slice(2);
const unknown = chosen.filter((name) => !(name in BENCHMARKS));
if (unknown.length > 0) {
  console.error(
    `unknown benchmark(s): ${unknown.join(', ')}; choose from ${Object.keys(BENCHMARKS).join(', ')}`,
  );
  process.exit(2);
}

// The services the benchmarks start are the JavaScript build, as `npm start` runs it.
await buildIfStale();

let failed = 0;
for (const [name, args] of Object.entries(BENCHMARKS)) {
  if (chosen.length > 0 && !chosen.includes(name)) continue;
  console.log(`\n# ${name}\n`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', ...args], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`benchmark ${name} failed (exit ${result.status ?? result.signal})`);
    failed += 1;
  }
}
process.exit(failed === 0 ? 0 : 1);
