import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isNmapAvailable } from '../../../server/scanner/net/nmap.ts';
import { randomLoopbackAddress } from '../../fixtures/listeners.ts';
import { generateSelfSigned } from '../../fixtures/tls-certificates.ts';
import { listenTracked, type TrackedServer } from '../../fixtures/web-server.ts';
import { testEngine } from '../../helpers/database.ts';
import { runScanToEnd, startScanApp, type ScanApp } from '../../helpers/scanner.ts';

/** The real nmap, if installed. */
function realNmap(): string | undefined {
  try {
    return execFileSync('sh', ['-c', 'command -v nmap'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

const nmapPath = realNmap();
/**
 * Every nmap the scanner starts is this file's wrapper, first on PATH: it writes its arguments
 * to a log, runs the real nmap, and writes how that ended (`exit <code>`, or `stopped` when the
 * scanner stopped it: the wrapper passes the signal on). So a test can tell whether nmap was
 * asked, about what, and whether it ran to its end.
 *
 * While the file `outlast` exists, the wrapper does not end when nmap does: it waits to be
 * stopped. How long the real nmap takes on a silent service against the scanner's bound (the
 * time the sweep and identification took) depends on the machine's load; the test of the bound
 * must not depend on which of the two ends first, so there nmap provably outlasts it.
 */
const wrapperDir = mkdtempSync(path.join(tmpdir(), 'scanward-nmap-wrapper-'));
const runLog = path.join(wrapperDir, 'runs.log');
const outlast = path.join(wrapperDir, 'outlast');
if (nmapPath) {
  const wrapper = path.join(wrapperDir, 'nmap');
  writeFileSync(
    wrapper,
    [
      '#!/bin/sh',
      `echo "start $*" >> '${runLog}'`,
      `'${nmapPath}' "$@" &`,
      'pid=$!',
      `trap 'kill $pid 2>/dev/null; echo stopped >> "${runLog}"; exit 143' TERM INT`,
      'wait $pid',
      'code=$?',
      `if [ -e '${outlast}' ]; then sleep 3600 & pid=$!; wait $pid; fi`,
      `echo "exit $code" >> '${runLog}'`,
      'exit $code',
      '',
    ].join('\n'),
  );
  chmodSync(wrapper, 0o755);
}
// The wrapper is found first on PATH for this file's scans only: the worker process goes on to
// run other test files (vitest.config.ts, `isolate: false`).
const pathBefore = process.env.PATH;
if (nmapPath) process.env.PATH = `${wrapperDir}${path.delimiter}${pathBefore ?? ''}`;
afterAll(() => {
  process.env.PATH = pathBefore;
});
const nmap = nmapPath !== undefined && (await isNmapAvailable());
if (!nmap) console.warn('scan-nmap: skipped; nmap is not installed (apt-get install nmap)');

/** The service scans nmap was started for (its `--version` check aside): ports, and how each ended. */
function serviceScans(): { ports: string; ended: string | undefined }[] {
  if (!existsSync(runLog)) return [];
  const lines = readFileSync(runLog, 'utf8').split('\n').filter(Boolean);
  const runs: { ports: string; ended: string | undefined }[] = [];
  for (const [i, line] of lines.entries()) {
    if (!line.startsWith('start ') || line.includes('--version')) continue;
    // The tests here scan one host at a time: a run's end is the line after its start.
    runs.push({ ports: /-p (\S+)/.exec(line)?.[1] ?? '', ended: lines[i + 1] });
  }
  return runs;
}

/**
 * nmap as the scan's second opinion: asked only about services our probes could not name or
 * date, in full scans, never in quick ones; never about HTTP(S) our probes spoke; and never for
 * longer than the rest of the enumeration took (at least 8 s).
 */
describe.skipIf(!nmap)(`nmap in the enumeration phase (${testEngine})`, () => {
  let scanner: ScanApp;
  const servers: TrackedServer[] = [];

  beforeAll(async () => {
    // Full scans, with every phase, but an empty template directory: the web checks still speak
    // to the HTTPS service, and the hundreds of default templates (what the other web tests are
    // about) do not stretch these scans on a busy machine.
    scanner = await startScanApp({ env: { SCANWARD_TEMPLATES_DIR: wrapperDir } });
  });
  afterAll(async () => {
    await scanner?.close();
    for (const server of servers) await server.close();
    rmSync(wrapperDir, { recursive: true, force: true });
  });

  it('asks nmap about a service our probes could not name, in a full scan', async () => {
    // Greets like a VNC server (RFB): a protocol our probes do not speak.
    const vnc = createServer((socket) => {
      socket.on('error', () => undefined);
      socket.write('RFB 003.008\n');
    });
    const server = await listenTracked(vnc, randomLoopbackAddress());
    servers.push(server);
    const done = await runScanToEnd(scanner, { target: server.address, ports: String(server.port) });
    expect(done.status).toBe('completed');
    expect(done.state.services).toEqual([expect.objectContaining({ port: server.port, service: 'unknown' })]);
    // nmap names it vnc, which is none of our services: it ran, and added nothing.
    expect(done.state.toolsUsed).toMatchObject({ nmap: 0 });
    expect(done.state.notes).toContainEqual('nmap: asked about 1 host(s), added to 0 service(s)');

    const quick = await runScanToEnd(scanner, {
      target: server.address,
      ports: String(server.port),
      scanType: 'quick',
    });
    expect(quick.status).toBe('completed');
    expect(quick.state.toolsUsed).not.toHaveProperty('nmap');
  });

  it('does not ask nmap about an HTTPS service that names no server: our probes spoke its protocol', async () => {
    // Node's HTTPS server sends no `Server` header: nothing to date the service by.
    const https = createHttpsServer(generateSelfSigned('bannerless.test'), (_request, response) => {
      response.end('<html><body>hello</body></html>');
    });
    const server = await listenTracked(https, randomLoopbackAddress());
    servers.push(server);
    const before = serviceScans().length;

    const done = await runScanToEnd(scanner, { target: server.address, ports: String(server.port) });
    expect(done.status).toBe('completed');
    expect(done.state.services).toEqual([
      expect.objectContaining({ port: server.port, service: 'https', tool: 'scanward-probe' }),
    ]);
    expect(done.state.services[0]?.version).toBeUndefined();
    // The full scan ran its web checks, and nmap was never started on the service.
    expect(Object.keys(done.state.toolsUsed)).not.toContain('nmap');
    expect(serviceScans().slice(before)).toEqual([]);
  }, 90_000);

  it('stops nmap at its bound on a silent service and completes the scan without its opinion', async () => {
    // Accepts and never says a word: nmap's version detection would wait out every probe (minutes).
    const silent = createServer((socket) => {
      socket.on('error', () => undefined);
    });
    const server = await listenTracked(silent, randomLoopbackAddress());
    servers.push(server);
    const before = serviceScans().length;

    // nmap outlasts its bound whatever the machine's load (see the wrapper).
    writeFileSync(outlast, '');
    let done;
    try {
      done = await runScanToEnd(scanner, { target: server.address, ports: String(server.port) });
    } finally {
      rmSync(outlast, { force: true });
    }
    expect(done.status).toBe('completed');
    expect(done.state.services).toEqual([expect.objectContaining({ port: server.port, service: 'unknown' })]);
    expect(done.state.notes).toContainEqual(
      expect.stringMatching(/^nmap: stopped after \d+ s \(its bound.*\), no second opinion on 1 host\(s\)$/),
    );
    // nmap was started on the port and stopped before its end.
    expect(serviceScans().slice(before)).toEqual([{ ports: String(server.port), ended: 'stopped' }]);
  }, 150_000);
});
