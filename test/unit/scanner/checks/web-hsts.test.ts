import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKS } from '../../../../server/scanner/check-registry.ts';
import { missingSecurityHeadersCheck } from '../../../../server/scanner/checks/web.ts';
import { lacksHsts, missingHstsCheck } from '../../../../server/scanner/checks/web-hsts.ts';
import { knowledgeForCheck } from '../../../../server/remediation/knowledge/index.ts';
import {
  generateTestCertificates,
  hasOpenssl,
  type TestCertificates,
} from '../../../fixtures/tls-certificates.ts';
import { checkContext, serviceAt } from '../../../helpers/phase-context.ts';

if (!hasOpenssl()) console.warn('skipping the HSTS fixtures: no openssl command to make certificates');

const HARDENED = {
  'Content-Security-Policy': "default-src 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
};

describe('missing HSTS on HTTPS', () => {
  it('reads the header as browsers do: absent or max-age=0 leaves HSTS unset', () => {
    expect(lacksHsts(new Map())).toBe(true);
    expect(lacksHsts(new Map([['strict-transport-security', 'max-age=0']]))).toBe(true);
    expect(lacksHsts(new Map([['strict-transport-security', 'includeSubDomains']]))).toBe(true);
    expect(lacksHsts(new Map([['strict-transport-security', 'max-age=31536000; includeSubDomains']]))).toBe(
      false,
    );
    expect(lacksHsts(new Map([['strict-transport-security', 'max-age="600"']]))).toBe(false);
  });

  it('is a check of its own, for HTTPS services only, with its remediation knowledge', () => {
    expect(CHECKS).toContain(missingHstsCheck);
    expect(missingHstsCheck.appliesTo(serviceAt('127.0.0.1', 443, 'https'))).toBe(true);
    expect(missingHstsCheck.appliesTo(serviceAt('127.0.0.1', 8443, 'http', { tls: true }))).toBe(true);
    expect(missingHstsCheck.appliesTo(serviceAt('127.0.0.1', 80, 'http'))).toBe(false);
    expect(knowledgeForCheck('missing-hsts')?.id).toBe('https-missing-hsts');
  });

  describe.skipIf(!hasOpenssl())('on HTTPS fixtures', () => {
    let certs: TestCertificates;
    const servers: Array<{ server: Server; sockets: Set<Socket> }> = [];

    beforeAll(() => {
      certs = generateTestCertificates();
    });
    afterAll(async () => {
      for (const { server, sockets } of servers) {
        for (const s of sockets) s.destroy();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
      certs?.cleanup();
    });

    async function fixture(headers: Record<string, string>, status = 200) {
      const sockets = new Set<Socket>();
      const server = createHttpsServer({ key: certs.leaf.key, cert: certs.leaf.cert }, (_req, res) =>
        res.writeHead(status, { ...headers, 'content-type': 'text/html' }).end('<html>shop</html>'),
      );
      server.on('connection', (s: Socket) => {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      servers.push({ server, sockets });
      return serviceAt('127.0.0.1', (server.address() as AddressInfo).port, 'https', { tls: true });
    }

    it('reports an HTTPS server without HSTS, with its evidence', async () => {
      const service = await fixture(HARDENED);
      const ctx = checkContext('127.0.0.1');
      const findings = await missingHstsCheck.run(ctx, service);
      expect(findings).toHaveLength(1);
      expect(findings[0]).toMatchObject({
        check_id: 'https-missing-hsts',
        affected_component: `https://127.0.0.1:${service.port}`,
      });
      expect(findings[0]!.evidence.request).toMatch(/^GET \/ HTTP\/1\.1/);
      // The other headers are there, so the headers check has nothing to say: one weakness, one finding.
      expect(await missingSecurityHeadersCheck.run(ctx, service)).toEqual([]);
    });

    it('reports max-age=0 and a redirect without HSTS too', async () => {
      const zero = await fixture({ ...HARDENED, 'Strict-Transport-Security': 'max-age=0' });
      expect(await missingHstsCheck.run(checkContext('127.0.0.1'), zero)).toHaveLength(1);
      const redirect = await fixture({ Location: '/login' }, 302);
      expect(await missingHstsCheck.run(checkContext('127.0.0.1'), redirect)).toHaveLength(1);
    });

    it('stays silent on the hardened twin that sends HSTS', async () => {
      const service = await fixture({
        ...HARDENED,
        'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
      });
      expect(await missingHstsCheck.run(checkContext('127.0.0.1'), service)).toEqual([]);
    });
  });
});
