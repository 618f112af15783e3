import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Check } from '../../../../server/scanner/check.ts';
import { tlsBreadthChecks } from '../../../../server/scanner/checks/tls-breadth.ts';
import { tlsChecks } from '../../../../server/scanner/checks/tls.ts';
import { ServiceConnectError } from '../../../../server/scanner/net/service-connect.ts';
import { identifyService } from '../../../../server/scanner/net/service-id.ts';
import type { ServiceIdentification } from '../../../../server/scanner/net/services.ts';
import { startTlsOf } from '../../../../server/scanner/net/starttls.ts';
import { certificateHandshake } from '../../../../server/scanner/net/tls-handshake.ts';
import type { Detection } from '../../../../server/scanner/types.ts';
import {
  startStartTlsFixture,
  type StartTlsFixture,
  type StartTlsFixtureOptions,
  type StartTlsFixtureProtocol,
} from '../../../fixtures/starttls-services.ts';
import { startListener } from '../../../fixtures/listeners.ts';
import {
  generateTestCertificates,
  hasOpenssl,
  LEAF_NAME,
  type TestCertificates,
} from '../../../fixtures/tls-certificates.ts';
import { checkContext } from '../../../helpers/phase-context.ts';

const TLS_CHECKS: Check[] = [...tlsChecks, ...tlsBreadthChecks];

const loopbackOnly = (address: string): void => {
  if (!address.startsWith('127.') && address !== '::1') throw new Error(`${address} is outside the scope`);
};

/** The service as enumeration would hand it to the checks: identified by the real probes. */
function identify(fixture: StartTlsFixture): Promise<ServiceIdentification> {
  return identifyService({
    address: fixture.address,
    port: fixture.port,
    assertAllowed: loopbackOnly,
    replyWaitMs: 1000,
    greetingWaitMs: 1000,
  });
}

/** Every TLS check that applies, run as the web_analysis phase would. */
async function runTlsChecks(service: ServiceIdentification): Promise<Detection[]> {
  const ctx = checkContext(service.address);
  const detections: Detection[] = [];
  for (const check of TLS_CHECKS) {
    if (check.appliesTo(service)) detections.push(...(await check.run(ctx, service)));
  }
  return detections;
}

const openssl = hasOpenssl();
if (!openssl) console.warn('openssl is not installed: the STARTTLS check tests are skipped');

describe.skipIf(!openssl)('TLS checks over STARTTLS', () => {
  let certs: TestCertificates;
  const fixtures: StartTlsFixture[] = [];
  const start = async (options: StartTlsFixtureOptions): Promise<StartTlsFixture> => {
    const fixture = await startStartTlsFixture(options);
    fixtures.push(fixture);
    return fixture;
  };
  /** Self-signed 1024-bit RSA, TLS 1.0 and 1.1 accepted, a NULL suite enabled. */
  const weakTls = () => ({
    ...certs.weakKey,
    minVersion: 'TLSv1' as const,
    maxVersion: 'TLSv1.2' as const,
    ciphers: 'NULL-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-SHA:AES128-SHA:@SECLEVEL=0',
  });
  /** The intermediate's leaf with its chain, TLS 1.2 and later only, AEAD suites only (no CBC: LUCKY13). */
  const hardenedTls = () => ({
    key: certs.leaf.key,
    cert: certs.leaf.cert + certs.intermediate.cert,
    ciphers: 'ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-RSA-CHACHA20-POLY1305',
  });

  beforeAll(() => {
    certs = generateTestCertificates();
  });
  afterAll(async () => {
    await Promise.all(fixtures.map((f) => f.close()));
    certs?.cleanup();
  });

  it('reports the weak TLS of an SMTP server behind STARTTLS, on its smtp:// component', async () => {
    const fixture = await start({ protocol: 'smtp', tls: weakTls() });
    const service = await identify(fixture);
    expect(service).toMatchObject({ service: 'smtp', product: 'Postfix', details: { starttls: true } });
    expect(service.tls).toBeUndefined();
    expect(startTlsOf(service)).toBe('smtp');

    const detections = await runTlsChecks(service);
    const component = `smtp://${fixture.address}:${fixture.port}`;
    expect(detections.map((d) => [d.check_id, d.severity, d.affected_component]).sort()).toEqual([
      ['tls-cbc-beast', 'medium', component],
      ['tls-cbc-lucky13', 'low', component],
      ['tls-certificate-hostname-mismatch', 'low', component],
      ['tls-certificate-self-signed', 'medium', component],
      ['tls-certificate-weak-key', 'medium', component],
      ['tls-legacy-protocol', 'medium', component],
      ['tls-weak-cipher', 'high', component],
    ]);
    for (const detection of detections) {
      expect(detection.evidence.request).toContain(
        `TLS ClientHello to ${fixture.address}:${fixture.port} after STARTTLS (SMTP greeting, EHLO scanward.invalid, STARTTLS → 220)`,
      );
      expect(detection.description).toContain(`${component} (TLS after STARTTLS)`);
    }
    const legacy = detections.find((d) => d.check_id === 'tls-legacy-protocol')!;
    expect(legacy.evidence.response).toContain('TLSv1: accepted');
    const cipher = detections.find((d) => d.check_id === 'tls-weak-cipher')!;
    expect(cipher.evidence.response).toMatch(
      /^NULL: accepted \(ServerHello TLSv1\.2, TLS_RSA_WITH_NULL_SHA256\)/,
    );
    // Every TLS connection asked for the upgrade first (two legacy-version handshakes, the
    // shared certificate handshake, four raw ClientHellos, two CBC handshakes), and no mail command was sent.
    expect(fixture.commands.filter((c) => c === 'STARTTLS')).toHaveLength(9);
    expect(fixture.commands.some((c) => /^(MAIL|RCPT|DATA|AUTH)\b/i.test(c))).toBe(false);
  });

  it('reports the weak TLS of a PostgreSQL server after its SSLRequest', async () => {
    const fixture = await start({ protocol: 'postgresql', tls: weakTls() });
    const service = await identify(fixture);
    expect(service).toMatchObject({ service: 'postgresql', details: { ssl: true } });
    expect(startTlsOf(service)).toBe('postgresql');

    const detections = await runTlsChecks(service);
    const component = `postgresql://${fixture.address}:${fixture.port}`;
    expect(detections.map((d) => [d.check_id, d.affected_component]).sort()).toEqual([
      ['tls-cbc-beast', component],
      ['tls-cbc-lucky13', component],
      ['tls-certificate-hostname-mismatch', component],
      ['tls-certificate-self-signed', component],
      ['tls-certificate-weak-key', component],
      ['tls-legacy-protocol', component],
      ['tls-weak-cipher', component],
    ]);
    expect(detections[0]!.evidence.request).toContain('after STARTTLS (PostgreSQL SSLRequest → S)');
    expect(detections[0]!.description).toContain('(TLS after SSLRequest)');
  });

  it.each<[StartTlsFixtureProtocol, string, string]>([
    ['imap', 'IMAP greeting, STARTTLS → OK', 'STARTTLS'],
    ['pop3', 'POP3 greeting, STLS → +OK', 'STLS'],
    ['ftp', 'FTP greeting, AUTH TLS → 234', 'AUTH TLS'],
  ])('reports the legacy protocols of a %s server after its upgrade', async (protocol, exchange, command) => {
    const fixture = await start({ protocol, tls: weakTls() });
    const service = await identify(fixture);
    expect(service).toMatchObject({ service: protocol, details: { starttls: true } });

    const detections = await runTlsChecks(service);
    expect(detections.map((d) => d.check_id).sort()).toEqual([
      'tls-cbc-beast',
      'tls-cbc-lucky13',
      'tls-certificate-hostname-mismatch',
      'tls-certificate-self-signed',
      'tls-certificate-weak-key',
      'tls-legacy-protocol',
      'tls-weak-cipher',
    ]);
    for (const detection of detections) {
      expect(detection.affected_component).toBe(`${protocol}://${fixture.address}:${fixture.port}`);
      expect(detection.evidence.request).toContain(`after STARTTLS (${exchange})`);
    }
    expect(fixture.commands.filter((c) => c.toUpperCase().endsWith(command)).length).toBeGreaterThan(0);
  });

  it('finds nothing on a hardened twin: a chain its client trusts, TLS 1.2 and later, modern suites', async () => {
    const fixture = await start({ protocol: 'smtp', tls: hardenedTls() });
    const service = await identify(fixture);
    expect(startTlsOf(service)).toBe('smtp');
    // The fixture's root is trusted the only way Node allows: NODE_EXTRA_CA_CERTS, read at
    // start-up, so the checks run in a child process that trusts it.
    const dir = mkdtempSync(join(tmpdir(), 'scanward-starttls-'));
    try {
      writeFileSync(join(dir, 'root.pem'), certs.root.cert);
      const { stdout } = await promisify(execFile)(
        process.execPath,
        // Scanned by the name its clients use: the certificate names it, not the loopback address.
        ['--import', 'tsx', 'test/fixtures/run-tls-checks.ts', JSON.stringify(service), LEAF_NAME],
        { env: { ...process.env, NODE_EXTRA_CA_CERTS: join(dir, 'root.pem') }, timeout: 60_000 },
      );
      expect(JSON.parse(stdout)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(fixture.commands.filter((c) => c === 'STARTTLS')).toHaveLength(9);
  }, 60_000);

  it.each<StartTlsFixtureProtocol>(['smtp', 'imap', 'pop3', 'ftp', 'postgresql'])(
    'leaves a %s service that offers no upgrade alone: no TLS check applies, no upgrade is asked for',
    async (protocol) => {
      const fixture = await start({ protocol });
      const service = await identify(fixture);
      expect(service.service).toBe(protocol);
      expect(startTlsOf(service)).toBeUndefined();
      for (const check of TLS_CHECKS) expect(check.appliesTo(service), check.id).toBe(false);
      expect(await runTlsChecks(service)).toEqual([]);
      // Only PostgreSQL's probe asks (SSLRequest is how it learns whether TLS is offered).
      const asked = fixture.commands.filter((c) => /^(\S+ )?(STARTTLS|STLS|AUTH TLS)$/i.test(c));
      expect(asked).toEqual([]);
      expect(fixture.upgrades).toBe(0);
    },
  );

  it('does not cover a port whose service refuses the upgrade it advertised', async () => {
    const refusing = await startListener({
      banner: '220 mail.fixture.test ESMTP\r\n',
      serve: (socket) =>
        socket.on('data', (chunk: Buffer) => {
          const line = chunk.toString('latin1');
          if (/^EHLO/i.test(line)) socket.write('250-mail.fixture.test\r\n250 STARTTLS\r\n');
          else socket.write('454 4.7.0 TLS not available due to local problem\r\n');
        }),
    });
    fixtures.push({ close: () => refusing.close() } as StartTlsFixture);
    const service: ServiceIdentification = {
      address: refusing.host,
      port: refusing.port,
      service: 'smtp',
      details: { starttls: true },
      evidence: { request: '', response: '' },
      tool: 'scanward-probe',
    };
    const error = await certificateHandshake(checkContext(refusing.host), service).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceConnectError);
    expect(error).toMatchObject({ stage: 'starttls', code: 'STARTTLS_REFUSED' });
    expect((error as Error).message).toContain('454 4.7.0 TLS not available');
    // The legacy-protocol check throws too, so the runner records no coverage for the port.
    await expect(tlsChecks[0]!.run(checkContext(refusing.host), service)).rejects.toMatchObject({
      stage: 'starttls',
    });
  });
});
