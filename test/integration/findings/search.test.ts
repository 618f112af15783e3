import { describe, expect, it } from 'vitest';
import { listFindingsRoute, updateFindingRoute } from '../../../server/routes/findings.ts';
import { expectError, okBody, type RouteInput } from '../../helpers/api-client.ts';
import { detection, factory, runScan } from '../../helpers/factory.ts';
import { useTestApp } from '../../helpers/suite-app.ts';

/** Search filters of GET /api/v1/findings: q, kev, assignee, from_date/to_date. PGlite and PostgreSQL. */
describe('finding search', () => {
  const suite = useTestApp();
  type ListQuery = NonNullable<RouteInput<typeof listFindingsRoute>['query']>;

  it('finds by free text over title, component, target, CVE and description, literally and ignoring case', async () => {
    const tenant = await factory.tenant(suite.app);
    const made = [
      detection({ title: 'Redis without a password' }),
      detection({ affected_component: 'https://127.0.0.1:8443/admin_panel' }),
      detection({ cve_ids: ['CVE-2021-44228'] }),
      detection({ description: 'Uses 100% of the pool' }),
    ];
    await runScan(suite.db, tenant.orgId, made);
    const listed = okBody(await tenant.api.call(listFindingsRoute, { query: { per_page: 100 } })).items;
    const idOf = (d: (typeof made)[number]) => listed.find((f) => f.template_id === d.check_id)!.id;
    const [redis, panel, log4j, percent] = made.map(idOf);
    const search = async (q: string) =>
      okBody(await tenant.api.call(listFindingsRoute, { query: { q } })).items.map((f) => f.id);
    expect(await search('REDIS')).toEqual([redis]);
    expect(await search('admin_panel')).toEqual([panel]);
    expect(await search('cve-2021-44228')).toEqual([log4j]);
    expect(await search('100%')).toEqual([percent]);
    // `_` and `%` are literal, not wildcards.
    expect(await search('admin%panel')).toEqual([]);
    expect((await search('127.0.0.1')).sort()).toEqual([redis, panel, log4j, percent].sort());
    // Another organization's findings are never found.
    const other = await factory.tenant(suite.app);
    expect(okBody(await other.api.call(listFindingsRoute, { query: { q: 'redis' } })).total).toBe(0);
  });

  it('filters by kev, assignee and detection date range', async () => {
    const tenant = await factory.tenant(suite.app);
    const old = await runScan(suite.db, tenant.orgId, [detection({ kev: true })], {
      now: new Date('2026-01-05T00:00:00Z'),
    });
    const recent = await runScan(suite.db, tenant.orgId, [detection()], {
      now: new Date('2026-06-05T00:00:00Z'),
    });
    const kevId = old.summary.new_finding_ids[0]!;
    const otherId = recent.summary.new_finding_ids[0]!;
    const ids = async (query: ListQuery) =>
      okBody(await tenant.api.call(listFindingsRoute, { query })).items.map((f) => f.id);
    expect(await ids({ kev: 'true' })).toEqual([kevId]);
    expect(await ids({ kev: 'false' })).toEqual([otherId]);
    okBody(
      await tenant.api.call(updateFindingRoute, {
        params: { finding_id: otherId },
        body: { assignee: 'Alice@Example.test' },
      }),
    );
    expect(await ids({ assignee: 'alice@example.test' })).toEqual([otherId]);
    expect(await ids({ from_date: '2026-03-01' })).toEqual([otherId]);
    expect(await ids({ to_date: '2026-03-01' })).toEqual([kevId]);
    // Queries the contract does not allow (the typed query takes any string).
    const bad = await tenant.api.call(listFindingsRoute, {
      query: { from_date: '2026-03-01', to_date: '2026-02-01' },
    });
    await expectError(bad, 422, 'VALIDATION_ERROR', 'to_date');
    const kevBad = await tenant.api.call(listFindingsRoute, { query: { kev: 'maybe' } });
    await expectError(kevBad, 422, 'VALIDATION_ERROR', 'kev');
  });
});
