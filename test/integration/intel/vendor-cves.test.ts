import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getFindingRoute, listFindingsRoute } from '../../../server/routes/findings.ts';
import type { FindingDetail } from '../../../server/schemas/findings.ts';
import { epssSnapshotInfo } from '../../../server/intel/epss.ts';
import { vendorCves } from '../../../server/intel/vendor-cves.ts';
import { apiClient, expectError, type ApiClient } from '../../helpers/api-client.ts';
import { testEngine } from '../../helpers/database.ts';
import { runScanToEnd, startScanApp, type ScanApp } from '../../helpers/scanner.ts';
import { randomLoopbackAddress } from '../../fixtures/listeners.ts';
import { startWebServer, type TrackedServer } from '../../fixtures/web-server.ts';

/** A loopback web server that announces `server` on every answer. */
async function announcing(server: string): Promise<{ host: string; web: TrackedServer }> {
  const host = randomLoopbackAddress();
  const web = await startWebServer({
    address: host,
    fallback: (_req, res) => res.writeHead(200, { Server: server, 'Content-Type': 'text/plain' }).end('ok'),
  });
  return { host, web };
}

describe(`vendor CVEs of announced versions through the scan runner (${testEngine})`, () => {
  let scanner: ScanApp;
  let api: ApiClient;
  const servers: TrackedServer[] = [];

  beforeAll(async () => {
    scanner = await startScanApp({ env: { SCANWARD_NMAP: 'off' } });
    api = apiClient(scanner.app, { token: await scanner.tenant.bearer() });
  });
  afterAll(async () => {
    await scanner?.close();
    for (const s of servers) await s.close();
  });

  /** Quick-scans a server announcing `header`; answers the findings on it, by CVE finding. */
  async function scanOf(header: string) {
    const { host, web } = await announcing(header);
    servers.push(web);
    const scan = await runScanToEnd(scanner, { target: host, ports: String(web.port), scanType: 'quick' });
    expect(scan.status).toBe('completed');
    const page = await api.call(listFindingsRoute, {
      query: { target: host, per_page: 100, status: 'open' },
    });
    expect(page.status).toBe(200);
    return { host, port: web.port, findings: page.body.items };
  }

  async function detail(id: string): Promise<FindingDetail> {
    const res = await api.call(getFindingRoute, { params: { finding_id: id } });
    expect(res.status).toBe(200);
    return res.body;
  }

  it('an old nginx gets one finding per vendor CVE, each findable by ?cve=, with the fixing release', async () => {
    const expected = vendorCves('nginx', '1.20.0').map((m) => m.cve);
    expect(expected.length).toBeGreaterThan(5);
    const { host, port, findings } = await scanOf('nginx/1.20.0');
    const byCve = findings.filter((f) => /^CVE-/.test(f.template_id));
    expect(byCve.map((f) => f.template_id).sort()).toEqual([...expected].sort());
    for (const cve of expected) {
      const found = await api.call(listFindingsRoute, { query: { cve: cve.toLowerCase() } });
      expect(found.body.items.filter((f) => f.target === host).map((f) => f.template_id)).toEqual([cve]);
    }
    const one = await detail(byCve.find((f) => f.template_id === 'CVE-2021-23017')!.id);
    expect(one).toMatchObject({
      affected_component: `http://${host}:${port}`,
      tool: 'scanward-versions',
      cve_ids: ['CVE-2021-23017'],
      cwe_ids: ['CWE-1395'],
      evidence: { established: 'inferred from version' },
    });
    expect(one.evidence.response).toContain('Server: nginx/1.20.0');
    expect(one.remediation.summary).toMatch(/Upgrade nginx to 1\.\d+\.\d+ or later/);
    expect(one.cvss_vector).toMatch(/^CVSS:3\.1\//);
    expect(one.cvss_score).toBeGreaterThan(0);
  }, 60_000);

  it('Apache with OpenSSL in its Server header gets the CVEs of both, KEV ones as their own findings', async () => {
    const apache = vendorCves('apache_httpd', '2.4.49', { platform: 'unix' }).map((m) => m.cve);
    const openssl = vendorCves('openssl', '1.1.1k', { platform: 'unix' }).map((m) => m.cve);
    const { findings } = await scanOf('Apache/2.4.49 (Unix) OpenSSL/1.1.1k');
    const cves = findings.filter((f) => /^CVE-/.test(f.template_id)).map((f) => f.template_id);
    expect(cves).toEqual(expect.arrayContaining([...apache, ...openssl]));
    // One finding per CVE: no CVE id is shared by two open findings of the service.
    const all = findings.flatMap((f) => f.cve_ids);
    expect(new Set(all).size).toBe(all.length);

    const traversal = findings.find((f) => f.template_id === 'CVE-2021-41773')!;
    const kev = await detail(traversal.id);
    expect(kev.title).toContain('known exploited');
    expect(['high', 'critical']).toContain(kev.severity);
    expect(kev.remediation.summary).toContain('2.4.50');
    // EPSS from the committed snapshot, with its date.
    expect(kev.epss_score).toBeGreaterThan(0.5);
    expect(kev.epss_snapshot_date).toBe(epssSnapshotInfo().date);

    const notScored = findings.find((f) => f.cve_ids.length > 0 && f.epss_score === null);
    if (notScored) expect((await detail(notScored.id)).epss_snapshot_date).toBeNull();
    const noCve = findings.find((f) => f.cve_ids.length === 0)!;
    expect(noCve.epss_score).toBeNull();
  }, 60_000);

  it('patched releases get no vendor CVE', async () => {
    expect(vendorCves('nginx', '1.31.3')).toEqual([]);
    const nginx = await scanOf('nginx/1.31.3');
    expect(nginx.findings.filter((f) => f.cve_ids.length > 0)).toEqual([]);
    expect(vendorCves('apache_httpd', '2.4.66')).toEqual([]);
    expect(vendorCves('openssl', '4.0.1')).toEqual([]);
    const apache = await scanOf('Apache/2.4.66 (Unix) OpenSSL/4.0.1');
    expect(apache.findings.filter((f) => f.cve_ids.length > 0)).toEqual([]);
  }, 60_000);

  it('answers 422 to a malformed CVE filter', async () => {
    for (const bad of ['log4shell', 'CVE-21-1', 'CVE-2021-12', "CVE-2021-44228' or 1=1"]) {
      const res = await api.call(listFindingsRoute, { query: { cve: encodeURIComponent(bad) } });
      await expectError(res, 422, 'VALIDATION_ERROR', 'cve');
    }
  });
});
