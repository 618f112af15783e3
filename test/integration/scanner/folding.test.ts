import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getFindingRoute, listFindingsRoute, updateFindingRoute } from '../../../server/routes/findings.ts';
import type { FindingDetail, FindingListItem } from '../../../server/schemas/findings.ts';
import { apiClient, okBody, type ApiClient } from '../../helpers/api-client.ts';
import { testEngine } from '../../helpers/database.ts';
import { runScanToEnd, startScanApp, type ScanApp } from '../../helpers/scanner.ts';
import { randomLoopbackAddress } from '../../fixtures/listeners.ts';
import { startWebServer, type Route, type WebServer } from '../../fixtures/web-server.ts';

const CVE = 'CVE-2021-41773';
const TEMPLATE = join(
  import.meta.dirname,
  '../../../server/scanner/templates/default/http/cves/2021/CVE-2021-41773.yaml',
);

/**
 * One weakness, one finding: an Apache 2.4.49 whose banner puts it in the range of CVE-2021-41773
 * (the KEV and vendor version matches), first without answering the traversal, then answering
 * it (the upstream template's proof). The template set is that one template, so full scans stay short.
 */
describe(`a CVE seen by a template and by the version is one finding (${testEngine})`, () => {
  let scanner: ScanApp;
  let api: ApiClient;
  let web: WebServer;
  let templates: string;
  const host = randomLoopbackAddress();
  let vulnerable = false;

  beforeAll(async () => {
    templates = mkdtempSync(join(tmpdir(), 'scanward-fold-'));
    copyFileSync(TEMPLATE, join(templates, 'CVE-2021-41773.yaml'));
    scanner = await startScanApp({ env: { SCANWARD_TEMPLATES_DIR: templates, SCANWARD_NMAP: 'off' } });
    api = apiClient(scanner.app, { token: await scanner.tenant.bearer() });
    const headers = { Server: 'Apache/2.4.49 (Unix)', 'Content-Type': 'text/plain' };
    const handler: Route = (req, res) => {
      if (vulnerable && req.url?.includes('/etc/passwd'))
        res.writeHead(200, headers).end('root:x:0:0:root:/root:/bin/bash\n');
      else res.writeHead(req.url === '/' ? 200 : 404, headers).end('ok');
    };
    web = await startWebServer({ fallback: handler, address: host });
  });
  afterAll(async () => {
    await scanner?.close();
    await web?.close();
    rmSync(templates, { recursive: true, force: true });
  });

  async function cveFindings(): Promise<FindingListItem[]> {
    const res = await api.call(listFindingsRoute, { query: { cve: CVE, target: host } });
    expect(res.status).toBe(200);
    return res.body.items;
  }

  async function detail(id: string): Promise<FindingDetail> {
    return okBody(await api.call(getFindingRoute, { params: { finding_id: id } }));
  }

  it('banner only: one finding, inferred from version; the proof on a rescan upgrades it in place', async () => {
    const first = await runScanToEnd(scanner, { target: host, ports: String(web.port) });
    expect(first.status).toBe('completed');
    const [inferred, ...more] = await cveFindings();
    expect(more).toEqual([]);
    const before = await detail(inferred!.id);
    expect(before).toMatchObject({
      template_id: CVE,
      affected_component: `http://${host}:${web.port}`,
      evidence: { established: 'inferred from version' },
      times_seen: 1,
    });
    expect(before.remediation.summary).toContain('2.4.50');
    const triaged = await api.call(updateFindingRoute, {
      params: { finding_id: inferred!.id },
      body: { status: 'in_progress' },
    });
    expect(triaged.status).toBe(200);

    vulnerable = true;
    const second = await runScanToEnd(scanner, { target: host, ports: String(web.port) });
    expect(second.status).toBe('completed');
    const [confirmed, ...others] = await cveFindings();
    expect(others).toEqual([]);
    expect(confirmed!.id).toBe(inferred!.id);
    const after = await detail(confirmed!.id);
    expect(after).toMatchObject({
      status: 'in_progress',
      template_id: CVE,
      affected_component: `http://${host}:${web.port}`,
      evidence: { established: 'confirmed' },
      times_seen: 2,
      last_scan_id: second.id,
      scan_id: first.id,
    });
    expect(after.evidence.request).toContain('/etc/passwd');
    expect(after.evidence.response).toContain('root:x:0:0:');
    expect(after.history).toEqual(expect.arrayContaining(before.history));
    expect(after.history).toContainEqual(expect.objectContaining({ from: 'open', to: 'in_progress' }));
    // Nothing else on the service names the CVE.
    const all = await api.call(listFindingsRoute, { query: { target: host, per_page: 100 } });
    expect(all.body.items.filter((f) => f.cve_ids.includes(CVE)).map((f) => f.id)).toEqual([inferred!.id]);
  }, 120_000);
});
