import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createSecureContext,
  createServer as createTlsServer,
  type Server,
  type TlsOptions,
  type TLSSocket,
} from 'node:tls';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKS } from '../../../../server/scanner/check-registry.ts';
import {
  tlsCertificateExpiredCheck,
  tlsCertificateSelfSignedCheck,
  tlsChecks,
  tlsLegacyProtocolCheck,
} from '../../../../server/scanner/checks/tls.ts';
import { missingSecurityHeadersCheck } from '../../../../server/scanner/checks/web.ts';
import { missingHstsCheck } from '../../../../server/scanner/checks/web-hsts.ts';
import type { ServiceIdentification } from '../../../../server/scanner/net/services.ts';
import { emptyState, type PhaseContext } from '../../../../server/scanner/types.ts';
import type { Services } from '../../../../server/services.ts';
import { randomLoopbackAddress } from '../../../fixtures/listeners.ts';

interface Certificates {
  valid: { key: string; cert: string };
  expired: { key: string; cert: string };
}

function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A valid self-signed certificate and one that expired in 2020 (`openssl ca` can backdate; `req -days` cannot). */
function generateCertificates(dir: string): Certificates {
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  run(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'valid.key',
    '-out',
    'valid.crt',
    '-days',
    '2',
    '-subj',
    '/CN=self-signed.test',
  );
  run(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'expired.key',
    '-out',
    'expired.csr',
    '-subj',
    '/CN=expired.test',
  );
  mkdirSync(join(dir, 'ca'));
  writeFileSync(join(dir, 'ca', 'index.txt'), '');
  writeFileSync(join(dir, 'ca', 'serial'), '01\n');
  writeFileSync(
    join(dir, 'ca.cnf'),
    '[ca]\ndefault_ca = d\n[d]\ndatabase = ca/index.txt\nnew_certs_dir = ca\nserial = ca/serial\n' +
      'default_md = sha256\npolicy = p\nunique_subject = no\n[p]\ncommonName = supplied\n',
  );
  run(
    'ca',
    '-batch',
    '-config',
    'ca.cnf',
    '-selfsign',
    '-keyfile',
    'expired.key',
    '-in',
    'expired.csr',
    '-out',
    'expired.crt',
    '-startdate',
    '20200101000000Z',
    '-enddate',
    '20200102000000Z',
    '-notext',
  );
  const read = (name: string) => readFileSync(join(dir, name), 'utf8');
  return {
    valid: { key: read('valid.key'), cert: read('valid.crt') },
    expired: { key: read('expired.key'), cert: read('expired.crt') },
  };
}

interface TlsFixture {
  address: string;
  port: number;
  connections: number;
  close(): Promise<void>;
}

async function listen(server: Server, extra?: (socket: TLSSocket) => void): Promise<TlsFixture> {
  const address = randomLoopbackAddress();
  const sockets = new Set<Socket>();
  const fixture = { address, port: 0, connections: 0 } as unknown as TlsFixture;
  server.on('connection', (socket: Socket) => {
    fixture.connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('secureConnection', (socket: TLSSocket) => extra?.(socket));
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  fixture.port = (server.address() as AddressInfo).port;
  fixture.close = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return fixture;
}

const startTls = (options: TlsOptions) => listen(createTlsServer(options), (socket) => socket.end());

function phaseContext(
  address: string,
  options: { target?: string; signal?: AbortSignal } = {},
): PhaseContext {
  const target = options.target ?? address;
  return {
    scan: {
      id: 'scan_test',
      org_id: 'org_test',
      target,
      scan_type: 'full',
      frameworks: [],
      ports: null,
      attempts: 0,
      created_by: null,
    },
    state: { ...emptyState(), hosts: [{ target, address, alive: true }] },
    signal: options.signal ?? new AbortController().signal,
    services: {} as Services,
    log: pino({ enabled: false }),
    progress: { setTotal: () => undefined, advance: () => undefined, tool: () => undefined },
    assertAllowed: (a) => {
      if (!a.startsWith('127.')) throw new Error(`${a} is outside the scan scope`);
    },
  };
}

function httpsService(fixture: TlsFixture): ServiceIdentification {
  return {
    address: fixture.address,
    port: fixture.port,
    service: 'https',
    tls: true,
    evidence: { request: '', response: '' },
    tool: 'scanward-probe',
  };
}

async function runAll(ctx: PhaseContext, service: ServiceIdentification) {
  return (await Promise.all(tlsChecks.map((check) => check.run(ctx, service)))).flat();
}

const openssl = hasOpenssl();
if (!openssl) console.warn('openssl is not installed: the TLS check tests are skipped');

describe.skipIf(!openssl)('TLS checks', () => {
  let dir: string;
  let certs: Certificates;
  let modern: TlsFixture;
  let legacy: TlsFixture;
  let expired: TlsFixture;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'scanward-tls-'));
    certs = generateCertificates(dir);
    modern = await startTls({ ...certs.valid, minVersion: 'TLSv1.2' });
    legacy = await startTls({ ...certs.valid, minVersion: 'TLSv1', ciphers: 'DEFAULT:@SECLEVEL=0' });
    expired = await startTls({ ...certs.expired });
  });
  afterAll(async () => {
    await Promise.all([modern?.close(), legacy?.close(), expired?.close()]);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('reports a self-signed certificate, and nothing else on a modern server', async () => {
    const detections = await runAll(phaseContext(modern.address), httpsService(modern));
    expect(detections).toHaveLength(1);
    expect(detections[0]).toMatchObject({
      check_id: 'tls-certificate-self-signed',
      title: 'TLS certificate is self-signed',
      severity: 'medium',
      tool: 'scanward-tls',
      category: 'tls',
      cwe_ids: ['CWE-295'],
      target: modern.address,
      port: modern.port,
      affected_component: `https://${modern.address}:${modern.port}`,
    });
    expect(detections[0]!.evidence.request).toContain('no SNI');
    expect(detections[0]!.evidence.response).toContain('Subject: CN=self-signed.test');
    expect(detections[0]!.evidence.response).toMatch(
      /Verification: (DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED)/,
    );
  });

  it('reports which legacy protocol versions a server still accepts', async () => {
    const [finding, ...rest] = await tlsLegacyProtocolCheck.run(
      phaseContext(legacy.address),
      httpsService(legacy),
    );
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({
      check_id: 'tls-legacy-protocol',
      severity: 'medium',
      category: 'tls',
      cwe_ids: ['CWE-326', 'CWE-757'],
      title: 'TLS service accepts deprecated protocol versions (TLS 1 and TLS 1.1)',
    });
    expect(finding!.evidence.request).toContain('offering only TLSv1.1');
    expect(finding!.evidence.response).toMatch(/^TLSv1: accepted .*\nTLSv1\.1: accepted/);
  });

  it('does not report legacy protocols on a server that refuses them', async () => {
    const before = modern.connections;
    expect(await tlsLegacyProtocolCheck.run(phaseContext(modern.address), httpsService(modern))).toEqual([]);
    expect(modern.connections - before).toBe(2);
  });

  it('reports an expired certificate as high (and, being self-signed, that too)', async () => {
    const detections = await runAll(phaseContext(expired.address), httpsService(expired));
    const byId = Object.fromEntries(detections.map((d) => [d.check_id, d]));
    expect(Object.keys(byId).sort()).toEqual(['tls-certificate-expired', 'tls-certificate-self-signed']);
    expect(byId['tls-certificate-expired']).toMatchObject({
      severity: 'high',
      cwe_ids: ['CWE-298'],
      affected_component: `https://${expired.address}:${expired.port}`,
    });
    expect(byId['tls-certificate-expired']!.description).toContain('Jan  2 00:00:00 2020 GMT');
    expect(byId['tls-certificate-expired']!.evidence.response).toContain(
      'Not after: Jan  2 00:00:00 2020 GMT',
    );
  });

  it('shares one handshake between the two certificate checks', async () => {
    const before = expired.connections;
    const ctx = phaseContext(expired.address);
    await tlsCertificateExpiredCheck.run(ctx, httpsService(expired));
    await tlsCertificateSelfSignedCheck.run(ctx, httpsService(expired));
    expect(expired.connections - before).toBe(1);
  });

  it('sends SNI only when the scan target is a DNS name', async () => {
    // SNICallback runs while the server reads the ClientHello, before the client can hang up.
    const names: string[] = [];
    const context = createSecureContext(certs.valid);
    const sni = await startTls({
      ...certs.valid,
      SNICallback: (name, done) => {
        names.push(name);
        done(null, context);
      },
    });
    try {
      await tlsCertificateSelfSignedCheck.run(phaseContext(sni.address), httpsService(sni));
      expect(sni.connections).toBe(1);
      expect(names).toEqual([]);
      await tlsCertificateSelfSignedCheck.run(
        phaseContext(sni.address, { target: 'shop.example.test' }),
        httpsService(sni),
      );
      expect(names).toEqual(['shop.example.test']);
    } finally {
      await sni.close();
    }
  });

  it('stops at once when the scan is cancelled', async () => {
    const controller = new AbortController();
    controller.abort(new Error('scan cancelled'));
    const before = modern.connections;
    for (const check of tlsChecks) {
      await expect(
        check.run(phaseContext(modern.address, { signal: controller.signal }), httpsService(modern)),
      ).rejects.toThrow('scan cancelled');
    }
    expect(modern.connections).toBe(before);
  });

  it('checks the headers of an HTTPS service, leaving HSTS to its own check', async () => {
    const noHsts = await listen(
      createHttpsServer({ ...certs.valid }, (_req, res) =>
        res
          .writeHead(200, {
            'Content-Security-Policy': "default-src 'self'",
            'X-Content-Type-Options': 'nosniff',
            'X-Frame-Options': 'DENY',
          })
          .end('ok'),
      ),
    );
    const withHsts = await listen(
      createHttpsServer({ ...certs.valid }, (_req, res) =>
        res
          .writeHead(200, {
            'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
            'Content-Security-Policy': "default-src 'self'; frame-ancestors 'self'",
            'X-Content-Type-Options': 'nosniff',
          })
          .end('ok'),
      ),
    );
    try {
      // The other headers are there: missing HSTS alone is https-missing-hsts's finding, not this one.
      expect(
        await missingSecurityHeadersCheck.run(phaseContext(noHsts.address), httpsService(noHsts)),
      ).toEqual([]);
      const [finding] = await missingHstsCheck.run(phaseContext(noHsts.address), httpsService(noHsts));
      expect(finding).toMatchObject({
        check_id: 'https-missing-hsts',
        severity: 'medium',
        affected_component: `https://${noHsts.address}:${noHsts.port}`,
      });
      expect(await missingHstsCheck.run(phaseContext(withHsts.address), httpsService(withHsts))).toEqual([]);
      expect(
        await missingSecurityHeadersCheck.run(phaseContext(withHsts.address), httpsService(withHsts)),
      ).toEqual([]);
    } finally {
      await Promise.all([noHsts.close(), withHsts.close()]);
    }
  });

  it('registers every TLS check for the web_analysis phase', () => {
    for (const check of tlsChecks) {
      expect(CHECKS).toContain(check);
      expect(check.phase).toBe('web_analysis');
      expect(check.appliesTo({ ...httpsService(modern), service: 'http', tls: false })).toBe(false);
    }
  });
});
