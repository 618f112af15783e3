/**
 * Service identification of this machine's loopback services (PostgreSQL, MariaDB, Redis,
 * RabbitMQ, Mosquitto, NATS; whichever are listening): Scanward's probes against
 * `nmap -sT -sV` on the same ports. Prints the medians and what each tool identified.
 *
 *   npx tsx bench/service-id.ts [runs=3]
 *
 * Loopback only. nmap rows are left out when nmap is not installed.
 */
import { connect } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { isNmapAvailable, runNmapServiceScan, type NmapServiceResult } from '../server/scanner/net/nmap.ts';
import { identifyService } from '../server/scanner/net/service-id.ts';
import type { ServiceIdentification } from '../server/scanner/net/services.ts';
import { assertLoopback } from './loopback.ts';

const ADDRESS = '127.0.0.1';
const CANDIDATES = [1883, 3306, 4222, 5432, 5672, 6379];
const runs = Number(process.argv[2] ?? 3);
const allow = assertLoopback;

function isOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: ADDRESS, port });
    const done = (open: boolean): void => {
      socket.destroy();
      resolve(open);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

const ports = (await Promise.all(CANDIDATES.map(async (port) => ((await isOpen(port)) ? port : 0)))).filter(
  Boolean,
);
if (ports.length === 0) {
  console.log('None of the loopback services is listening; nothing to measure.');
  process.exit(0);
}
const withNmap = await isNmapAvailable();

const sequential: number[] = [];
const parallel: number[] = [];
const nmapTimes: number[] = [];
let ourResults: ServiceIdentification[] = [];
let nmapResults: NmapServiceResult[] = [];
for (let run = 0; run < runs; run++) {
  const one = await timed(async () => {
    const results: ServiceIdentification[] = [];
    for (const port of ports)
      results.push(await identifyService({ address: ADDRESS, port, assertAllowed: allow }));
    return results;
  });
  sequential.push(one.ms);
  ourResults = one.value;
  const all = await timed(() =>
    Promise.all(ports.map((port) => identifyService({ address: ADDRESS, port, assertAllowed: allow }))),
  );
  parallel.push(all.ms);
  if (withNmap) {
    const scan = await timed(() => runNmapServiceScan({ address: ADDRESS, ports, assertAllowed: allow }));
    nmapTimes.push(scan.ms);
    nmapResults = scan.value;
  }
}

const row = (name: string, times: number[]): string =>
  `| ${name} | ${median(times).toFixed(0)} ms | ${times.map((ms) => ms.toFixed(0)).join(', ')} |`;
console.log(`\nService identification on ${ADDRESS}, ports ${ports.join(', ')}, ${runs} runs`);
console.log(
  `(${new Date().toISOString()}, ${cpus().length} CPUs, load average ${loadavg()
    .map((load) => load.toFixed(1))
    .join(' ')})\n`,
);
console.log('| tool | median | runs (ms) |');
console.log('| --- | ---: | --- |');
console.log(row('scanward-probe, one port after another', sequential));
console.log(row('scanward-probe, all ports at once', parallel));
if (withNmap) console.log(row('nmap -sT -sV -T4 (all ports, one run)', nmapTimes));

const describe = (service?: string, product?: string, version?: string): string =>
  [service, product, version].filter(Boolean).join(' / ') || '-';
console.log(
  '\n| port | scanward-probe: service / product / version | anonymous access | nmap: service / product / version |',
);
console.log('| ---: | --- | --- | --- |');
for (const port of ports) {
  const ours = ourResults.find((result) => result.port === port);
  const theirs = nmapResults.find((result) => result.port === port);
  console.log(
    `| ${port} | ${describe(ours?.service, ours?.product, ours?.version)} | ${ours?.anonymousAccess ?? '-'} | ` +
      `${withNmap ? describe(theirs?.service, theirs?.product, theirs?.version) : 'nmap not installed'} |`,
  );
}
