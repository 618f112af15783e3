import { describe, expect, it } from 'vitest';
import {
  exportFindingsRoute,
  findingStatsRoute,
  getFindingRoute,
  listFindingsRoute,
  updateFindingRoute,
} from '../../../server/routes/findings.ts';
import { listScanFindingsRoute } from '../../../server/routes/scans.ts';
import { expectError, okBody } from '../../helpers/api-client.ts';
import { detection, factory, runScan } from '../../helpers/factory.ts';
import { useTestApp } from '../../helpers/suite-app.ts';

/**
 * The findings' `target` rule (docs/findings-search.md): exact host, leading labels, a
 * trailing-dot prefix, CIDR containment; malformed ranges and CVE ids are 422 on every route
 * that takes them; due dates and `overdue` on the list. PGlite and PostgreSQL.
 */
describe('finding search by target', () => {
  const suite = useTestApp();

  it('keeps the address function out of parallel plans: its exception handler cannot run in one', async () => {
    // A parallel plan of a large CIDR search failed on PostgreSQL with "cannot start
    // subtransactions during a parallel operation" (the 100k-findings benchmark); PARALLEL
    // UNSAFE keeps every query that calls it serial. A test of storage itself: the label is in
    // PostgreSQL's catalogue, which no API or repository shows.
    const rows = (await suite.db.raw("select proparallel from pg_proc where proname = 'scanward_inet'")) as {
      rows: { proparallel: string }[];
    };
    expect(rows.rows).toEqual([{ proparallel: 'u' }]);
  });

  it('matches a host, the hosts it begins up to a dot, a trailing-dot prefix and a CIDR range', async () => {
    const tenant = await factory.tenant(suite.app);
    const targets = [
      '127.0.0.1',
      '127.0.0.12',
      '127.0.10.5',
      'Redis.internal',
      'redis',
      'redis-01',
      '::1',
      'localhost',
    ];
    await runScan(
      suite.db,
      tenant.orgId,
      targets.map((target) => detection({ target })),
    );
    const search = async (target: string) =>
      okBody(await tenant.api.call(listFindingsRoute, { query: { per_page: 100, target } }))
        .items.map((f) => f.target)
        .sort();
    expect(await search('127.0.0.1')).toEqual(['127.0.0.1']);
    expect(await search('127.0.0')).toEqual(['127.0.0.1', '127.0.0.12']);
    expect(await search('127.0.')).toEqual(['127.0.0.1', '127.0.0.12', '127.0.10.5']);
    expect(await search('REDIS')).toEqual(['Redis.internal', 'redis']);
    expect(await search('127.0.0.0/24')).toEqual(['127.0.0.1', '127.0.0.12']);
    expect(await search('127.0.0.9/16')).toEqual(['127.0.0.1', '127.0.0.12', '127.0.10.5']);
    expect(await search('127.0.0.12/32')).toEqual(['127.0.0.12']);
    expect(await search('::/0')).toEqual(['::1']);
    expect(await search('10.0.0.0/8')).toEqual([]);
    expect(await search('red')).toEqual([]);
    // `_` and `%` are literal.
    expect(await search('127%')).toEqual([]);
    // The export and the statistics follow the same rule.
    const exported = okBody(
      await tenant.api.call(exportFindingsRoute, { query: { format: 'json', target: '127.0.0.0/24' } }),
    );
    expect(exported.length).toBe(2);
    const stats = okBody(await tenant.api.call(findingStatsRoute, { query: { target: 'redis' } }));
    expect(stats.total).toBe(2);
    // Another organization's findings are never found.
    const other = await factory.tenant(suite.app);
    expect(okBody(await other.api.call(listFindingsRoute, { query: { target: '127.0.0.0/8' } })).total).toBe(
      0,
    );
  });

  it('refuses a malformed range or CVE id with 422 naming the field, on the list, the export and the statistics', async () => {
    const tenant = await factory.tenant(suite.app);
    // Values the contract does not allow (the typed query takes any string).
    for (const route of [listFindingsRoute, exportFindingsRoute, findingStatsRoute]) {
      for (const bad of ['127.0.0.0/33', '300.0.0.0/8', 'redis/24', '::1/129']) {
        const answer = await tenant.api.call(route, { query: { target: bad } });
        expect(answer.status, `${route.path} target=${bad}`).toBe(422);
        await expectError(answer, 422, 'VALIDATION_ERROR', 'target');
      }
    }
    for (const route of [listFindingsRoute, exportFindingsRoute]) {
      for (const bad of ['log4shell', 'CVE-21-1', 'CVE-2021-44228x']) {
        const answer = await tenant.api.call(route, { query: { cve: bad } });
        expect(answer.status, `${route.path} cve=${bad}`).toBe(422);
        await expectError(answer, 422, 'VALIDATION_ERROR', 'cve');
      }
    }
  });

  it('shows the due date and whether a finding is overdue on the list and the scan’s findings', async () => {
    const tenant = await factory.tenant(suite.app);
    const old = await runScan(
      suite.db,
      tenant.orgId,
      [detection({ severity: 'critical', target: '127.0.0.3' })],
      {
        now: new Date(Date.now() - 10 * 86_400_000),
      },
    );
    await runScan(suite.db, tenant.orgId, [detection({ severity: 'high', target: '127.0.0.4' })]);
    const items = okBody(await tenant.api.call(listFindingsRoute, { query: { per_page: 100 } })).items;
    const late = items.find((f) => f.target === '127.0.0.3')!;
    const fresh = items.find((f) => f.target === '127.0.0.4')!;
    expect(late.overdue).toBe(true);
    expect(fresh.overdue).toBe(false);
    expect(new Date(fresh.due_date!).getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    const overdue = okBody(await tenant.api.call(listFindingsRoute, { query: { overdue: 'true' } })).items;
    expect(overdue.map((f) => f.id)).toEqual([late.id]);
    const scanFindings = okBody(
      await tenant.api.call(listScanFindingsRoute, { params: { scan_id: old.scan.id } }),
    ).items;
    expect(scanFindings).toEqual([
      expect.objectContaining({ id: late.id, due_date: late.due_date, overdue: true }),
    ]);
    const detail = okBody(await tenant.api.call(getFindingRoute, { params: { finding_id: late.id } }));
    expect(detail).toMatchObject({ overdue: true, due_date: late.due_date });
    // The export takes the same search filters.
    const exported = await tenant.api.call(exportFindingsRoute, {
      query: { format: 'json', overdue: 'true', q: 'weakness' },
    });
    expect(exported.body.map((f) => [f.id, f.overdue])).toEqual([[late.id, true]]);
    // Resolved, it is no longer overdue.
    okBody(
      await tenant.api.call(updateFindingRoute, {
        params: { finding_id: late.id },
        body: { status: 'resolved' },
      }),
    );
    expect(okBody(await tenant.api.call(listFindingsRoute, { query: { overdue: 'true' } })).total).toBe(0);
  });
});
