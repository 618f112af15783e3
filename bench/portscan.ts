/**
 * Full TCP port sweep of 127.0.0.1 (ports 1-65535): Scanward's connect scanner (both connect
 * engines) against `nmap -sT -p- -T4 127.0.0.1`, interleaved, several runs each; prints a
 * markdown table of the medians and checks that every tool found the same open ports.
 *
 *   npx tsx bench/portscan.ts [runs=5]
 *
 * Loopback only. nmap rows are left out when nmap is not installed.
 */
import { spawn } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { defaultScanThreads } from '../server/config.ts';
import { fastestConnector } from '../server/scanner/net/connectors.ts';
import { isNmapAvailable } from '../server/scanner/net/nmap.ts';
import { scanTcpPorts } from '../server/scanner/net/tcp-scan.ts';
import { assertLoopback } from './loopback.ts';

const ADDRESS = '127.0.0.1';
const runs = Number(process.argv[2] ?? 5);
const allPorts = Array.from({ length: 65535 }, (_, i) => i + 1);

interface Run {
  ms: number;
  open: number[];
}

async function ours(engine: 'libuv' | 'socket', threads = 0): Promise<Run> {
  const result = await scanTcpPorts({
    address: ADDRESS,
    ports: allPorts,
    assertAllowed: assertLoopback,
    engine,
    ...(threads > 0 ? { lanes: threads, threads: true } : {}),
  });
  return { ms: result.elapsedMs, open: result.openPorts };
}

/** Wall time of the nmap process, as a runner that shells out to it would see. */
function nmap(): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('nmap', ['-sT', '-p-', '-T4', '-n', '-Pn', '-oG', '-', ADDRESS], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code !== 0) return reject(new Error(`nmap exited with ${code}`));
      const open = [...output.matchAll(/(\d+)\/open\/tcp/g)].map((match) => Number(match[1]));
      resolve({ ms: performance.now() - started, open: open.sort((a, b) => a - b) });
    });
  });
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

const tools: [string, () => Promise<Run>][] = [];
// The scanner's own default (SCANWARD_SCAN_THREADS unset).
const threads = defaultScanThreads();
if (fastestConnector().name === 'libuv') {
  tools.push([
    `scanward (libuv engine, ${threads} sweep threads, as in scans)`,
    () => ours('libuv', threads),
  ]);
  tools.push(['scanward (libuv engine, on the calling thread)', () => ours('libuv')]);
}
tools.push(['scanward (net.Socket engine)', () => ours('socket')]);
const withNmap = await isNmapAvailable();
if (withNmap) tools.push(['nmap -sT -p- -T4', nmap]);

// One warm-up run of our scanner (JIT, and loading the sweep threads), not counted.
await ours(fastestConnector().name === 'libuv' ? 'libuv' : 'socket');
if (fastestConnector().name === 'libuv') await ours('libuv', threads);

const results = new Map<string, Run[]>(tools.map(([name]) => [name, []]));
for (let run = 0; run < runs; run++) {
  for (const [name, measure] of tools) results.get(name)!.push(await measure());
}

// Other programs on this machine open and close loopback listeners while we measure, so
// the tools are compared on the ports every run of every tool agreed on, and the
// differences are listed.
const everyRun = [...results.values()].flat();
const stable = everyRun[0]!.open.filter((port) => everyRun.every((run) => run.open.includes(port)));
const unstable = [...new Set(everyRun.flatMap((run) => run.open))].filter((port) => !stable.includes(port));

console.log(`\nTCP connect sweep of ${ADDRESS}, ports 1-65535, ${runs} runs each`);
console.log(
  `(${new Date().toISOString()}, ${cpus().length} CPUs, load average ${loadavg()
    .map((load) => load.toFixed(1))
    .join(' ')})\n`,
);
console.log('| tool | median | min | max | runs (ms) |');
console.log('| --- | ---: | ---: | ---: | --- |');
for (const [name] of tools) {
  const times = results.get(name)!.map((run) => run.ms);
  console.log(
    `| ${name} | ${median(times).toFixed(0)} ms | ${Math.min(...times).toFixed(0)} ms | ${Math.max(...times).toFixed(0)} ms | ` +
      `${times.map((ms) => ms.toFixed(0)).join(', ')} |`,
  );
}
console.log(`\nOpen in every run of every tool: ${stable.join(', ') || 'none'}`);
if (unstable.length > 0) {
  console.log(
    `Open in some runs only (listeners of other programs coming and going): ${unstable.join(', ')}`,
  );
  for (const [name] of tools) {
    const seen = results
      .get(name)!
      .map((run) => run.open.filter((port) => unstable.includes(port)).join(' ') || '-');
    console.log(`  ${name}: ${seen.join(' | ')}`);
  }
}
if (!withNmap) console.log('\n(nmap is not installed: apt-get install nmap to compare)');
