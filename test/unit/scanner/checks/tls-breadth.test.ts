import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKS } from '../../../../server/scanner/check-registry.ts';
import {
  tlsBreadthChecks,
  tlsHostnameMismatchCheck,
  tlsIncompleteChainCheck,
  tlsNotYetValidCheck,
  tlsWeakCipherSuitesCheck,
  tlsWeakKeyCheck,
} from '../../../../server/scanner/checks/tls-breadth.ts';
import { tlsCertificateSelfSignedCheck } from '../../../../server/scanner/checks/tls.ts';
import { buildClientHello, parseServerAnswer } from '../../../../server/scanner/net/tls-hello.ts';
import { randomLoopbackAddress, startListener, type FixtureListener } from '../../../fixtures/listeners.ts';
import {
  generateTestCertificates,
  hasOpenssl,
  type TestCertificates,
} from '../../../fixtures/tls-certificates.ts';
import { startTlsServer } from '../../../fixtures/tls-server.ts';
import { checkContext, serviceAt } from '../../../helpers/phase-context.ts';

/** The cipher suites a ClientHello offers. */
function offeredSuites(hello: Buffer): number[] {
  const body = hello.subarray(9);
  const sessionIdLength = body[34] as number;
  const at = 35 + sessionIdLength;
  const length = body.readUInt16BE(at);
  return Array.from({ length: length / 2 }, (_, i) => body.readUInt16BE(at + 2 + 2 * i));
}

/** A TLS server that answers a ServerHello choosing one of `planted` when offered, else a handshake_failure alert. */
function startHelloFixture(planted: readonly number[]): Promise<FixtureListener> {
  return startListener({
    host: randomLoopbackAddress(),
    serve: (socket) => {
      let data = Buffer.alloc(0);
      socket.on('data', (chunk: Buffer) => {
        data = Buffer.concat([data, chunk]);
        if (data.length < 5 || data.length < 5 + data.readUInt16BE(3)) return;
        const suite = offeredSuites(data).find((s) => planted.includes(s));
        if (suite === undefined) return void socket.end(Buffer.from([0x15, 3, 3, 0, 2, 2, 40]));
        const body = Buffer.concat([
          Buffer.from([3, 3]),
          Buffer.alloc(32, 7),
          Buffer.from([0, suite >> 8, suite & 0xff, 0]),
        ]);
        const handshake = Buffer.concat([Buffer.from([2, 0, 0, body.length]), body]);
        socket.end(Buffer.concat([Buffer.from([0x16, 3, 3, 0, handshake.length]), handshake]));
      });
    },
  });
}

const https = (f: { address: string; port: number }) => serviceAt(f.address, f.port, 'https', { tls: true });

const openssl = hasOpenssl();
if (!openssl) console.warn('openssl is not installed: the TLS breadth check tests are skipped');

describe('the raw ClientHello', () => {
  it('offers exactly the suites asked for (plus the renegotiation SCSV) and reads the chosen suite', () => {
    const hello = buildClientHello([0x000a, 0xc012], 'shop.example.test');
    expect(offeredSuites(hello)).toEqual([0x000a, 0xc012, 0x00ff]);
    expect(hello.includes(Buffer.from('shop.example.test'))).toBe(true);
    expect(parseServerAnswer(Buffer.from([0x15, 3, 3, 0, 2, 2, 40]))).toEqual({
      kind: 'alert',
      level: 2,
      description: 40,
    });
  });
});

describe.skipIf(!openssl)('TLS breadth checks', () => {
  let certs: TestCertificates;
  const fixtures: { close(): Promise<void> }[] = [];
  const start = async <T extends { close(): Promise<void> }>(fixture: Promise<T>): Promise<T> => {
    const started = await fixture;
    fixtures.push(started);
    return started;
  };

  beforeAll(() => {
    certs = generateTestCertificates();
  });
  afterAll(async () => {
    await Promise.all(fixtures.map((f) => f.close()));
    certs?.cleanup();
  });

  it('reports a real TLS server that accepts a NULL cipher suite, and nothing on a hardened twin', async () => {
    const weak = await start(
      startTlsServer({
        ...certs.strongKey,
        maxVersion: 'TLSv1.2',
        ciphers: 'NULL-SHA256:ECDHE-RSA-AES128-GCM-SHA256:@SECLEVEL=0',
      }),
    );
    const hardened = await start(startTlsServer({ ...certs.strongKey }));
    const [finding, ...rest] = await tlsWeakCipherSuitesCheck.run(checkContext(weak.address), https(weak));
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({
      check_id: 'tls-weak-cipher',
      title: 'TLS service accepts weak cipher suites (NULL)',
      severity: 'high',
    });
    expect(finding!.evidence.response).toMatch(
      /^NULL: accepted \(ServerHello TLSv1\.2, TLS_RSA_WITH_NULL_SHA256\)\nEXPORT: refused/,
    );
    expect(await tlsWeakCipherSuitesCheck.run(checkContext(hardened.address), https(hardened))).toEqual([]);
    expect(hardened.connections).toBe(4);
  });

  it('reports RC4 and 3DES chosen by a server Node’s OpenSSL could not even speak to, as medium', async () => {
    const weak = await start(startHelloFixture([0x0005, 0x000a]));
    const hardened = await start(startHelloFixture([]));
    const [finding] = await tlsWeakCipherSuitesCheck.run(
      checkContext(weak.host),
      serviceAt(weak.host, weak.port, 'https', { tls: true }),
    );
    expect(finding).toMatchObject({
      title: 'TLS service accepts weak cipher suites (RC4, 3DES)',
      severity: 'medium',
    });
    expect(finding!.evidence.response).toContain(
      'RC4: accepted (ServerHello TLSv1.2, TLS_RSA_WITH_RC4_128_SHA)',
    );
    expect(finding!.evidence.response).toContain('EXPORT: refused (alert handshake_failure)');
    expect(
      await tlsWeakCipherSuitesCheck.run(
        checkContext(hardened.host),
        serviceAt(hardened.host, hardened.port, 'https', { tls: true }),
      ),
    ).toEqual([]);
  });

  it('reports a 1024-bit RSA key, and nothing for a 2048-bit one', async () => {
    const weak = await start(startTlsServer({ ...certs.weakKey, ciphers: 'DEFAULT:@SECLEVEL=0' }));
    const strong = await start(startTlsServer({ ...certs.strongKey }));
    const [finding] = await tlsWeakKeyCheck.run(checkContext(weak.address), https(weak));
    expect(finding).toMatchObject({
      check_id: 'tls-certificate-weak-key',
      title: 'TLS certificate has an RSA key under 2048 bits (1024 bits)',
      severity: 'medium',
    });
    expect(finding!.evidence.response).toContain('Public key: RSA 1024 bits');
    expect(await tlsWeakKeyCheck.run(checkContext(strong.address), https(strong))).toEqual([]);
  });

  it('reports a certificate that is not valid yet, and nothing for a current one', async () => {
    const future = await start(startTlsServer({ ...certs.notYetValid }));
    const current = await start(startTlsServer({ ...certs.strongKey }));
    const [finding] = await tlsNotYetValidCheck.run(checkContext(future.address), https(future));
    expect(finding).toMatchObject({ check_id: 'tls-certificate-not-yet-valid', severity: 'medium' });
    expect(finding!.description).toContain('valid only from Jan  1 00:00:00 2099 GMT');
    expect(await tlsNotYetValidCheck.run(checkContext(current.address), https(current))).toEqual([]);
  });

  it('reports a certificate for another name when the scan target is a DNS name', async () => {
    const server = await start(
      startTlsServer({ key: certs.leaf.key, cert: certs.leaf.cert + certs.intermediate.cert }),
    );
    const [finding] = await tlsHostnameMismatchCheck.run(
      checkContext(server.address, { target: 'other.example.test' }),
      https(server),
    );
    expect(finding).toMatchObject({
      check_id: 'tls-certificate-hostname-mismatch',
      title: 'TLS certificate does not match the host name (other.example.test)',
      target: 'other.example.test',
    });
    expect(finding!.description).toContain('DNS:shop.example.test');
    expect(
      await tlsHostnameMismatchCheck.run(
        checkContext(server.address, { target: 'shop.example.test' }),
        https(server),
      ),
    ).toEqual([]);
  });

  it('reports a server that sends its leaf without the intermediate, and not one that sends the chain', async () => {
    const incomplete = await start(startTlsServer({ ...certs.leaf }));
    const complete = await start(
      startTlsServer({ key: certs.leaf.key, cert: certs.leaf.cert + certs.intermediate.cert }),
    );
    const ctx = checkContext(incomplete.address);
    const [finding] = await tlsIncompleteChainCheck.run(ctx, https(incomplete));
    expect(finding).toMatchObject({
      check_id: 'tls-certificate-chain-incomplete',
    });
    expect(finding!.description).toContain(
      'sends only its own certificate and not the certificate of its issuer CN=Scanward Test Intermediate CA',
    );
    // One weakness, one finding: the trust check leaves the incomplete chain to this one.
    expect(await tlsCertificateSelfSignedCheck.run(ctx, https(incomplete))).toEqual([]);

    const completeCtx = checkContext(complete.address);
    expect(await tlsIncompleteChainCheck.run(completeCtx, https(complete))).toEqual([]);
    // A whole chain to a root nobody trusts is still reported, by the trust check.
    const [untrusted] = await tlsCertificateSelfSignedCheck.run(completeCtx, https(complete));
    expect(untrusted).toMatchObject({
      title: 'TLS certificate is not issued by a trusted certificate authority',
    });
    expect(untrusted!.evidence.response).toContain('Issuers: CN=Scanward Test Intermediate CA');
  });

  it('registers every check for the web_analysis phase on TLS services only', () => {
    for (const check of tlsBreadthChecks) {
      expect(CHECKS).toContain(check);
      expect(check.phase).toBe('web_analysis');
      expect(check.appliesTo(serviceAt('127.0.0.1', 80, 'http'))).toBe(false);
      expect(check.appliesTo(serviceAt('127.0.0.1', 443, 'https', { tls: true }))).toBe(true);
    }
  });
});
