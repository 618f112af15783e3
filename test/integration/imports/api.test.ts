import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getControlRoute } from '../../../server/routes/controls.ts';
import { exportFindingsRoute, getFindingRoute, listFindingsRoute } from '../../../server/routes/findings.ts';
import { getScanQuotaRoute, getScanRoute, listScansRoute } from '../../../server/routes/scans.ts';
import { listDeliveries } from '../../../server/webhooks/webhook-deliveries.repository.ts';
import { expectError, okBody, type ApiClient, type RouteInput } from '../../helpers/api-client.ts';
import { postReport } from './upload.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { testEngine } from '../../helpers/database.ts';
import { factory, insertWebhook, type BuiltTenant } from '../../helpers/factory.ts';
import { CORPUS_TARBALL, extractCorpus, type Corpus } from './corpus.ts';
import { dispatchWebhookEvents } from '../../../server/webhooks/outbox.ts';

type Body = Record<string, unknown>;
type ListQuery = NonNullable<RouteInput<typeof listFindingsRoute>['query']>;

/** Files of the corpus that are not reports: the licence and the README beside them. */
const NOT_REPORTS = new Set(['LICENSE.md', 'README.md']);
/** Empty files, which say nothing of their tool: imported with their format named. */
const EMPTY: Record<string, string> = { 'nuclei/empty.jsonl': 'nuclei', 'nuclei/no_findings.json': 'nuclei' };

describe.skipIf(!CORPUS_TARBALL)(`POST /api/v1/imports (${testEngine})`, () => {
  let app: TestApp;
  let t: BuiltTenant;
  let corpus: Corpus;

  const suite = useTestApp();
  beforeAll(() => {
    corpus = extractCorpus();
    app = suite.app;
  });
  // A tenant per test: each test reads only the scans and findings it imported.
  beforeEach(async () => {
    t = await factory.tenant(app, { plan: 'enterprise' });
  });
  afterAll(async () => {
    corpus?.remove();
  });

  const report = (file: string) => readFileSync(join(corpus.dir, file));
  const importFile = (tenant: BuiltTenant | ApiClient, file: string, query: Record<string, string>) =>
    postReport('api' in tenant ? tenant.api : tenant, report(file), query);
  const imported = async (tenant: BuiltTenant, file: string, query: Record<string, string>) =>
    okBody(await importFile(tenant, file, query), 201);
  const findingsOf = async (tenant: BuiltTenant, query: ListQuery) =>
    okBody(await tenant.api.call(listFindingsRoute, { query: { per_page: 100, ...query } })).items;
  const detail = async (tenant: BuiltTenant, id: string) =>
    okBody(await tenant.api.call(getFindingRoute, { params: { finding_id: id } }));
  const scanTotal = async (tenant: BuiltTenant) => okBody(await tenant.api.call(listScansRoute)).total;
  const quotaUsed = async (tenant: BuiltTenant) =>
    okBody(await tenant.api.call(getScanQuotaRoute)).used_this_month;

  it('imports every report of the corpus as a completed scan, and refuses the files that are not reports', async () => {
    expect(corpus.files.length).toBe(40);
    for (const file of corpus.files) {
      const target = `corpus-${file}`;
      const format = EMPTY[file];
      const res = await importFile(t, file, { target, ...(format ? { format } : {}) });
      if (NOT_REPORTS.has(file)) {
        const error = await expectError(res, 422, 'VALIDATION_ERROR');
        expect(error.field).toBe('file');
        expect(error.detail).toMatch(/not a report/);
        continue;
      }
      expect(res.status, `${file}: ${res.text}`).toBe(201);
      const scan = res.body;
      const tool = file.split('/')[0];
      expect(scan).toMatchObject({
        status: 'completed',
        source: 'import',
        tool,
        target,
        progress: 100,
        phase: 'complete',
      });
      expect(scan.format).toBe(tool);
      const findings = await findingsOf(t, { scan_id: scan.id });
      expect(findings.every((f) => f.tool === tool && f.target === target && f.status === 'open')).toBe(true);
      const counted = (['critical', 'high', 'medium', 'low'] as const).reduce(
        (n, s) => n + Number(scan[`${s}_count`]),
        0,
      );
      expect(scan.vulnerabilities_found).toBe(counted);
      expect(scan.changes?.new).toBe(findings.length);
    }
  });

  it('maps a nuclei result: severity, CVSS vector, CVE, CWE, the matched place and the extracted evidence', async () => {
    const scan = await imported(t, 'nuclei/many_findings_new.json', { target: 'nuclei-spot' });
    const findings = await findingsOf(t, { scan_id: scan.id });
    expect(findings).toHaveLength(2);
    const cve = findings.find((f) => f.template_id === 'CVE-2018-15473')!;
    expect(cve).toMatchObject({
      title: 'OpenSSH Username Enumeration v7.7',
      severity: 'medium',
      affected_component: 'tcp://nuclei-example.com:22',
      cve_ids: ['CVE-2018-15473'],
      cwe_ids: ['CWE-362'],
    });
    const full = await detail(t, cve.id);
    expect(full.cvss_vector).toBe('CVSS:3.0/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N');
    expect(full.cvss_score).toBe(5.3);
    expect(full.evidence.response).toContain('SSH-2.0-OpenSSH_7.4p1 Debian-10+deb9u7');
    expect(full.remediation.references).toEqual(['https://nvd.nist.gov/vuln/detail/cve-2018-15473']);

    const multi = await imported(t, 'nuclei/multi_cwe_fabricated.json', { target: 'nuclei-spot-2' });
    const [only] = await findingsOf(t, { scan_id: multi.id });
    // A template naming a CVE is keyed as the engine keys it: by the CVE on the service (docs/imports.md).
    expect(only).toMatchObject({
      severity: 'high',
      template_id: 'CVE-2021-0001',
      affected_component: 'https://example.com:443',
      cve_ids: ['CVE-2021-0001'],
      cwe_ids: ['CWE-79', 'CWE-89'],
    });
    // An unusable classification ("nvd-cve-other") is left out, not stored.
    const invalid = await imported(t, 'nuclei/invalid_cwe.json', { target: 'nuclei-spot-3' });
    const [mysql] = await findingsOf(t, { scan_id: invalid.id });
    expect(mysql).toMatchObject({
      template_id: 'mysql-native-password-bruteforce',
      cwe_ids: [],
      severity: 'info',
    });
  });

  it('maps a ZAP alert: one finding per alert and page, risk as severity, CWE, solution and the instance evidence', async () => {
    // Two alerts of plugin 10011 (the file's "zap1:" and "zap2:") on the same two pages: one weakness
    // at each place, so two findings from four results.
    const scan = await imported(t, 'zap/5_zap_sample_one.xml', { target: 'zap-spot' });
    expect(scan.results_read).toBe(4);
    const findings = await findingsOf(t, { scan_id: scan.id });
    expect(findings.map((f) => f.affected_component).sort()).toEqual([
      'https://mainsite.com:443/',
      'https://mainsite.com:443/dashboard',
    ]);
    const cookie = findings.find(
      (f) => f.title === 'Cookie Without Secure Flag' && f.affected_component.endsWith('/dashboard'),
    )!;
    expect(cookie).toMatchObject({ severity: 'low', template_id: 'zap-10011', cwe_ids: ['CWE-614'] });
    const full = await detail(t, cookie.id);
    expect(full.remediation.summary).toMatch(/^Whenever a cookie contains sensitive information/);
    expect(full.evidence.request).toContain('GET https://mainsite.com/dashboard');
    expect(full.evidence.response).toContain('Set-Cookie: opvc');
  });

  it('maps nmap: an open port as information, each vulners CVE rated by its CVSS score', async () => {
    const scan = await imported(t, 'nmap/nmap_script_vulners.xml', { target: '192.168.0.1' });
    const findings = await findingsOf(t, { scan_id: scan.id });
    expect(findings.map((f) => [f.template_id, f.severity, f.affected_component]).sort()).toEqual([
      ['CVE-2017-15906', 'medium', 'tcp://192.168.0.1:5022'],
      ['CVE-2018-15919', 'medium', 'tcp://192.168.0.1:5022'],
      ['nmap-open-port', 'info', 'tcp://192.168.0.1:5022'],
    ]);
    const port = findings.find((f) => f.template_id === 'nmap-open-port')!;
    expect(port.title).toBe('Open port tcp/5022 (ssh: OpenSSH 7.4 protocol 2.0)');
    expect((await detail(t, port.id)).evidence.request).toContain('--script=vulners/vulners.nse');
  });

  it('maps OpenVAS CSV and XML: threat level, CVEs, the vector where given (else the stated score), solution and the specific result', async () => {
    const csv = await imported(t, 'openvas/one_vuln.csv', { target: 'openvas-csv' });
    const [ssh] = await findingsOf(t, { scan_id: csv.id });
    expect(ssh).toMatchObject({
      title: 'SSH Weak Encryption Algorithms Supported',
      severity: 'medium',
      affected_component: 'tcp://10.0.0.8:22',
      template_id: 'openvas-1.3.6.1.4.1.25623.1.0.105611',
    });
    const sshDetail = await detail(t, ssh!.id);
    expect(sshDetail.remediation.summary).toBe('Disable the weak encryption algorithms.');
    // The CSV states a score and no vector: the finding keeps the stated score, not 0.0.
    expect(sshDetail).toMatchObject({ cvss_vector: null, cvss_score: 4.3 });
    expect(sshDetail.evidence.response).toContain('aes256-cbc');

    const xml = await imported(t, 'openvas/report_detail_v2.xml', { target: 'openvas-xml' });
    const [windows] = await findingsOf(t, { scan_id: xml.id });
    expect(windows).toMatchObject({ severity: 'high', affected_component: 'tcp://10.99.99.99:42' });
    expect(windows!.cve_ids).toContain('CVE-2025-49659');
    const full = await detail(t, windows!.id);
    expect(full.cvss_vector).toBe('CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H');
    expect(full.cvss_score).toBe(9.8);
  });

  it('imports an empty report as a clean scan, and asks for the format of an empty report that names none', async () => {
    const scan = await imported(t, 'zap/empty_2.9.0.xml', { target: 'empty-zap' });
    expect(scan).toMatchObject({
      status: 'completed',
      vulnerabilities_found: 0,
      tool: 'zap',
      results_read: 0,
    });
    expect(await findingsOf(t, { scan_id: scan.id })).toEqual([]);
    const unnamed = await expectError(
      await importFile(t, 'nuclei/empty.jsonl', { target: 'x' }),
      422,
      'VALIDATION_ERROR',
    );
    expect(unnamed.detail).toMatch(/empty.*name its format/);
  });

  it('records nothing twice when the same report is imported again', async () => {
    const first = await imported(t, 'zap/0_zap_sample.xml', { target: 'again' });
    const before = await findingsOf(t, { target: 'again' });
    const second = await imported(t, 'zap/0_zap_sample.xml', { target: 'again' });
    expect(second.id).not.toBe(first.id);
    expect(second.changes).toEqual({ new: 0, reopened: 0, resolved: 0, unchanged: before.length });
    const after = await findingsOf(t, { target: 'again' });
    expect(after.map((f) => f.id).sort()).toEqual(before.map((f) => f.id).sort());
  });

  it('resolves what a later report of the same tool and target no longer has, and reopens it when it returns', async () => {
    await imported(t, 'zap/0_zap_sample.xml', { target: 'later' });
    const medium = (await findingsOf(t, { target: 'later', severity: 'medium' }))[0]!;
    const later = await imported(t, 'zap/0_zap_sample_without_zap3.xml', { target: 'later' });
    expect(later.changes).toMatchObject({ new: 0, resolved: 1 });
    expect((await detail(t, medium.id)).status).toBe('resolved');
    // Another tool's report of the same target resolves nothing of ZAP's.
    await imported(t, 'nuclei/many_findings_new.json', { target: 'later' });
    expect((await findingsOf(t, { target: 'later', tool: 'zap', status: 'open' })).length).toBe(6);
    const back = await imported(t, 'zap/0_zap_sample.xml', { target: 'later' });
    expect(back.changes).toMatchObject({ new: 0, reopened: 1, resolved: 0 });
    expect((await detail(t, medium.id)).status).toBe('open');
  });

  it('refuses a malformed report with 422 naming the line, and records nothing of it', async () => {
    const scansBefore = await scanTotal(t);
    const broken = Buffer.from(
      report('zap/5_zap_sample_one.xml').toString('utf8').replace('</alertitem>', ''),
    );
    const xml = await expectError(
      await postReport(t.api, broken, { target: 'broken' }),
      422,
      'VALIDATION_ERROR',
    );
    expect(xml.detail).toMatch(/^file: line \d+, column \d+: /);
    const lines = report('nuclei/many_findings_new.json').toString('utf8').split('\n');
    const jsonl = Buffer.from([lines[0], '{"template-id": "x", "info": ', lines[1]].join('\n'));
    const jsonError = await expectError(
      await postReport(t.api, jsonl, { target: 'broken' }),
      422,
      'VALIDATION_ERROR',
    );
    expect(jsonError.detail).toMatch(/^file: line 2: not valid JSON/);
    const csv = Buffer.from('IP,Hostname,Port,Port Protocol,CVSS,Severity,NVT Name\n10.0.0.1,,22,tcp,5.0\n');
    expect(
      (await expectError(await postReport(t.api, csv, { target: 'broken' }), 422, 'VALIDATION_ERROR')).detail,
    ).toMatch(/line 2: 5 fields/);
    expect(await scanTotal(t)).toBe(scansBefore);
    expect(await findingsOf(t, { target: 'broken' })).toEqual([]);
  });

  it('answers a retried import with the same Idempotency-Key with the scan it recorded, and records no second one', async () => {
    const k = await factory.tenant(app, { plan: 'enterprise' });
    const send = (target: string, key: string) =>
      postReport(
        k.api,
        report('nuclei/multi_cwe_fabricated.json'),
        { target, format: 'nuclei' },
        {
          headers: { 'Idempotency-Key': key },
        },
      );
    const first = okBody(await send('retried', 'import-1'), 201);
    const again = okBody(await send('retried', 'import-1'), 201);
    expect(again.id).toBe(first.id);
    expect(await scanTotal(k)).toBe(1);
    expect(await quotaUsed(k)).toBe(1);
    // The same key with another request is refused, naming the header; nothing is recorded.
    const other = await expectError(await send('elsewhere', 'import-1'), 422, 'VALIDATION_ERROR');
    expect(other.field).toBe('Idempotency-Key');
    expect(await scanTotal(k)).toBe(1);
    // Without a key, a re-sent report is a second import (of unchanged findings).
    okBody(await send('retried', 'import-2'), 201);
    expect(await scanTotal(k)).toBe(2);
  });

  it('takes a multipart upload with the fields as parts, and validates them', async () => {
    const form = new FormData();
    form.set('target', 'multipart');
    form.set('format', 'nmap');
    form.set('file', new Blob([report('nmap/nmap_1port.xml')]), 'nmap.xml');
    const scan = okBody(await postReport(t.api, form), 201);
    expect(scan).toMatchObject({ target: 'multipart', tool: 'nmap', format: 'nmap', info_count: 1 });

    const wrong = new FormData();
    wrong.set('target', 'multipart');
    wrong.set('format', 'zap');
    wrong.set('file', new Blob([report('nmap/nmap_1port.xml')]), 'nmap.xml');
    expect((await expectError(await postReport(t.api, wrong), 422, 'VALIDATION_ERROR')).detail).toMatch(
      /<nmaprun>.*zap/,
    );
    const noTarget = await expectError(
      await postReport(t.api, report('nmap/nmap_1port.xml')),
      422,
      'VALIDATION_ERROR',
    );
    expect(noTarget.field).toBe('target');
    const badFormat = await expectError(
      await importFile(t, 'nmap/nmap_1port.xml', { target: 'x', format: 'burp' }),
      422,
      'VALIDATION_ERROR',
    );
    expect(badFormat.field).toBe('format');
  });

  it('needs write:scans, and counts against the monthly scan quota', async () => {
    const reader = await factory.tenant(app, { plan: 'enterprise', apiKey: ['read:scans'] });
    await expectError(
      await importFile(reader.keyApi!, 'nmap/nmap_1port.xml', { target: 'k' }),
      403,
      'INSUFFICIENT_PERMISSION',
    );
    const writer = await factory.tenant(app, { plan: 'enterprise', apiKey: ['write:scans', 'read:scans'] });
    expect((await importFile(writer.keyApi!, 'nmap/nmap_1port.xml', { target: 'k' })).status).toBe(201);

    const limited = await factory.tenant(app, { plan: 'enterprise', limits: { scansPerMonth: 1 } });
    okBody(await importFile(limited, 'nmap/nmap_1port.xml', { target: 'q' }), 201);
    expect(await quotaUsed(limited)).toBe(1);
    await expectError(
      await importFile(limited, 'nmap/nmap_1port.xml', { target: 'q' }),
      403,
      'SCAN_QUOTA_EXCEEDED',
    );
  });

  it("keeps organizations apart: another's import of the same report and target is its own, and its scans are not found", async () => {
    const a = await factory.tenant(app, { plan: 'enterprise' });
    const b = await factory.tenant(app, { plan: 'enterprise' });
    const scanA = await imported(a, 'zap/0_zap_sample.xml', { target: 'shared-name' });
    const scanB = await imported(b, 'zap/0_zap_sample_without_zap3.xml', { target: 'shared-name' });
    expect(scanB.changes).toMatchObject({ new: 6, resolved: 0 });
    expect((await findingsOf(a, { target: 'shared-name', status: 'open' })).length).toBe(7);
    await expectError(await b.api.call(getScanRoute, { params: { scan_id: scanA.id } }), 404, 'NOT_FOUND');
    const [findingA] = await findingsOf(a, { scan_id: scanA.id });
    await expectError(
      await b.api.call(getFindingRoute, { params: { finding_id: findingA!.id } }),
      404,
      'NOT_FOUND',
    );
  });

  it('queues scan.completed and vulnerability.found, and records compliance evidence for the controls its findings map to', async () => {
    const tenant = await factory.tenant(app, { plan: 'enterprise' });
    const webhookId = await insertWebhook(app.services.db, tenant.orgId, [
      'scan.completed',
      'vulnerability.found',
    ]);
    const scan = await imported(tenant, 'nuclei/multi_cwe_fabricated.json', { target: 'events' });
    // The import appends to the domain-event outbox; webhooks fan out from it (in batches, after
    // whatever the earlier imports of this file appended).
    while ((await dispatchWebhookEvents(app.services.db)) > 0);
    // The payload is not on the wire (the delivery log shows attempts): the outbox's repository.
    const page = { limit: 100, offset: 0 };
    const deliveries = await listDeliveries(app.services.db, tenant.orgId, webhookId, page);
    const events = deliveries.map((d) => {
      const data = (JSON.parse(d.payload) as { data: Body }).data;
      return [d.event, data.scan_id ?? data.id];
    });
    expect(events).toEqual(
      expect.arrayContaining([
        ['vulnerability.found', scan.id],
        ['scan.completed', scan.id],
      ]),
    );
    expect(events).toHaveLength(2);
    // CWE-79/89 are injection: SOC 2 CC7.1 among the controls; the import is evidence of it, and it fails.
    const control = okBody(
      await tenant.api.call(getControlRoute, { params: { control_id: 'ctrl_soc2_cc7_1' } }),
    );
    expect(control).toMatchObject({ status: 'failing', evidence_count: 1 });
  });

  it("imports Scanward's own findings export into another organization, detected as scanward", async () => {
    const source = await factory.tenant(app, { plan: 'enterprise' });
    await imported(source, 'nuclei/many_findings_new.json', { target: 'roundtrip' });
    const exported = await source.api.call(exportFindingsRoute, { query: { format: 'json' } });
    expect(exported.status).toBe(200);
    const destination = await factory.tenant(app, { plan: 'enterprise' });
    const scan = okBody(
      await postReport(destination.api, Buffer.from(exported.text), { target: 'roundtrip' }),
      201,
    );
    expect(scan).toMatchObject({ format: 'scanward', tool: 'scanward', results_read: 2 });
    const original = await findingsOf(source, { target: 'roundtrip' });
    const copied = await findingsOf(destination, { target: 'roundtrip' });
    const shape = (f: (typeof original)[number]) => [
      f.template_id,
      f.severity,
      f.affected_component,
      f.cve_ids,
      f.cwe_ids,
    ];
    expect(copied.map(shape).sort()).toEqual(original.map(shape).sort());
  });

  it('reads a large report off the event loop', async () => {
    const line = report('nuclei/many_findings_new.json').toString('utf8').split('\n')[0]!;
    const lines = Array.from({ length: 400 }, (_, i) =>
      line.replace('"matched-at":"nuclei-example.com:22"', `"matched-at":"host-${i}.example:22"`),
    );
    const big = Buffer.from(lines.join('\n'));
    expect(big.length).toBeGreaterThan(256 * 1024);
    const scan = okBody(await postReport(t.api, big, { target: 'large' }), 201);
    expect(scan).toMatchObject({ results_read: 400, medium_count: 400 });
  });
});
