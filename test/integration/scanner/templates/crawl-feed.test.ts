/**
 * The bounded crawl feeds the templates: an upstream template addressed to `{{BaseURL}}` runs
 * again under the directory of a page the crawl found one link deep, as nuclei would given that
 * page, and finds there what the service root does not have; the hardened twin (same links, no
 * exposure) stays clean.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFindingsRoute } from '../../../../server/routes/findings.ts';
import { okBody } from '../../../helpers/api-client.ts';
import { runScanToEnd, startScanApp, type ScanApp } from '../../../helpers/scanner.ts';
import { randomLoopbackAddress } from '../../../fixtures/listeners.ts';
import { listenTracked, type TrackedServer } from '../../../fixtures/web-server.ts';

const CORPUS = fileURLToPath(
  new URL('../../../../../shared/data/nuclei-templates-9424c7c.tar.gz', import.meta.url),
);
const haveCorpus = existsSync(CORPUS);
if (!haveCorpus) console.warn(`skipping the crawl-fed template test: ${CORPUS} is absent`);

describe.skipIf(!haveCorpus)('templates on the crawled pages', () => {
  let scanner: ScanApp;
  let work: string;
  const fixtures: TrackedServer[] = [];

  async function startFixture(weak: boolean) {
    const host = randomLoopbackAddress();
    const paths: string[] = [];
    const server = createServer((req, res) => {
      paths.push(req.url ?? '');
      if (req.url === '/') {
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end('<html><body><a href="/shop/index.html">Shop</a></body></html>');
      }
      if (req.url === '/shop/index.html') {
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end('<html><body>Shop</body></html>');
      }
      if (weak && req.url === '/shop/.git/config') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        return res.end('[core]\n\trepositoryformatversion = 0\n\tbare = false\n');
      }
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    });
    const tracked = await listenTracked(server, host);
    fixtures.push(tracked);
    return { host, port: tracked.port, paths };
  }

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'scanward-crawl-feed-'));
    execFileSync('tar', ['-xzf', CORPUS, '-C', work, 'http/exposures/configs/git-config.yaml']);
    scanner = await startScanApp({
      env: {
        SCANWARD_TEMPLATES_DIR: join(work, 'http'),
        SCANWARD_NMAP: 'off',
        SCANWARD_DATA_DIR: join(work, 'data'),
      },
    });
  }, 60_000);
  afterAll(async () => {
    await scanner?.close();
    for (const f of fixtures) await f.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  async function templateFindings(host: string, port: number) {
    const final = await runScanToEnd(scanner, { target: host, ports: String(port) });
    expect(final.error).toBeNull();
    const api = await scanner.tenant.client();
    const query = { target: host, tool: 'nuclei-template', per_page: 100 };
    const { items } = okBody(await api.call(listFindingsRoute, { query }));
    return items.sort((a, b) => (a.affected_component < b.affected_component ? -1 : 1));
  }

  it('runs a {{BaseURL}} template under the directory of a crawled page', async () => {
    const weak = await startFixture(true);
    const findings = await templateFindings(weak.host, weak.port);
    expect(findings.map((f) => [f.template_id, f.affected_component])).toEqual([
      ['git-config-exposed', `http://${weak.host}:${weak.port}/shop/.git/config`],
    ]);
    expect(weak.paths).toEqual(expect.arrayContaining(['/.git/config', '/shop/.git/config']));
  }, 120_000);

  it('finds nothing on the hardened twin, and asks for no path off the crawled directories', async () => {
    const clean = await startFixture(false);
    expect(await templateFindings(clean.host, clean.port)).toEqual([]);
    const gitRequests = clean.paths.filter((p) => p.endsWith('/.git/config')).sort();
    expect(gitRequests).toEqual(['/.git/config', '/.git/config', '/shop/.git/config']);
  }, 120_000);
});
