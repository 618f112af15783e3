import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAssetRoute, listAssetsRoute } from '../../../server/routes/assets.ts';
import { exportFindingsRoute, getFindingRoute, listFindingsRoute } from '../../../server/routes/findings.ts';
import { listScansRoute } from '../../../server/routes/scans.ts';
import type { ApiClient } from '../../helpers/api-client.ts';
import { postReport } from '../imports/upload.ts';
import { okBody } from '../../helpers/api-client.ts';
import { testEngine } from '../../helpers/database.ts';
import { createTenant, detection, runScan } from '../../helpers/factory.ts';
import { runScanToEnd, startScanApp, type ScanApp } from '../../helpers/scanner.ts';
import { localFindings } from '../../../server/local-scan/findings.ts';
import type { Detection } from '../../../server/scanner/types.ts';
import { CORPUS_TARBALL, extractCorpus, type Corpus } from '../imports/corpus.ts';

/**
 * One recorder for every source of results (issue 32): Scanward's own scan of the machine's
 * Redis (127.0.0.1:6379, no password), MariaDB (3306) and PostgreSQL (5432), then reports of
 * other tools about the same services. Nothing an import says weakens what a scan proved, every
 * source is listed, no asset fact is downgraded, and imported CVEs are enriched as native ones.
 * The nuclei results are real lines of DefectDojo's fixtures (../shared/data) with their target
 * and template changed to the weakness at hand.
 */
describe.skipIf(!CORPUS_TARBALL)(`the recorder (${testEngine})`, () => {
  let scanApp: ScanApp;
  let api: ApiClient;
  let corpus: Corpus;
  /** A real nuclei result line (OpenSSH CVE-2018-15473, network template), as the base of ours. */
  let realLine: Record<string, unknown>;

  beforeAll(async () => {
    corpus = extractCorpus();
    const lines = readFileSync(join(corpus.dir, 'nuclei/many_findings_new.json'), 'utf8').split('\n');
    realLine = JSON.parse(lines.find((l) => l.includes('"CVE-2018-15473"'))!) as Record<string, unknown>;
    scanApp = await startScanApp();
    api = await scanApp.tenant.client();
  });
  afterAll(async () => {
    corpus?.remove();
    await scanApp?.close();
  });

  /** nuclei's exposed-redis on 127.0.0.1:6379, as nuclei writes it: high, a stated 0.0, no description. */
  const nucleiRedis = () => ({
    ...realLine,
    template: 'network/exposures/exposed-redis.yaml',
    'template-id': 'exposed-redis',
    info: {
      name: 'Redis Server - Unauthenticated',
      author: ['pdteam'],
      tags: ['network', 'redis', 'exposure'],
      description: '',
      severity: 'high',
      classification: { 'cvss-score': 0 },
    },
    type: 'network',
    host: '127.0.0.1:6379',
    'matched-at': '127.0.0.1:6379',
    port: '6379',
    'extracted-results': ['redis_version'],
  });

  /** nuclei's CVE-2021-41773 template (Apache 2.4.49 path traversal), a CVE in CISA's KEV. */
  const nucleiKevCve = (target: string) => ({
    ...realLine,
    template: 'http/cves/2021/CVE-2021-41773.yaml',
    'template-id': 'CVE-2021-41773',
    info: {
      name: 'Apache 2.4.49 - Path Traversal and Remote Code Execution',
      severity: 'high',
      tags: ['cve', 'cve2021', 'apache', 'lfi', 'rce', 'kev'],
      classification: { 'cve-id': ['cve-2021-41773'] },
    },
    type: 'http',
    host: `http://${target}:8080`,
    'matched-at': `http://${target}:8080/cgi-bin/.%2e/.%2e/.%2e/.%2e/etc/passwd`,
  });

  const importReport = async (
    client: ApiClient,
    format: string,
    target: string,
    content: string,
    fileName: string,
  ) => {
    const form = new FormData();
    form.set('format', format);
    form.set('target', target);
    form.set('file', new Blob([content]), fileName);
    return okBody(await postReport(client, form), 201);
  };
  const lines = (results: object[]) => results.map((r) => JSON.stringify(r)).join('\n');

  const finding = async (client: ApiClient, id: string) =>
    okBody(await client.call(getFindingRoute, { params: { finding_id: id } }));
  const findingsOf = async (client: ApiClient, query: Record<string, string> = {}) =>
    okBody(await client.call(listFindingsRoute, { query: { per_page: 100, ...query } })).items;

  it('an import of the weakness a scan proved keeps its severity, score and proof, and adds a second source', async () => {
    const scan = await runScanToEnd(scanApp, { target: '127.0.0.1', ports: '6379', scanType: 'quick' });
    expect(scan.status).toBe('completed');
    const [redis] = await findingsOf(api, { template_id: 'redis-unauthenticated' });
    expect(redis).toBeDefined();
    const proved = await finding(api, redis!.id);
    expect(proved).toMatchObject({ severity: 'critical', status: 'open' });
    expect(proved.cvss_score).toBeGreaterThan(9);
    expect(proved.description).not.toBe('');
    expect(proved.sources.map((s) => s.source)).toEqual(['scan']);

    const imported = await importReport(api, 'nuclei', '127.0.0.1', lines([nucleiRedis()]), 'nuclei.jsonl');
    expect(imported.changes).toMatchObject({ new: 0, unchanged: 1 });
    // The import says what it was, and shows no phase as run.
    expect(imported).toMatchObject({
      source: 'import',
      tool: 'nuclei',
      report_name: 'nuclei.jsonl',
      results_read: 1,
      phases_completed: [],
      phases_remaining: [],
      phase_timings: { phases: {} },
      label: 'Imported from a nuclei report (nuclei.jsonl), 1 result, 1 finding',
    });
    const listed = okBody(await api.call(listScansRoute, { query: { per_page: 100 } })).items;
    expect(listed.find((s) => s.id === imported.id)).toMatchObject({
      source: 'import',
      label: imported.label,
    });
    expect(listed.find((s) => s.id === scan.id)).toMatchObject({
      source: 'scan',
      label: 'Quick scan by Scanward',
    });
    const after = await finding(api, redis!.id);
    expect(after).toMatchObject({
      severity: 'critical',
      cvss_score: proved.cvss_score,
      cvss_vector: proved.cvss_vector,
      description: proved.description,
      evidence: proved.evidence,
      tool: proved.tool,
    });
    expect(after.sources).toHaveLength(2);
    expect(after.sources[0]).toMatchObject({ source: 'scan', headline: true, severity: 'critical' });
    expect(after.sources[1]).toMatchObject({
      source: 'import',
      tool: 'nuclei',
      headline: false,
      severity: 'high',
      cvss_score: 0,
      status: 'active',
      last_scan_id: imported.id,
    });

    // The JSON export lists the same sources.
    const exported = okBody(
      await api.call(exportFindingsRoute, {
        query: { format: 'json', template_id: 'redis-unauthenticated' },
      }),
    );
    const row = exported.find((f) => f.id === redis!.id);
    expect(row?.sources.map((x) => `${x.source}:${x.tool}`)).toEqual([
      `scan:${proved.sources[0]!.tool}`,
      'import:nuclei',
    ]);

    // A re-scan changes nothing: the same headline, the same two sources.
    const again = await runScanToEnd(scanApp, { target: '127.0.0.1', ports: '6379', scanType: 'full' });
    expect(again.status).toBe('completed');
    // A full scan of Redis alone: the phases with nothing to do say so, and are not timed.
    const timings = again.phase_timings as {
      phases: Record<string, number>;
      skipped?: Record<string, string>;
    };
    expect(timings.skipped).toMatchObject({
      web_analysis: 'no HTTP or TLS service on a loopback target',
      cloud_analysis: expect.stringMatching(/^no cloud endpoints .* on a loopback target$/),
    });
    expect(Object.keys(timings.phases)).not.toContain('cloud_analysis');
    const rescanned = await finding(api, redis!.id);
    expect(rescanned).toMatchObject({
      severity: 'critical',
      cvss_score: proved.cvss_score,
      description: proved.description,
      status: 'open',
    });
    expect(rescanned.sources.map((s) => [s.source, s.status])).toEqual([
      ['scan', 'active'],
      ['import', 'active'],
    ]);

    // nuclei stops reporting it: only nuclei's view is resolved; the finding stays open.
    const empty = await importReport(api, 'nuclei', '127.0.0.1', '', 'nuclei-later.jsonl');
    expect(empty.changes).toMatchObject({ resolved: 0 });
    const later = await finding(api, redis!.id);
    expect(later.status).toBe('open');
    expect(later.sources.map((s) => [s.source, s.status])).toEqual([
      ['scan', 'active'],
      ['import', 'resolved'],
    ]);
  });

  it('an import first, then a native proof upgrades the finding to the proof', async () => {
    const other = await createTenant(scanApp.app, 'enterprise');
    const client = await other.client();
    await importReport(client, 'nuclei', '127.0.0.1', lines([nucleiRedis()]), 'first.jsonl');
    const [theirs] = await findingsOf(client);
    expect(theirs).toMatchObject({ template_id: 'redis-unauthenticated', severity: 'high' });
    const before = await finding(client, theirs!.id);
    expect(before.description).not.toBe('');
    expect(before.sources.map((s) => s.source)).toEqual(['import']);

    await runScan(scanApp.app.services.db, other.orgId, [
      detection({
        check_id: 'redis-unauthenticated',
        upstream_ids: ['exposed-redis'],
        title: 'Redis accepts commands without authentication',
        severity: 'critical',
        cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
        affected_component: 'redis://127.0.0.1:6379',
        port: 6379,
        tool: 'scanward-probe',
        description: 'Redis answered PING and INFO without a password.',
        evidence: { request: 'PING', response: '+PONG', established: 'confirmed' },
      }),
    ]);
    const upgraded = await finding(client, theirs!.id);
    expect(upgraded).toMatchObject({
      severity: 'critical',
      cvss_score: 9.8,
      tool: 'scanward-probe',
      description: 'Redis answered PING and INFO without a password.',
      evidence: { request: 'PING', response: '+PONG' },
    });
    expect(upgraded.sources.map((s) => [s.source, s.headline])).toEqual([
      ['scan', true],
      ['import', false],
    ]);
  });

  it('an nmap report with a MariaDB banner and a version range leaves the best facts alone and makes no end-of-life', async () => {
    const other = await createTenant(scanApp.app, 'enterprise');
    const client = await other.client();
    const nmap = readFileSync(new URL('../../fixtures/nmap-sv-loopback.xml', import.meta.url), 'utf8');

    // Alone, the banner already reads as what it is: MariaDB 10.11.19 (supported), no PostgreSQL version.
    await importReport(client, 'nmap', '127.0.0.1', nmap, 'nmap-sv.xml');
    const [asset] = okBody(await client.call(listAssetsRoute, { query: { q: '127.0.0.1' } })).items;
    const detail = okBody(await client.call(getAssetRoute, { params: { asset_id: asset!.id } }));
    const mariadb = detail.services.find((s) => s.port === 3306)!;
    expect(mariadb).toMatchObject({ product: 'MariaDB', version: '10.11.19', fact_source: 'import:nmap' });
    expect(mariadb.eol.status).not.toBe('end_of_life');
    const postgres = detail.services.find((s) => s.port === 5432)!;
    expect(postgres).toMatchObject({ product: 'PostgreSQL', version: null });
    expect(postgres.eol.status).toBe('unknown');

    // Scanward's own scan of the same services, then the nmap report again: the scan's facts stay.
    const scan = await runScanToEnd(
      { ...scanApp, tenant: other },
      { target: '127.0.0.1', ports: '3306,5432', scanType: 'quick' },
    );
    expect(scan.status).toBe('completed');
    const scanned = okBody(await client.call(getAssetRoute, { params: { asset_id: asset!.id } }));
    await importReport(client, 'nmap', '127.0.0.1', nmap, 'nmap-sv-again.xml');
    const after = okBody(await client.call(getAssetRoute, { params: { asset_id: asset!.id } }));
    for (const port of [3306, 5432]) {
      const was = scanned.services.find((s) => s.port === port)!;
      const now = after.services.find((s) => s.port === port)!;
      expect(now.version).not.toMatch(/or later|5\.5\.5/);
      if (was.version) expect(now).toMatchObject({ product: was.product, version: was.version });
      expect(now.eol.status).not.toBe('end_of_life');
    }
    const eolFindings = (await findingsOf(client)).filter((f) =>
      f.template_id.startsWith('software-end-of-life'),
    );
    expect(eolFindings.filter((f) => /mysql|mariadb|postgres/i.test(f.template_id))).toEqual([]);
  });

  it('an imported KEV CVE is enriched as a native one: kev, EPSS with its date, a due date and a priority', async () => {
    const other = await createTenant(scanApp.app, 'enterprise');
    const client = await other.client();
    await importReport(client, 'nuclei', '127.0.0.2', lines([nucleiKevCve('127.0.0.2')]), 'apache.jsonl');
    const [cve] = await findingsOf(client, { kev: 'true' });
    expect(cve).toBeDefined();
    const detail = await finding(client, cve!.id);
    expect(detail.cve_ids).toContain('CVE-2021-41773');
    expect(detail.epss_score).not.toBeNull();
    expect(detail.epss_snapshot_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(detail.due_date).not.toBeNull();
    expect(detail.priority).not.toBeNull();
    expect(detail.cwe_ids.length).toBeGreaterThan(0);
  });

  it('a local engine run recorded on the service goes through the same recorder, with the same score rule', async () => {
    const other = await createTenant(scanApp.app, 'enterprise');
    const client = await other.client();
    // A detection with a stated score and no vector: the score rule used to differ between the two.
    const stated = detection({
      check_id: 'local-stated-score',
      severity: 'high',
      cvss_vector: null,
      cvss_score: 7.5,
      target: '127.0.0.3',
      affected_component: 'http://127.0.0.3:8080/',
      port: 8080,
    }) as Detection;
    const report = { findings: localFindings([stated]) };
    expect(report.findings[0]!.cvss_score).toBe(7.5);
    const imported = await importReport(
      client,
      'scanward',
      '127.0.0.3',
      JSON.stringify(report),
      'scanward.json',
    );
    expect(imported).toMatchObject({ source: 'import', tool: 'scanward', results_read: 1 });
    const [recorded] = await findingsOf(client);
    expect(recorded).toMatchObject({ template_id: 'local-stated-score', cvss_score: 7.5 });
    const detail = await finding(client, recorded!.id);
    expect(detail.sources).toEqual([
      expect.objectContaining({ source: 'import', tool: 'scanward', cvss_score: 7.5 }),
    ]);
  });
});
