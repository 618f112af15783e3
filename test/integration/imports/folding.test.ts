import { beforeAll, describe, expect, it } from 'vitest';
import type { FindingDetection } from '../../../server/findings/lifecycle.ts';
import { listFindingsRoute } from '../../../server/routes/findings.ts';
import { listScanFindingsRoute } from '../../../server/routes/scans.ts';
import { okBody, type RouteInput } from '../../helpers/api-client.ts';
import { postReport } from './upload.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { testEngine } from '../../helpers/database.ts';
import { detection, factory, runScan, type BuiltTenant } from '../../helpers/factory.ts';

type ListQuery = NonNullable<RouteInput<typeof listFindingsRoute>['query']>;

/**
 * Imported and native findings of one weakness are one finding (issue 24 item 1), and an import
 * resolves only what its own tool alone reported (docs/imports.md, "Lifecycle").
 */
describe(`imports fold into Scanward's own findings (${testEngine})`, () => {
  let app: TestApp;

  const suite = useTestApp();
  beforeAll(() => {
    app = suite.app;
  });

  /** Scanward's own unauthenticated-Redis finding on 127.0.0.1, as the exposed-services check reports it. */
  const nativeRedis = (): FindingDetection =>
    detection({
      check_id: 'redis-unauthenticated',
      upstream_ids: ['exposed-redis', 'redis-default-logins'],
      title: 'Redis accepts commands without authentication',
      severity: 'critical',
      cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
      affected_component: 'redis://127.0.0.1:6379',
      port: 6379,
      tool: 'scanward-probe',
      category: 'unauthenticated-access',
      cwe_ids: ['CWE-306'],
      evidence: { request: 'PING', response: '+PONG' },
    });

  /** nuclei's network template exposed-redis matching 127.0.0.1:6379. */
  const nucleiRedis = {
    'template-id': 'exposed-redis',
    info: { name: 'Redis Server - Unauthenticated', severity: 'high', tags: ['network', 'redis'] },
    type: 'tcp',
    host: '127.0.0.1',
    'matched-at': '127.0.0.1:6379',
    port: '6379',
  };
  /** A nuclei result Scanward has no check of. */
  const nucleiOther = {
    'template-id': 'tech-detect',
    'matcher-name': 'nginx',
    info: { name: 'Wappalyzer Technology Detection', severity: 'info' },
    type: 'http',
    host: 'http://127.0.0.1:8080',
    'matched-at': 'http://127.0.0.1:8080/',
  };
  /** A template naming a CVE, matched on a path of the service. */
  const nucleiCve = {
    'template-id': 'CVE-2021-41773',
    info: {
      name: 'Apache 2.4.49 - Path Traversal',
      severity: 'high',
      classification: { 'cve-id': ['cve-2021-41773'], 'cwe-id': ['cwe-22'] },
    },
    type: 'http',
    host: 'http://127.0.0.1:8080',
    'matched-at': 'http://127.0.0.1:8080/cgi-bin/.%2e/.%2e/etc/passwd',
  };

  const importNuclei = async (t: BuiltTenant, results: object[]) =>
    okBody(
      await postReport(t.api, Buffer.from(results.map((r) => JSON.stringify(r)).join('\n')), {
        target: '127.0.0.1',
        format: 'nuclei',
      }),
      201,
    );
  const findings = async (t: BuiltTenant, query: ListQuery = {}) =>
    okBody(await t.api.call(listFindingsRoute, { query: { per_page: 100, ...query } })).items;
  const scanFindingIds = async (t: BuiltTenant, scanId: string) =>
    okBody(
      await t.api.call(listScanFindingsRoute, { params: { scan_id: scanId }, query: { per_page: 100 } }),
    ).items.map((f) => f.id);

  it('a nuclei result of a weakness Scanward found is the same finding, seen by both', async () => {
    const t = await factory.tenant(app, { plan: 'enterprise' });
    const { scan: native } = await runScan(app.services.db, t.orgId, [nativeRedis()]);
    const [ours] = await findings(t);

    const imported = await importNuclei(t, [nucleiRedis]);
    expect(imported.changes).toMatchObject({ new: 0, unchanged: 1, resolved: 0 });

    const all = await findings(t);
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({
      id: ours!.id,
      status: 'open',
      template_id: 'redis-unauthenticated',
      affected_component: 'redis://127.0.0.1:6379',
      times_seen: 2,
    });
    // Both sightings: the native scan's and the import's finding lists name it.
    expect(await scanFindingIds(t, native.id)).toEqual([ours!.id]);
    expect(await scanFindingIds(t, imported.id)).toEqual([ours!.id]);
  });

  it('and the other way round: Scanward finds what an import reported first', async () => {
    const t = await factory.tenant(app, { plan: 'enterprise' });
    const imported = await importNuclei(t, [nucleiRedis]);
    expect(imported.changes).toMatchObject({ new: 1 });
    const [theirs] = await findings(t);
    expect(theirs).toMatchObject({
      template_id: 'redis-unauthenticated',
      affected_component: 'redis://127.0.0.1:6379',
    });

    const { summary } = await runScan(app.services.db, t.orgId, [nativeRedis()]);
    expect(summary.new_finding_ids).toEqual([]);
    const all = await findings(t);
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ id: theirs!.id, times_seen: 2 });
  });

  it('a template naming a CVE folds with Scanward’s finding of that CVE on the service', async () => {
    const t = await factory.tenant(app, { plan: 'enterprise' });
    await runScan(app.services.db, t.orgId, [
      detection({
        check_id: 'CVE-2021-41773',
        title: 'Apache HTTP Server 2.4.49: CVE-2021-41773',
        severity: 'critical',
        affected_component: 'http://127.0.0.1:8080',
        port: 8080,
        tool: 'scanward-versions',
        cve_ids: ['CVE-2021-41773'],
        evidence: {
          request: 'GET / HTTP/1.1',
          response: 'Server: Apache/2.4.49',
          established: 'inferred from version',
        },
      }),
    ]);
    const [ours] = await findings(t);

    const imported = await importNuclei(t, [nucleiCve]);
    expect(imported.changes).toMatchObject({ new: 0, unchanged: 1 });
    const all = await findings(t);
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ id: ours!.id, template_id: 'CVE-2021-41773', times_seen: 2 });
  });

  it('a later import without the weakness resolves only what nuclei alone reported', async () => {
    const t = await factory.tenant(app, { plan: 'enterprise' });
    await runScan(app.services.db, t.orgId, [nativeRedis()]);
    await importNuclei(t, [nucleiRedis, nucleiOther]);
    const before = await findings(t);
    expect(before.map((f) => f.template_id).sort()).toEqual(['redis-unauthenticated', 'tech-detect:nginx']);

    // nuclei no longer lists either: its own result is resolved, Scanward's finding is not.
    const later = await importNuclei(t, []);
    expect(later.changes).toMatchObject({ new: 0, unchanged: 0, resolved: 1 });
    const after = Object.fromEntries((await findings(t)).map((f) => [f.template_id, f.status]));
    expect(after).toEqual({ 'redis-unauthenticated': 'open', 'tech-detect:nginx': 'resolved' });

    // Scanward's own scan still decides its check: it sees Redis again (unchanged), then no longer (resolved).
    const { summary: again } = await runScan(app.services.db, t.orgId, [nativeRedis()]);
    expect(again.resolved_finding_ids).toEqual([]);
    const { summary: gone } = await runScan(app.services.db, t.orgId, [], {
      extraCoverage: [{ target: '127.0.0.1', check_id: 'redis-unauthenticated', port: 6379 }],
    });
    expect(gone.resolved_finding_ids).toEqual([
      before.find((f) => f.template_id === 'redis-unauthenticated')!.id,
    ]);
  });

  it('an import resolves nothing Scanward found first, even when its tool saw it since', async () => {
    const t = await factory.tenant(app, { plan: 'enterprise' });
    const imported = await importNuclei(t, [nucleiRedis]);
    await runScan(app.services.db, t.orgId, [nativeRedis()]);
    // The native scan saw the finding nuclei reported: no longer nuclei's alone.
    const later = await importNuclei(t, []);
    expect(later.changes).toMatchObject({ resolved: 0 });
    expect((await findings(t)).map((f) => f.status)).toEqual(['open']);
    expect(imported.changes).toMatchObject({ new: 1 });
  });
});
