import { describe, expect, it } from 'vitest';
import type { ObservedHost } from '../../../server/assets/inventory.ts';
import { getAssetRoute, listAssetsRoute } from '../../../server/routes/assets.ts';
import {
  groupFindingsRoute,
  listFindingsRoute,
  updateFindingRoute,
} from '../../../server/routes/findings.ts';
import { expectError, okBody, type RouteInput } from '../../helpers/api-client.ts';
import { detection, factory, runScan } from '../../helpers/factory.ts';
import { useTestApp } from '../../helpers/suite-app.ts';

/** GET /api/v1/assets, /api/v1/assets/{id}, the findings' asset_id filter and groups. PGlite and PostgreSQL. */

type AssetQuery = NonNullable<RouteInput<typeof listAssetsRoute>['query']>;
type GroupQuery = NonNullable<RouteInput<typeof groupFindingsRoute>['query']>;

const redisHost = (address: string, names: string[] = []): ObservedHost => ({
  address,
  names,
  services: [
    {
      port: 6379,
      protocol: 'tcp',
      service: 'redis',
      product: 'Redis',
      version: '7.0.15',
      tls: false,
      eol: { status: 'end_of_life', product: 'Redis', cycle: '7.0', date: '2024-07-29' },
    },
    { port: 443, protocol: 'tcp', service: 'https', product: 'nginx', version: '1.27.0', tls: true },
  ],
});

describe('assets API', () => {
  const suite = useTestApp();

  it('lists the hosts a scan saw with their services, names and open findings by severity', async () => {
    const tenant = await factory.tenant(suite.app);
    const { scan } = await runScan(
      suite.db,
      tenant.orgId,
      [
        detection({
          target: 'localhost',
          affected_component: 'redis://127.0.0.1:6379',
          severity: 'critical',
        }),
        detection({ target: 'localhost', affected_component: 'https://127.0.0.1:443/', severity: 'high' }),
        detection({ target: 'localhost', affected_component: 'https://127.0.0.1:443/x', severity: 'high' }),
        detection({ target: '127.0.0.2', severity: 'low' }),
      ],
      {
        target: 'localhost',
        hosts: [redisHost('127.0.0.1', ['localhost']), { address: '127.0.0.2', names: [], services: [] }],
      },
    );
    const page = okBody(await tenant.api.call(listAssetsRoute));
    expect(page.total).toBe(2);
    const one = page.items.find((a) => a.address === '127.0.0.1')!;
    expect(one).toMatchObject({
      names: ['localhost'],
      service_count: 2,
      end_of_life: true,
      last_scan_id: scan.id,
      open_findings: { total: 3, critical: 1, high: 2, medium: 0, low: 0, info: 0 },
    });
    const detail = okBody(await tenant.api.call(getAssetRoute, { params: { asset_id: one.id } }));
    expect(detail.services).toEqual([
      expect.objectContaining({
        port: 443,
        protocol: 'tcp',
        service: 'https',
        tls: true,
        eol: { status: 'unknown', product: null, cycle: null, date: null },
      }),
      expect.objectContaining({
        port: 6379,
        service: 'redis',
        product: 'Redis',
        version: '7.0.15',
        tls: false,
        eol: { status: 'end_of_life', product: 'Redis', cycle: '7.0', date: '2024-07-29' },
      }),
    ]);

    // A resolved finding is no longer open.
    const open = okBody(await tenant.api.call(listFindingsRoute, { query: { asset_id: one.id } }));
    expect(open.items).toHaveLength(3);
    const critical = open.items.find((f) => f.severity === 'critical')!;
    okBody(
      await tenant.api.call(updateFindingRoute, {
        params: { finding_id: critical.id },
        body: { status: 'resolved' },
      }),
    );
    const after = okBody(await tenant.api.call(getAssetRoute, { params: { asset_id: one.id } }));
    expect(after.open_findings).toMatchObject({ total: 2, critical: 0, high: 2 });

    // The console links each count to the list with status=open,in_progress: the same findings.
    const [first, second] = open.items.filter((f) => f.severity === 'high');
    okBody(
      await tenant.api.call(updateFindingRoute, {
        params: { finding_id: first!.id },
        body: { status: 'in_progress' },
      }),
    );
    const counted = okBody(await tenant.api.call(getAssetRoute, { params: { asset_id: one.id } }));
    const linked = okBody(
      await tenant.api.call(listFindingsRoute, {
        query: { asset_id: one.id, severity: 'high', status: 'open,in_progress' },
      }),
    );
    expect(linked.items.map((f) => f.id).sort()).toEqual([first!.id, second!.id].sort());
    expect(linked.total).toBe(counted.open_findings.high);
    const everything = okBody(
      await tenant.api.call(listFindingsRoute, { query: { asset_id: one.id, severity: 'critical' } }),
    );
    expect(everything.total).toBe(1); // the resolved critical: not counted as open, not linked
    expect(counted.open_findings.critical).toBe(0);
    const bad = await tenant.api.call(listFindingsRoute, { query: { status: 'open,closed' } });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ error_code: 'VALIDATION_ERROR', field: 'status' });
  });

  it('filters by address prefix or name, open findings, severity and end of life', async () => {
    const tenant = await factory.tenant(suite.app);
    await runScan(
      suite.db,
      tenant.orgId,
      [
        detection({ target: '127.0.0.1', severity: 'high' }),
        detection({ target: '127.0.1.5', severity: 'medium' }),
      ],
      {
        hosts: [
          redisHost('127.0.0.1', ['cache.internal.test']),
          { address: '127.0.1.5', names: [], services: [] },
          { address: '127.1.0.9', names: ['quiet.internal.test'], services: [] },
        ],
      },
    );
    const addresses = async (query: AssetQuery) =>
      okBody(await tenant.api.call(listAssetsRoute, { query }))
        .items.map((a) => a.address)
        .sort();
    expect(await addresses({ q: '127.0.' })).toEqual(['127.0.0.1', '127.0.1.5']);
    expect(await addresses({ q: 'CACHE' })).toEqual(['127.0.0.1']);
    expect(await addresses({ q: 'internal.test' })).toEqual(['127.0.0.1', '127.1.0.9']);
    // `_` and `%` are literal.
    expect(await addresses({ q: '127%' })).toEqual([]);
    expect(await addresses({ has_open_findings: 'true' })).toEqual(['127.0.0.1', '127.0.1.5']);
    expect(await addresses({ has_open_findings: 'false' })).toEqual(['127.1.0.9']);
    expect(await addresses({ severity: 'medium' })).toEqual(['127.0.1.5']);
    expect(await addresses({ severity: 'critical' })).toEqual([]);
    expect(await addresses({ eol: 'true' })).toEqual(['127.0.0.1']);
    expect(await addresses({ eol: 'false' })).toEqual(['127.0.1.5', '127.1.0.9']);
    const paged = okBody(await tenant.api.call(listAssetsRoute, { query: { per_page: 2, page: 2 } }));
    expect(paged).toMatchObject({ total: 3, pages: 2 });
    expect(paged.items).toHaveLength(1);

    // Values the contract does not allow (the typed query takes any string).
    await expectError(
      await tenant.api.call(listAssetsRoute, { query: { eol: 'maybe' } }),
      422,
      'VALIDATION_ERROR',
    );
    await expectError(
      await tenant.api.call(listAssetsRoute, { query: { severity: 'urgent' } }),
      422,
      'VALIDATION_ERROR',
      'severity',
    );
    await expectError(await tenant.api.call(listAssetsRoute, { query: { q: '' } }), 422, 'VALIDATION_ERROR');
  });

  it('keeps one asset per address: names accumulate, a name moves to its new address, services update', async () => {
    const tenant = await factory.tenant(suite.app);
    const first = new Date('2026-03-01T00:00:00Z');
    const later = new Date('2026-03-08T00:00:00Z');
    await runScan(suite.db, tenant.orgId, [], {
      now: first,
      hosts: [redisHost('127.0.0.1', ['a.internal.test'])],
    });
    await runScan(suite.db, tenant.orgId, [], {
      now: later,
      hosts: [
        {
          address: '127.0.0.1',
          names: ['B.internal.test'],
          services: [
            {
              port: 6379,
              protocol: 'tcp',
              service: 'redis',
              product: 'Redis',
              version: '7.4.1',
              tls: false,
              eol: { status: 'supported', product: 'Redis', cycle: '7.4', date: null },
            },
          ],
        },
        { address: '127.0.0.3', names: ['a.internal.test'], services: [] },
      ],
    });
    const page = okBody(await tenant.api.call(listAssetsRoute));
    const seen = page.items
      .map((a) => [a.address, a.names])
      .sort((x, y) => String(x[0]).localeCompare(String(y[0])));
    expect(seen).toEqual([
      ['127.0.0.1', ['b.internal.test']],
      ['127.0.0.3', ['a.internal.test']],
    ]);
    const id = page.items.find((a) => a.address === '127.0.0.1')!.id;
    const detail = okBody(await tenant.api.call(getAssetRoute, { params: { asset_id: id } }));
    expect(detail).toMatchObject({
      first_seen_at: first.toISOString(),
      last_seen_at: later.toISOString(),
      end_of_life: false,
    });
    const redis = detail.services.find((s) => s.port === 6379)!;
    expect(redis).toMatchObject({
      version: '7.4.1',
      eol: { status: 'supported' },
      first_seen_at: first.toISOString(),
      last_seen_at: later.toISOString(),
    });
    // One name at two addresses in one scan: both assets carry it.
    await runScan(suite.db, tenant.orgId, [], {
      hosts: [
        { address: '127.0.0.1', names: ['dual.internal.test'], services: [] },
        { address: '::1', names: ['dual.internal.test'], services: [] },
      ],
    });
    const dual = okBody(await tenant.api.call(listAssetsRoute, { query: { q: 'dual' } }));
    expect(dual.items.map((a) => a.address).sort()).toEqual(['127.0.0.1', '::1']);
    // A port the later scan did not see stays, with its last sighting.
    expect(detail.services.find((s) => s.port === 443)).toMatchObject({ last_seen_at: first.toISOString() });
  });

  it('places earlier findings without an asset when their host first appears', async () => {
    const tenant = await factory.tenant(suite.app);
    const { summary } = await runScan(suite.db, tenant.orgId, [
      detection({ target: 'web.internal.test', affected_component: 'https://web.internal.test:443/' }),
    ]);
    await runScan(suite.db, tenant.orgId, [], {
      hosts: [{ address: '127.0.0.7', names: ['web.internal.test'], services: [] }],
    });
    const asset = okBody(await tenant.api.call(listAssetsRoute)).items[0]!;
    expect(asset.open_findings.total).toBe(1);
    const listed = okBody(await tenant.api.call(listFindingsRoute, { query: { asset_id: asset.id } }));
    expect(listed.items.map((f) => f.id)).toEqual(summary.new_finding_ids);
  });

  it('answers 404 for a missing or foreign asset, and another organization sees none of them', async () => {
    const owner = await factory.tenant(suite.app);
    await runScan(suite.db, owner.orgId, [detection()], { hosts: [redisHost('127.0.0.1')] });
    const asset = okBody(await owner.api.call(listAssetsRoute)).items[0]!;
    const other = await factory.tenant(suite.app);
    await expectError(
      await other.api.call(getAssetRoute, { params: { asset_id: asset.id } }),
      404,
      'NOT_FOUND',
    );
    await expectError(
      await owner.api.call(getAssetRoute, { params: { asset_id: 'asset_000000000000000000000000' } }),
      404,
      'NOT_FOUND',
    );
    expect(okBody(await other.api.call(listAssetsRoute)).total).toBe(0);
    expect(okBody(await other.api.call(listFindingsRoute, { query: { asset_id: asset.id } })).total).toBe(0);
    const groups = okBody(await other.api.call(groupFindingsRoute, { query: { by: 'asset' } }));
    expect(groups.items).toEqual([]);
  });
});

describe('findings grouped by asset, CVE or check', () => {
  const suite = useTestApp();

  it('counts the filtered findings by severity per group, worst first, each key a list filter', async () => {
    const tenant = await factory.tenant(suite.app);
    await runScan(
      suite.db,
      tenant.orgId,
      [
        detection({
          check_id: 'check-a',
          title: 'Check A',
          severity: 'critical',
          cve_ids: ['CVE-2024-0001', 'CVE-2024-0002'],
        }),
        detection({
          check_id: 'check-a',
          title: 'Check A',
          severity: 'critical',
          target: '127.0.0.2',
          cve_ids: ['CVE-2024-0001'],
        }),
        detection({ check_id: 'check-b', title: 'Check B', severity: 'low' }),
        detection({
          check_id: 'check-c',
          title: 'Check C',
          severity: 'medium',
          target: 'nowhere.internal.test',
        }),
      ],
      { hosts: [redisHost('127.0.0.1', ['localhost']), { address: '127.0.0.2', names: [], services: [] }] },
    );
    const groups = async (query: GroupQuery) => okBody(await tenant.api.call(groupFindingsRoute, { query }));

    const byAsset = await groups({ by: 'asset' });
    expect(byAsset.by).toBe('asset');
    expect(byAsset.items.map((g) => [g.label, g.detail, g.total, g.by_severity.critical])).toEqual([
      ['127.0.0.1', 'localhost', 2, 1],
      ['127.0.0.2', null, 1, 1],
      ['No asset', null, 1, 0],
    ]);
    expect(byAsset.items[2]!.key).toBeNull();
    const first = byAsset.items[0]!;
    const listed = okBody(await tenant.api.call(listFindingsRoute, { query: { asset_id: first.key! } }));
    expect(listed.total).toBe(first.total);

    const byCve = await groups({ by: 'cve' });
    expect(byCve.items.map((g) => [g.key, g.total])).toEqual([
      ['CVE-2024-0001', 2],
      ['CVE-2024-0002', 1],
    ]);
    const byCheck = await groups({ by: 'check' });
    expect(byCheck.items.map((g) => [g.key, g.detail, g.total, g.by_severity])).toEqual([
      ['check-a', 'Check A', 2, { critical: 2, high: 0, medium: 0, low: 0, info: 0 }],
      ['check-c', 'Check C', 1, { critical: 0, high: 0, medium: 1, low: 0, info: 0 }],
      ['check-b', 'Check B', 1, { critical: 0, high: 0, medium: 0, low: 1, info: 0 }],
    ]);
    const ofCheck = okBody(await tenant.api.call(listFindingsRoute, { query: { template_id: 'check-a' } }));
    expect(ofCheck.total).toBe(2);

    // The list's filters apply, and groups are paginated.
    expect((await groups({ by: 'check', severity: 'low' })).items.map((g) => g.key)).toEqual(['check-b']);
    expect((await groups({ by: 'check', asset_id: first.key! })).items.map((g) => g.key)).toEqual([
      'check-a',
      'check-b',
    ]);
    const paged = await groups({ by: 'check', per_page: 2, page: 2 });
    expect(paged).toMatchObject({ total: 3 });
    expect(paged.items.map((g) => g.key)).toEqual(['check-b']);

    // Queries the contract does not allow (the typed query takes any string).
    await expectError(await tenant.api.call(groupFindingsRoute), 422, 'VALIDATION_ERROR', 'by');
    await expectError(
      await tenant.api.call(groupFindingsRoute, { query: { by: 'port' } }),
      422,
      'VALIDATION_ERROR',
    );
    await expectError(
      await tenant.api.call(groupFindingsRoute, { query: { by: 'cve', cve: 'nope' } }),
      422,
      'VALIDATION_ERROR',
    );
  });
});
