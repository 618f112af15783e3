import { createServer as createHttpsServer } from 'node:https';
import { createSecureContext } from 'node:tls';
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
import type { PhaseContext } from '../../../../server/scanner/types.ts';
import type { ServiceIdentification } from '../../../../server/scanner/net/services.ts';
import {
  generateTestCertificates,
  hasOpenssl,
  LEAF_NAME,
  type TestCertificates,
} from '../../../fixtures/tls-certificates.ts';
import { listenTls, startTlsServer, type TlsFixture } from '../../../fixtures/tls-server.ts';
import { checkContext, serviceAt } from '../../../helpers/phase-context.ts';

const httpsService = (fixture: TlsFixture) =>
  serviceAt(fixture.address, fixture.port, 'https', { tls: true });

async function runAll(ctx: PhaseContext, service: ServiceIdentification) {
  return (await Promise.all(tlsChecks.map((check) => check.run(ctx, service)))).flat();
}

const openssl = hasOpenssl();
if (!openssl) console.warn('openssl is not installed: the TLS check tests are skipped');

describe.skipIf(!openssl)('TLS checks', () => {
  let certs: TestCertificates;
  let modern: TlsFixture;
  let legacy: TlsFixture;
  let expired: TlsFixture;

  beforeAll(async () => {
    certs = generateTestCertificates();
    modern = await startTlsServer({ ...certs.strongKey, minVersion: 'TLSv1.2' });
    legacy = await startTlsServer({
      ...certs.strongKey,
      minVersion: 'TLSv1',
      ciphers: 'DEFAULT:@SECLEVEL=0',
    });
    expired = await startTlsServer({ ...certs.expired });
  });
  afterAll(async () => {
    await Promise.all([modern?.close(), legacy?.close(), expired?.close()]);
    certs?.cleanup();
  });

  it('reports a self-signed certificate, and nothing else on a modern server', async () => {
    const detections = await runAll(checkContext(modern.address), httpsService(modern));
    expect(detections).toHaveLength(1);
    expect(detections[0]).toMatchObject({
      check_id: 'tls-certificate-self-signed',
      title: 'TLS certificate is self-signed',
      target: modern.address,
      port: modern.port,
      affected_component: `https://${modern.address}:${modern.port}`,
    });
    expect(detections[0]!.evidence.request).toContain('no SNI');
    expect(detections[0]!.evidence.response).toContain(`Subject: CN=${LEAF_NAME}`);
    expect(detections[0]!.evidence.response).toMatch(
      /Verification: (DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED)/,
    );
  });

  it('reports which legacy protocol versions a server still accepts', async () => {
    const [finding, ...rest] = await tlsLegacyProtocolCheck.run(
      checkContext(legacy.address),
      httpsService(legacy),
    );
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({
      check_id: 'tls-legacy-protocol',
      title: 'TLS service accepts deprecated protocol versions (TLS 1 and TLS 1.1)',
    });
    expect(finding!.evidence.request).toContain('offering only TLSv1.1');
    expect(finding!.evidence.response).toMatch(/^TLSv1: accepted .*\nTLSv1\.1: accepted/);
  });

  it('does not report legacy protocols on a server that refuses them', async () => {
    const before = modern.connections;
    expect(await tlsLegacyProtocolCheck.run(checkContext(modern.address), httpsService(modern))).toEqual([]);
    expect(modern.connections - before).toBe(2);
  });

  it('reports an expired certificate as high (and, being self-signed, that too)', async () => {
    const detections = await runAll(checkContext(expired.address), httpsService(expired));
    const byId = Object.fromEntries(detections.map((d) => [d.check_id, d]));
    expect(Object.keys(byId).sort()).toEqual(['tls-certificate-expired', 'tls-certificate-self-signed']);
    expect(byId['tls-certificate-expired']).toMatchObject({
      severity: 'high',
      affected_component: `https://${expired.address}:${expired.port}`,
    });
    expect(byId['tls-certificate-expired']!.description).toContain('Jan  2 00:00:00 2020 GMT');
    expect(byId['tls-certificate-expired']!.evidence.response).toContain(
      'Not after: Jan  2 00:00:00 2020 GMT',
    );
  });

  it('shares one handshake between the two certificate checks', async () => {
    const before = expired.connections;
    const ctx = checkContext(expired.address);
    await tlsCertificateExpiredCheck.run(ctx, httpsService(expired));
    await tlsCertificateSelfSignedCheck.run(ctx, httpsService(expired));
    expect(expired.connections - before).toBe(1);
  });

  it('sends SNI only when the scan target is a DNS name', async () => {
    // SNICallback runs while the server reads the ClientHello, before the client can hang up.
    const names: string[] = [];
    const context = createSecureContext(certs.strongKey);
    const sni = await startTlsServer({
      ...certs.strongKey,
      SNICallback: (name, done) => {
        names.push(name);
        done(null, context);
      },
    });
    try {
      await tlsCertificateSelfSignedCheck.run(checkContext(sni.address), httpsService(sni));
      expect(sni.connections).toBe(1);
      expect(names).toEqual([]);
      await tlsCertificateSelfSignedCheck.run(
        checkContext(sni.address, { target: 'shop.example.test' }),
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
        check.run(checkContext(modern.address, { signal: controller.signal }), httpsService(modern)),
      ).rejects.toThrow('scan cancelled');
    }
    expect(modern.connections).toBe(before);
  });

  it('checks the headers of an HTTPS service, leaving HSTS to its own check', async () => {
    const noHsts = await listenTls(
      createHttpsServer({ ...certs.strongKey }, (_req, res) =>
        res
          .writeHead(200, {
            'Content-Security-Policy': "default-src 'self'",
            'X-Content-Type-Options': 'nosniff',
            'X-Frame-Options': 'DENY',
          })
          .end('ok'),
      ),
    );
    const withHsts = await listenTls(
      createHttpsServer({ ...certs.strongKey }, (_req, res) =>
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
        await missingSecurityHeadersCheck.run(checkContext(noHsts.address), httpsService(noHsts)),
      ).toEqual([]);
      const [finding] = await missingHstsCheck.run(checkContext(noHsts.address), httpsService(noHsts));
      expect(finding).toMatchObject({
        check_id: 'https-missing-hsts',
        severity: 'medium',
        affected_component: `https://${noHsts.address}:${noHsts.port}`,
      });
      expect(await missingHstsCheck.run(checkContext(withHsts.address), httpsService(withHsts))).toEqual([]);
      expect(
        await missingSecurityHeadersCheck.run(checkContext(withHsts.address), httpsService(withHsts)),
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
