import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isNmapAvailable } from '../../../server/scanner/net/nmap.ts';
import { randomLoopbackAddress } from '../../fixtures/listeners.ts';
import { listenTracked, type TrackedServer } from '../../fixtures/web-server.ts';
import { testEngine } from '../../helpers/database.ts';
import { runScanToEnd, startScanApp, type ScanApp } from '../../helpers/scanner.ts';

const nmap = await isNmapAvailable();
if (!nmap) console.warn('scan-nmap: skipped; nmap is not installed (apt-get install nmap)');

/**
 * nmap as the scan's second opinion: asked only about services our probes
 * could not name or date, in full scans, never in quick ones.
 */
describe.skipIf(!nmap)(`nmap in the enumeration phase (${testEngine})`, () => {
  let scanner: ScanApp;
  let server: TrackedServer;
  const host = randomLoopbackAddress();
  let port: number;

  beforeAll(async () => {
    scanner = await startScanApp();
    // Greets like a VNC server (RFB): a protocol our probes do not speak.
    const vnc = createServer((socket) => {
      socket.on('error', () => undefined);
      socket.write('RFB 003.008\n');
    });
    server = await listenTracked(vnc, host);
    port = server.port;
  });
  afterAll(async () => {
    await scanner?.close();
    await server?.close();
  });

  it('asks nmap about a service our probes could not name, in a full scan', async () => {
    const done = await runScanToEnd(scanner, { target: host, ports: String(port) });
    expect(done.status).toBe('completed');
    expect(done.state.services).toEqual([expect.objectContaining({ port, service: 'unknown' })]);
    // nmap names it vnc, which is none of our services: it ran, and added nothing.
    expect(done.state.toolsUsed).toMatchObject({ nmap: 0 });
    expect(done.state.notes).toContainEqual('nmap: asked about 1 host(s), added to 0 service(s)');
  });

  it('leaves nmap out of quick scans', async () => {
    const done = await runScanToEnd(scanner, {
      target: host,
      ports: String(port),
      scanType: 'quick',
    });
    expect(done.status).toBe('completed');
    expect(done.state.toolsUsed).not.toHaveProperty('nmap');
  });
});
