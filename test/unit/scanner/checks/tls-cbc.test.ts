import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtInForTemplate, CHECKS } from '../../../../server/scanner/check-registry.ts';
import { tlsWeakCipherSuitesCheck } from '../../../../server/scanner/checks/tls-breadth.ts';
import { tlsBeastCheck, tlsLucky13Check } from '../../../../server/scanner/checks/tls-cbc.ts';
import {
  generateTestCertificates,
  hasOpenssl,
  type TestCertificates,
} from '../../../fixtures/tls-certificates.ts';
import { startTlsServer, type TlsFixture } from '../../../fixtures/tls-server.ts';
import { checkContext, serviceAt } from '../../../helpers/phase-context.ts';

const https = (f: TlsFixture) => serviceAt(f.address, f.port, 'https', { tls: true });
/** What a hardened server offers: TLS 1.2 and 1.3, AEAD suites only. */
const AEAD_ONLY = 'ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-RSA-CHACHA20-POLY1305';

const openssl = hasOpenssl();
if (!openssl) console.warn('openssl is not installed: the CBC check tests are skipped');

describe.skipIf(!openssl)('CBC cipher suite checks (BEAST, LUCKY13)', () => {
  let certs: TestCertificates;
  const fixtures: TlsFixture[] = [];
  const start = async (options: Parameters<typeof startTlsServer>[0]): Promise<TlsFixture> => {
    const fixture = await startTlsServer(options);
    fixtures.push(fixture);
    return fixture;
  };
  beforeAll(() => {
    certs = generateTestCertificates();
  });
  afterAll(async () => {
    await Promise.all(fixtures.map((f) => f.close()));
    certs?.cleanup();
  });

  it('reports BEAST and LUCKY13 with their CVEs on a TLS 1.0 server with an AES-CBC suite', async () => {
    const weak = await start({
      ...certs.strongKey,
      minVersion: 'TLSv1',
      ciphers: `AES128-SHA:${AEAD_ONLY}:@SECLEVEL=0`,
    });
    const ctx = checkContext(weak.address);
    const [beast, ...moreBeast] = await tlsBeastCheck.run(ctx, https(weak));
    expect(moreBeast).toEqual([]);
    expect(beast).toMatchObject({
      check_id: 'tls-cbc-beast',
      title: 'TLS 1.0 service accepts CBC cipher suites (BEAST) (AES128-SHA)',
      severity: 'medium',
      cve_ids: ['CVE-2011-3389'],
    });
    expect(beast!.evidence.request).toContain('offering only TLS 1.0 with only CBC suites');
    expect(beast!.evidence.response).toBe('accepted: ServerHello TLSv1, cipher AES128-SHA');

    const [lucky, ...moreLucky] = await tlsLucky13Check.run(ctx, https(weak));
    expect(moreLucky).toEqual([]);
    expect(lucky).toMatchObject({
      check_id: 'tls-cbc-lucky13',
      severity: 'low',
      cve_ids: ['CVE-2013-0169'],
    });
    expect(lucky!.evidence.response).toBe('accepted: ServerHello TLSv1.2, cipher AES128-SHA');
    // The weak-cipher check (NULL, EXPORT, RC4, 3DES) neither fires on AES-CBC nor claims its template.
    expect(await tlsWeakCipherSuitesCheck.run(ctx, https(weak))).toEqual([]);
  });

  it('folds the weak-cipher-suites template (TLS 1.0 with AES-CBC) into BEAST, never into tls-weak-cipher', () => {
    expect(builtInForTemplate('weak-cipher-suites')).toBe('tls-cbc-beast');
    expect(tlsWeakCipherSuitesCheck.upstreamIds).not.toContain('weak-cipher-suites');
    // Templates of the NULL/EXPORT/RC4/DES weakness (by id, or by their remediation id) stay with it.
    expect(builtInForTemplate('insecure-cipher-suite-detect')).toBe('tls-weak-cipher');
    expect(builtInForTemplate('tls-weak-cipher')).toBe('tls-weak-cipher');
  });

  it('reports LUCKY13 but not BEAST when CBC suites are offered on TLS 1.2 only', async () => {
    const server = await start({ ...certs.strongKey, ciphers: `ECDHE-RSA-AES256-SHA384:${AEAD_ONLY}` });
    const ctx = checkContext(server.address);
    expect(await tlsBeastCheck.run(ctx, https(server))).toEqual([]);
    const [lucky] = await tlsLucky13Check.run(ctx, https(server));
    expect(lucky!.description).toContain('chose the CBC suite ECDHE-RSA-AES256-SHA384 on TLS 1.2');
  });

  it('reports neither on a hardened twin: TLS 1.2 and later, AEAD suites only', async () => {
    const hardened = await start({ ...certs.strongKey, ciphers: AEAD_ONLY });
    const ctx = checkContext(hardened.address);
    expect(await tlsBeastCheck.run(ctx, https(hardened))).toEqual([]);
    expect(await tlsLucky13Check.run(ctx, https(hardened))).toEqual([]);
    expect(hardened.connections).toBe(2);
  });

  it('registers both checks on TLS services for full scans', () => {
    for (const check of [tlsBeastCheck, tlsLucky13Check]) {
      expect(CHECKS).toContain(check);
      expect(check.quick).toBe(false);
      expect(check.appliesTo(serviceAt('127.0.0.1', 80, 'http'))).toBe(false);
    }
  });
});
