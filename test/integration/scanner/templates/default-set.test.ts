/**
 * A fresh install (no SCANWARD_TEMPLATES_DIR, no installed corpus) runs the curated default set
 * committed under server/scanner/templates/default/ in a full scan: an upstream template of the
 * set finds its weakness on a fixture, and nothing of the set fires on a clean twin.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TEMPLATES_DIR } from '../../../../server/scanner/templates/sources.ts';
import type { ScanState } from '../../../../server/scanner/types.ts';
import { getFindingRoute, listFindingsRoute } from '../../../../server/routes/findings.ts';
import { okBody } from '../../../helpers/api-client.ts';
import { runScanToEnd, startScanApp, type ScanApp } from '../../../helpers/scanner.ts';
import { randomLoopbackAddress } from '../../../fixtures/listeners.ts';
import { listenTracked, type TrackedServer } from '../../../fixtures/web-server.ts';

const AWS_CREDENTIALS =
  '[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = hunter2\n';

describe('templates on a fresh install', () => {
  let scanner: ScanApp;
  let dataDir: string;
  const fixtures: TrackedServer[] = [];

  async function startFixture(weak: boolean) {
    const host = randomLoopbackAddress();
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
    const tracked = await listenTracked(server, host);
    fixtures.push(tracked);
    return { host, port: tracked.port };
  }

  /** The scan tenant's findings on a fixture's host, through the API. */
  async function findingsOn(host: string) {
    const api = await scanner.tenant.client();
    return okBody(await api.call(listFindingsRoute, { query: { target: host, per_page: 100 } })).items;
  }

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'scanward-fresh-'));
    scanner = await startScanApp({ env: { SCANWARD_NMAP: 'off', SCANWARD_DATA_DIR: dataDir } });
  }, 60_000);
  afterAll(async () => {
    await scanner?.close();
    for (const f of fixtures) await f.close();
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
    const findings = await findingsOn(weak.host);
    const aws = findings.find((f) => f.template_id === 'aws-credentials');
    expect(aws).toMatchObject({ tool: 'nuclei-template' });
    const api = await scanner.tenant.client();
    const detail = okBody(await api.call(getFindingRoute, { params: { finding_id: aws!.id } }));
    expect(JSON.stringify(detail.evidence)).not.toContain('hunter2');
    // The compiled set is cached in the data directory for the next start.
    expect(existsSync(join(dataDir, 'templates', 'cache'))).toBe(true);
  }, 180_000);

  it('nothing of the default set fires on a clean twin', async () => {
    const clean = await startFixture(false);
    const final = await runScanToEnd(scanner, { target: clean.host, ports: String(clean.port) });
    expect(final.error).toBeNull();
    const findings = await findingsOn(clean.host);
    expect(findings.filter((f) => f.tool === 'nuclei-template').map((f) => f.template_id)).toEqual([]);
  }, 180_000);
});
