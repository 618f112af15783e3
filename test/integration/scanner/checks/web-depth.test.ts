import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findingsOf, runScanToEnd, type ScanApp, startScanApp } from '../../../helpers/scanner.ts';
import { testEngine } from '../../../helpers/database.ts';
import { randomLoopbackAddress } from '../../../fixtures/listeners.ts';
import { startWebServer, type Route, type TrackedServer } from '../../../fixtures/web-server.ts';

describe(`detection depth through the scan runner (${testEngine})`, () => {
  let scanner: ScanApp;
  let server: TrackedServer;
  const host = randomLoopbackAddress();
  let port: number;

  beforeAll(async () => {
    scanner = await startScanApp({ env: { SCANWARD_NMAP: 'off' } });
    const headers = {
      Server: 'Apache/2.4.49 (Unix)',
      'X-Powered-By': 'PHP/7.4.3',
      'Content-Type': 'text/html',
    };
    const handler: Route = (req, res) => {
      if (req.url === '/')
        res.writeHead(200, headers).end('<a href="/files/">files</a><a href="/login">in</a>');
      else if (req.url === '/files/') {
        res.writeHead(200, headers).end('<title>Index of /files</title><a href="a.sql">a.sql</a>');
      } else if (req.url === '/login') {
        res.writeHead(200, { ...headers, 'Set-Cookie': 'PHPSESSID=abc; Path=/' }).end('<p>log in</p>');
      } else res.writeHead(404, headers).end();
    };
    server = await startWebServer({ fallback: handler, address: host });
    port = server.port;
  });
  afterAll(async () => {
    await scanner?.close();
    await server?.close();
  });

  it('a full scan reports the old Apache and PHP, the KEV CVE of the version, and the weaknesses one link deep', async () => {
    const final = await runScanToEnd(scanner, { target: host, ports: String(port) });
    expect(final.error).toBeNull();
    expect(final.status).toBe('completed');
    const findings = await findingsOf(scanner, { target: host });
    const byId = new Map(findings.map((f) => [f.template_id, f]));
    const base = `http://${host}:${port}`;
    expect(byId.get('software-outdated:apache-http-server')).toMatchObject({ severity: 'medium' });
    expect(byId.get('software-end-of-life:php')).toMatchObject({ severity: 'high' });
    const cve = byId.get('CVE-2021-41773')!;
    expect(cve).toMatchObject({ affected_component: base, tool: 'scanward-versions' });
    expect(cve.cve_ids).toContain('CVE-2021-41773');
    // On the KEV list: the list's kev filter finds it.
    expect((await findingsOf(scanner, { target: host, kev: 'true' })).map((f) => f.id)).toContain(cve.id);
    expect(['high', 'critical']).toContain(cve.severity);
    expect(byId.get('directory-listing')).toMatchObject({ affected_component: `${base}/files/` });
    expect(byId.get('session-cookie-attributes')).toMatchObject({ severity: 'medium' });
    expect(byId.get('http-version-disclosure')).toMatchObject({ severity: 'low' });
  }, 90_000);
});
