import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  evidenceOf,
  findingsOf,
  runScanToEnd,
  type ScanApp,
  startScanApp,
} from '../../../helpers/scanner.ts';
import { testEngine } from '../../../helpers/database.ts';
import { randomLoopbackAddress } from '../../../fixtures/listeners.ts';
import { startStartTlsFixture, type StartTlsFixture } from '../../../fixtures/starttls-services.ts';
import {
  generateTestCertificates,
  hasOpenssl,
  type TestCertificates,
} from '../../../fixtures/tls-certificates.ts';

const openssl = hasOpenssl();
if (!openssl) console.warn('openssl is not installed: the STARTTLS scan test is skipped');

describe.skipIf(!openssl)(`TLS checks over STARTTLS through the scan runner (${testEngine})`, () => {
  let scanner: ScanApp;
  let certs: TestCertificates;
  let weak: StartTlsFixture;
  let plain: StartTlsFixture;
  const host = randomLoopbackAddress();

  beforeAll(async () => {
    certs = generateTestCertificates();
    // Self-signed, 1024-bit RSA, TLS 1.0 and 1.1 accepted, behind STARTTLS.
    weak = await startStartTlsFixture({
      protocol: 'smtp',
      host,
      tls: { ...certs.weakKey, minVersion: 'TLSv1', ciphers: 'DEFAULT:@SECLEVEL=0' },
    });
    // The same mail server on another port, offering no STARTTLS at all.
    plain = await startStartTlsFixture({ protocol: 'smtp', host });
    scanner = await startScanApp({ env: { SCANWARD_NMAP: 'off' } });
  });
  afterAll(async () => {
    await scanner?.close();
    await weak?.close();
    await plain?.close();
    certs?.cleanup();
  });

  it('a full scan reports the TLS behind STARTTLS on smtp:// and asks nothing of a server that does not offer it', async () => {
    const final = await runScanToEnd(scanner, {
      target: host,
      ports: `${weak.port},${plain.port}`,
    });
    expect(final.error).toBeNull();
    expect(final.status).toBe('completed');

    const findings = await findingsOf(scanner, { tool: 'scanward-tls' });
    const component = `smtp://${host}:${weak.port}`;
    expect(findings.map((f) => [f.template_id, f.affected_component])).toEqual([
      ['tls-cbc-beast', component],
      ['tls-cbc-lucky13', component],
      ['tls-certificate-hostname-mismatch', component],
      ['tls-certificate-self-signed', component],
      ['tls-certificate-weak-key', component],
      ['tls-legacy-protocol', component],
    ]);
    for (const finding of findings) expect(await evidenceOf(scanner, finding.id)).toContain('after STARTTLS');
    expect(plain.commands.some((c) => /STARTTLS/i.test(c))).toBe(false);
    expect(plain.upgrades).toBe(0);
  }, 90_000);
});
