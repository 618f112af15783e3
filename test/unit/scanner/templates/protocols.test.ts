/**
 * Upstream network (`tcp:`) and ssl templates from the nuclei-templates corpus in ../shared/data,
 * run against loopback fixtures: each finds what nuclei would on the weak fixture and stays
 * silent on its hardened twin.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  networkTemplateApplies,
  runNetworkTemplates,
} from '../../../../server/scanner/templates/execute-network.ts';
import { runSslTemplates } from '../../../../server/scanner/templates/execute-ssl.ts';
import { compileAnyTemplate } from '../../../../server/scanner/templates/template-set.ts';
import type { NetworkTemplate, SslTemplate } from '../../../../server/scanner/templates/schema.ts';
import { closeAll, startListener, type FixtureListener } from '../../../fixtures/listeners.ts';
import {
  generateTestCertificates,
  hasOpenssl,
  type TestCertificates,
} from '../../../fixtures/tls-certificates.ts';
import { checkContext, serviceAt } from '../../../helpers/phase-context.ts';

const CORPUS = fileURLToPath(
  new URL('../../../../../shared/data/nuclei-templates-9424c7c.tar.gz', import.meta.url),
);
const haveCorpus = existsSync(CORPUS);
if (!haveCorpus) console.warn(`skipping the network and ssl template tests: ${CORPUS} is absent`);
if (!hasOpenssl()) console.warn('skipping the ssl template tests: no openssl command to make certificates');

let dir: string;
const template = <T>(path: string): T => compileAnyTemplate(readFileSync(join(dir, path), 'utf8'), path) as T;

beforeAll(() => {
  if (!haveCorpus) return;
  dir = mkdtempSync(join(tmpdir(), 'scanward-protocols-'));
  execFileSync('tar', ['-xzf', CORPUS, '-C', dir, 'network', 'ssl']);
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!haveCorpus)('network templates (tcp:)', () => {
  const listeners: FixtureListener[] = [];
  afterAll(() => closeAll(listeners));

  const redis = (auth: boolean) => (socket: Socket) =>
    socket.on('data', (data: Buffer) => {
      const text = data.toString('latin1');
      if (auth) socket.write('-NOAUTH Authentication required.\r\n');
      else if (/info/i.test(text)) {
        const body = '# Server\r\nredis_version:7.2.4\r\nredis_mode:standalone\r\n';
        socket.write(`$${body.length}\r\n${body}\r\n`);
      }
      if (/quit/i.test(text)) socket.end('+OK\r\n');
    });

  it('exposed-redis reports a Redis that answers INFO without authentication', async () => {
    const t = template<NetworkTemplate>('network/exposures/exposed-redis.yaml');
    expect(t.protocol).toBe('network');
    expect(t.ports).toEqual([6379, 6380]);
    const open = await startListener({ serve: redis(false) });
    listeners.push(open);
    const service = serviceAt(open.host, open.port, 'redis');
    // Not on 6379, but identified as Redis: the template's `redis` tag brings it to this service.
    expect(networkTemplateApplies(t, service)).toBe(true);
    expect(networkTemplateApplies(t, serviceAt(open.host, open.port, 'mysql'))).toBe(false);
    const run = await runNetworkTemplates(checkContext(open.host), service, [t]);
    expect(run.detections).toHaveLength(1);
    const [d] = run.detections;
    expect(d).toMatchObject({
      check_id: 'redis-no-auth',
      upstream_ids: ['exposed-redis'],
      tool: 'nuclei-template',
    });
    expect(d!.cwe_ids).toEqual(['CWE-306']);
    expect(d!.evidence.request).toContain('info');
    expect(d!.evidence.response).toContain('redis_version:7.2.4');
    expect(run.coverage).toEqual([{ target: open.host, check_id: 'redis-no-auth', port: open.port }]);
  });

  it('exposed-redis stays silent on a Redis that requires a password', async () => {
    const t = template<NetworkTemplate>('network/exposures/exposed-redis.yaml');
    const hardened = await startListener({ serve: redis(true) });
    listeners.push(hardened);
    const run = await runNetworkTemplates(
      checkContext(hardened.host),
      serviceAt(hardened.host, hardened.port, 'redis'),
      [t],
    );
    expect(run.detections).toEqual([]);
    expect(run.coverage).toHaveLength(1);
  });

  it('never connects outside the scan scope', async () => {
    const t = template<NetworkTemplate>('network/exposures/exposed-redis.yaml');
    await expect(
      runNetworkTemplates(checkContext('192.0.2.10'), serviceAt('192.0.2.10', 6379, 'redis'), [t]),
    ).rejects.toThrow(/outside the scan scope/);
  });
});

describe.skipIf(!haveCorpus || !hasOpenssl())('ssl templates', () => {
  let certs: TestCertificates;
  const servers: TlsServer[] = [];

  beforeAll(() => {
    certs = generateTestCertificates();
  });
  afterAll(async () => {
    for (const s of servers) await new Promise<void>((resolve) => s.close(() => resolve()));
    certs?.cleanup();
  });

  async function tlsFixture(options: Parameters<typeof createTlsServer>[0]) {
    const server = createTlsServer(options, (socket) => socket.end());
    server.on('tlsClientError', () => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    const port = (server.address() as { port: number }).port;
    return serviceAt('127.0.0.1', port, 'https', { tls: true });
  }

  it('self-signed-ssl reports a self-signed certificate and not one issued by a CA', async () => {
    const t = template<SslTemplate>('ssl/self-signed-ssl.yaml');
    const selfSigned = await tlsFixture({ key: certs.strongKey.key, cert: certs.strongKey.cert });
    const issued = await tlsFixture({
      key: certs.leaf.key,
      cert: `${certs.leaf.cert}${certs.intermediate.cert}`,
    });
    const weak = await runSslTemplates(checkContext('127.0.0.1'), selfSigned, [t]);
    // The template is an upstream name of the built-in check, so both make one finding.
    expect(weak.detections.map((d) => [d.check_id, d.upstream_ids])).toEqual([
      ['tls-certificate-self-signed', ['self-signed-ssl']],
    ]);
    expect(weak.detections[0]!.evidence.response).toContain('"self_signed": true');
    const hardened = await runSslTemplates(checkContext('127.0.0.1'), issued, [t]);
    expect(hardened.detections).toEqual([]);
    expect(hardened.coverage).toHaveLength(1);
  });

  it('deprecated-tls reports a server accepting TLS 1.0 and not one requiring TLS 1.2', async () => {
    const t = template<SslTemplate>('ssl/deprecated-tls.yaml');
    expect(t.requests.map((r) => [r.minVersion, r.sslv3])).toEqual([
      ['TLSv1.1', false],
      ['TLSv1', false],
      [undefined, true],
    ]);
    const old = await tlsFixture({
      key: certs.leaf.key,
      cert: certs.leaf.cert,
      minVersion: 'TLSv1',
      maxVersion: 'TLSv1.2',
      ciphers: 'DEFAULT:@SECLEVEL=0',
    });
    const modern = await tlsFixture({ key: certs.leaf.key, cert: certs.leaf.cert, minVersion: 'TLSv1.2' });
    const weak = await runSslTemplates(checkContext('127.0.0.1'), old, [t]);
    expect(weak.detections.map((d) => [d.check_id, d.upstream_ids])).toEqual([
      ['tls-legacy-protocol', ['deprecated-tls']],
    ]);
    expect(weak.detections[0]!.evidence.response).toMatch(/"tls_version": "tls1[01]"/);
    const hardened = await runSslTemplates(checkContext('127.0.0.1'), modern, [t]);
    expect(hardened.detections).toEqual([]);
    expect(hardened.coverage).toHaveLength(1);
  });
});

describe('network template reads', () => {
  const listeners: FixtureListener[] = [];
  afterAll(() => closeAll(listeners));

  it('take their size from a banner sent in one large chunk and leave the rest for the next read', async () => {
    const t = compileAnyTemplate(
      [
        'id: large-banner',
        'info:',
        '  name: A banner larger than the reads',
        '  author: scanward',
        '  severity: info',
        'tcp:',
        '  - inputs:',
        '      - data: "HELLO\\r\\n"',
        '        read: 16',
        '        name: first',
        '    host:',
        '      - "{{Hostname}}"',
        '    read-size: 32',
        '    matchers:',
        '      - type: word',
        '        part: first',
        '        words:',
        '          - "BANNER"',
      ].join('\n'),
      'large-banner.yaml',
    ) as NetworkTemplate;
    // One write far larger than both reads: it reaches the socket as a few large chunks.
    const banner = await startListener({ serve: (socket) => socket.end('BANNER' + 'x'.repeat(256 * 1024)) });
    listeners.push(banner);
    const run = await runNetworkTemplates(
      checkContext(banner.host),
      serviceAt(banner.host, banner.port, 'unknown'),
      [t],
    );
    expect(run.detections).toHaveLength(1);
    expect(run.detections[0]!.evidence.response.length).toBeLessThan(1024);
  });
});
