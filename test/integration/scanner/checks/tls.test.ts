import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findingsOf, runScanToEnd, type ScanApp, startScanApp } from '../../../helpers/scanner.ts';
import { testEngine } from '../../../helpers/database.ts';
import { randomLoopbackAddress } from '../../../fixtures/listeners.ts';
import { generateSelfSigned, hasOpenssl } from '../../../fixtures/tls-certificates.ts';
import { startWebServer, type TrackedServer } from '../../../fixtures/web-server.ts';

const openssl = hasOpenssl();
if (!openssl) console.warn('openssl is not installed: the TLS scan test is skipped');

describe.skipIf(!openssl)(`TLS checks through the scan runner (${testEngine})`, () => {
  let scanner: ScanApp;
  let server: TrackedServer;
  const host = randomLoopbackAddress();
  let port: number;

  beforeAll(async () => {
    const certificate = generateSelfSigned('scan-fixture.test');
    // nmap's second opinion is not what these tests are about, and costs ~20 s per HTTP fixture.
    scanner = await startScanApp({ env: { SCANWARD_NMAP: 'off' } });
    // Self-signed, TLS 1.0 and 1.1 still enabled, no security headers.
    server = await startWebServer({
      address: host,
      tls: {
        ...certificate,
        minVersion: 'TLSv1',
        ciphers: 'DEFAULT:@SECLEVEL=0',
      },
      fallback: (_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html>ok</html>'),
    });
    port = server.port;
  });
  afterAll(async () => {
    await scanner?.close();
    await server?.close();
  });

  it('a full scan of a loopback HTTPS server records the TLS and header findings', async () => {
    const final = await runScanToEnd(scanner, { target: host, ports: String(port) });
    expect(final.error).toBeNull();
    expect(final.status).toBe('completed');

    const findings = (await findingsOf(scanner)).filter((f) =>
      ['scanward-tls', 'scanward-web'].includes(f.tool),
    );
    const component = `https://${host}:${port}`;
    expect(findings.map((f) => [f.template_id, f.severity, f.affected_component, f.tool])).toEqual([
      ['http-missing-security-headers', 'low', component, 'scanward-web'],
      ['https-missing-hsts', 'medium', component, 'scanward-web'],
      ['tls-cbc-beast', 'medium', component, 'scanward-tls'],
      ['tls-cbc-lucky13', 'low', component, 'scanward-tls'],
      // Scanned by address, and the certificate names no IP address.
      ['tls-certificate-hostname-mismatch', 'low', component, 'scanward-tls'],
      ['tls-certificate-self-signed', 'medium', component, 'scanward-tls'],
      ['tls-legacy-protocol', 'medium', component, 'scanward-tls'],
    ]);
    // The CBC findings keep their check id and carry their CVE.
    const cves = Object.fromEntries(findings.map((f) => [f.template_id, f.cve_ids]));
    expect(cves['tls-cbc-beast']).toEqual(['CVE-2011-3389']);
    expect(cves['tls-cbc-lucky13']).toEqual(['CVE-2013-0169']);
  }, 90_000);
});
