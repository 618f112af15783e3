import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:tls';
import { afterAll, describe, expect, it } from 'vitest';
import { NO_SAN_CHECK_ID, tlsHostnameMismatchCheck } from '../../../../server/scanner/checks/tls-breadth.ts';
import { hasOpenssl, type KeyPair } from '../../../fixtures/tls-certificates.ts';
import { listenTls, type TlsFixture } from '../../../fixtures/tls-server.ts';
import { checkContext, serviceAt } from '../../../helpers/phase-context.ts';

/** A self-signed pair for CN=`commonName`, with `san` as its subjectAltName extension, or none. */
function selfSigned(commonName: string, san?: string): KeyPair {
  const dir = mkdtempSync(join(tmpdir(), 'scanward-names-'));
  try {
    execFileSync(
      'openssl',
      [
        ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'k.pem', '-out', 'c.pem'],
        ...['-days', '2', '-subj', `/CN=${commonName}`],
        ...(san ? ['-addext', `subjectAltName=${san}`] : []),
      ],
      { cwd: dir, stdio: 'pipe' },
    );
    return { key: readFileSync(join(dir, 'k.pem'), 'utf8'), cert: readFileSync(join(dir, 'c.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A TLS server on a random loopback address whose certificate `certificate(address)` makes
 * once the address is known (so it can name that address).
 */
async function startNamed(certificate: (address: string) => KeyPair): Promise<TlsFixture> {
  const server = createServer({}, (socket) => socket.end());
  const fixture = await listenTls(server);
  server.setSecureContext(certificate(fixture.address));
  return fixture;
}

const https = (f: TlsFixture) => serviceAt(f.address, f.port, 'https', { tls: true });
const openssl = hasOpenssl();

describe.skipIf(!openssl)('certificate names against the address and DNS name scanned', () => {
  const fixtures: TlsFixture[] = [];
  const start = async (certificate: (address: string) => KeyPair): Promise<TlsFixture> => {
    const fixture = await startNamed(certificate);
    fixtures.push(fixture);
    return fixture;
  };
  afterAll(async () => {
    await Promise.all(fixtures.map((f) => f.close()));
  });

  it('reports a certificate naming no IP address when the scan target is an address, not one naming it', async () => {
    const dnsOnly = await start(() => selfSigned('shop.example.test', 'DNS:shop.example.test'));
    const [finding, ...rest] = await tlsHostnameMismatchCheck.run(
      checkContext(dnsOnly.address),
      https(dnsOnly),
    );
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({
      check_id: 'tls-certificate-hostname-mismatch',
      title: `TLS certificate does not match the address scanned (${dnsOnly.address})`,
      severity: 'low',
    });
    expect(finding!.description).toContain(
      `presents a certificate for DNS:shop.example.test, which names no IP address ${dnsOnly.address}`,
    );
    expect(finding!.evidence.response).toContain('Subject alternative names: DNS:shop.example.test');

    // The hardened twin names its address (and its DNS name): nothing for either kind of target.
    const named = await start((address) =>
      selfSigned('shop.example.test', `DNS:shop.example.test,IP:${address}`),
    );
    expect(await tlsHostnameMismatchCheck.run(checkContext(named.address), https(named))).toEqual([]);
    expect(
      await tlsHostnameMismatchCheck.run(
        checkContext(named.address, { target: 'shop.example.test' }),
        https(named),
      ),
    ).toEqual([]);
  });

  it('reports a certificate without any subject alternative name once, as such, for a name or an address', async () => {
    const cnOnly = await start(() => selfSigned('shop.example.test'));
    for (const ctx of [
      checkContext(cnOnly.address),
      checkContext(cnOnly.address, { target: 'shop.example.test' }),
    ]) {
      const [finding, ...rest] = await tlsHostnameMismatchCheck.run(ctx, https(cnOnly));
      expect(rest).toEqual([]);
      expect(finding).toMatchObject({
        check_id: NO_SAN_CHECK_ID,
        title: 'TLS certificate has no subject alternative name',
        severity: 'medium',
      });
      expect(finding!.description).toContain('for CN=shop.example.test without a subject alternative name');
      // The runner resolves a fixed one: the variant's id is judged on the port every time.
      expect(ctx.state.coverage).toContainEqual(
        expect.objectContaining({ check_id: NO_SAN_CHECK_ID, port: cnOnly.port }),
      );
    }
  });
});
