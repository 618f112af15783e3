/**
 * A fresh install (no SCANWARD_TEMPLATES_DIR, no installed corpus) runs the curated default set
 * committed under server/scanner/templates/default/ in a full scan: an upstream template of the
 * set finds its weakness on a fixture, and nothing of the set fires on a clean twin.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TEMPLATES_DIR } from '../../../../server/scanner/templates/sources.ts';
import type { ScanState } from '../../../../server/scanner/types.ts';
import { runScanToEnd, startScanApp, type ScanApp } from '../../../helpers/scanner.ts';
import { randomLoopbackAddress } from '../../../fixtures/listeners.ts';

const AWS_CREDENTIALS =
  '[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = hunter2\n';

describe('templates on a fresh install', () => {
  let scanner: ScanApp;
  let dataDir: string;
  const fixtures: Array<{ server: Server; host: string; port: number; sockets: Set<Socket> }> = [];

  async function startFixture(weak: boolean) {
    const host = randomLoopbackAddress();
    const sockets = new Set<Socket>();
    const server = createServer((req, res) => {
      if (req.url === '/') {
        res.writeHead(200, {
          'content-type': 'text/html',
          'content-security-policy': "default-src 'self'; frame-ancestors 'none'",
          'x-content-type-options': 'nosniff',
        });
        return res.end('<html><body><h1>Shop</h1></body></html>');
      }
      if (weak && req.url === '/.aws/credentials') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        return res.end(AWS_CREDENTIALS);
      }
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    });
    server.on('connection', (s: Socket) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    fixtures.push({ server, host, port: (server.address() as AddressInfo).port, sockets });
    return fixtures.at(-1)!;
  }

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'scanward-fresh-'));
    scanner = await startScanApp({ env: { SCANWARD_NMAP: 'off', SCANWARD_DATA_DIR: dataDir } });
  }, 60_000);
  afterAll(async () => {
    await scanner?.close();
    for (const f of fixtures) {
      for (const socket of f.sockets) socket.destroy();
      await new Promise<void>((resolve) => f.server.close(() => resolve()));
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs the default set without set-up, and a set template finds its weakness', async () => {
    expect(scanner.app.config.templatesDir).toBeUndefined();
    expect(existsSync(join(DEFAULT_TEMPLATES_DIR, 'http/exposures/configs/aws-credentials.yaml'))).toBe(true);
    const weak = await startFixture(true);
    const final = await runScanToEnd(scanner, { target: weak.host, ports: String(weak.port) });
    expect(final.error).toBeNull();
    const state = (typeof final.state === 'string' ? JSON.parse(final.state) : final.state) as ScanState;
    expect(state.notes).toEqual(
      expect.arrayContaining([expect.stringMatching(/^templates: \d+ of \d+ loaded from the default set/)]),
    );
    const findings = (await scanner.app.services
      .db('findings')
      .where({ org_id: scanner.tenant.orgId })
      .whereLike('affected_component', `http://${weak.host}:${weak.port}%`)) as Array<{
      template_id: string;
      tool: string;
      evidence: unknown;
    }>;
    const aws = findings.find((f) => f.template_id === 'aws-credentials');
    expect(aws).toMatchObject({ tool: 'nuclei-template' });
    expect(JSON.stringify(aws!.evidence)).not.toContain('hunter2');
    // The compiled set is cached in the data directory for the next start.
    expect(existsSync(join(dataDir, 'templates', 'cache'))).toBe(true);
  }, 180_000);

  it('nothing of the default set fires on a clean twin', async () => {
    const clean = await startFixture(false);
    const final = await runScanToEnd(scanner, { target: clean.host, ports: String(clean.port) });
    expect(final.error).toBeNull();
    const findings = (await scanner.app.services
      .db('findings')
      .where({ org_id: scanner.tenant.orgId })
      .whereLike('affected_component', `http://${clean.host}:${clean.port}%`)) as Array<{
      template_id: string;
      tool: string;
    }>;
    expect(findings.filter((f) => f.tool === 'nuclei-template').map((f) => f.template_id)).toEqual([]);
  }, 180_000);
});
