import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  evidenceOf,
  findingsOf,
  runScanToEnd,
  type ScanApp,
  startScanApp,
} from '../../../helpers/scanner.ts';
import { testEngine } from '../../../helpers/database.ts';
import { randomLoopbackAddress } from '../../../fixtures/listeners.ts';
import { startWebServer, type Route, type TrackedServer } from '../../../fixtures/web-server.ts';

describe(`web checks through the scan runner (${testEngine})`, () => {
  let scanner: ScanApp;
  let server: TrackedServer;
  const host = randomLoopbackAddress();
  let port: number;

  beforeAll(async () => {
    // nmap's second opinion is not what these tests are about, and costs ~20 s per HTTP fixture.
    scanner = await startScanApp({ env: { SCANWARD_NMAP: 'off' } });
    const handler: Route = (req, res) => {
      if (req.url === '/.git/config') {
        res.writeHead(200, { 'Content-Type': 'text/plain' }).end('[core]\n\trepositoryformatversion = 0\n');
      } else if (req.url === '/.env') {
        res.writeHead(200, { 'Content-Type': 'text/plain' }).end('DB_PASSWORD=hunter2-db-password\n');
      } else if (req.url === '/') {
        res
          .writeHead(200, { 'Content-Type': 'text/html' })
          .end('<html><head><title>Index of /</title></head><body><a href="a.txt">a.txt</a></body></html>');
      } else {
        res.writeHead(404).end();
      }
    };
    server = await startWebServer({ fallback: handler, address: host });
    port = server.port;
  });
  afterAll(async () => {
    await scanner?.close();
    await server?.close();
  });

  it('a full scan of a loopback web server records the web findings', async () => {
    const final = await runScanToEnd(scanner, { target: host, ports: String(port) });
    expect(final.error).toBeNull();
    expect(final.status).toBe('completed');

    const findings = await findingsOf(scanner, { tool: 'scanward-web' });
    const base = `http://${host}:${port}`;
    expect(findings.map((f) => [f.template_id, f.severity, f.affected_component])).toEqual([
      ['directory-listing', 'medium', `${base}/`],
      ['env-file-exposed', 'high', `${base}/.env`],
      ['git-config-exposed', 'high', `${base}/.git/config`],
      ['http-missing-security-headers', 'low', base],
    ]);
    for (const finding of findings) {
      expect(finding.target).toBe(host);
      expect(Number(new URL(finding.affected_component).port)).toBe(port);
    }
    const env = findings.find((f) => f.template_id === 'env-file-exposed')!;
    const evidence = await evidenceOf(scanner, env.id);
    expect(evidence).toContain('DB_PASSWORD=***');
    expect(evidence).not.toContain('hunter2');
  }, 90_000);
});
