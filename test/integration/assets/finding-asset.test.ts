import { describe, expect, it } from 'vitest';
import type { ObservedHost } from '../../../server/assets/inventory.ts';
import { getAssetRoute, listAssetsRoute } from '../../../server/routes/assets.ts';
import { exportFindingsRoute, getFindingRoute } from '../../../server/routes/findings.ts';
import type { FindingDetail } from '../../../server/schemas/findings.ts';
import { expectError, okBody, type ApiClient } from '../../helpers/api-client.ts';
import { testEngine } from '../../helpers/database.ts';
import { detection, factory, runScan } from '../../helpers/factory.ts';
import { useTestApp } from '../../helpers/suite-app.ts';

/**
 * A finding's `asset_id` (docs/assets.md, "Which findings are on which asset"): the detail view
 * and the JSON export name the asset of the organization that the finding is on, or null.
 * PGlite and PostgreSQL.
 */

const host = (address: string, names: string[] = []): ObservedHost => ({
  address,
  names,
  services: [
    { port: 6379, protocol: 'tcp', service: 'redis', product: 'Redis', version: '7.4.1', tls: false },
  ],
});

const findingOf = async (api: ApiClient, findingId: string): Promise<FindingDetail> =>
  okBody(await api.call(getFindingRoute, { params: { finding_id: findingId } }));

/** The organization's asset at the address, as the API lists it. */
const assetAt = async (api: ApiClient, address: string) => {
  const page = okBody(await api.call(listAssetsRoute, { query: { q: address } }));
  const asset = page.items.find((a) => a.address === address);
  expect(asset, `an asset at ${address}`).toBeDefined();
  return asset!;
};

describe(`a finding's asset (${testEngine})`, () => {
  const suite = useTestApp();

  it('names the asset the scan recorded for its host, in the detail and the JSON export; null for a host with none', async () => {
    const tenant = await factory.tenant(suite.app);
    const { summary } = await runScan(
      suite.db,
      tenant.orgId,
      [
        detection({
          title: 'On the address',
          target: 'cache.internal.test',
          affected_component: 'redis://127.0.0.1:6379',
          port: 6379,
        }),
        detection({ title: 'On a name', target: 'cache.internal.test' }),
        detection({ title: 'Nowhere known', target: 'elsewhere.internal.test' }),
      ],
      { target: 'cache.internal.test', hosts: [host('127.0.0.1', ['cache.internal.test'])] },
    );
    const asset = await assetAt(tenant.api, '127.0.0.1');
    const findings = await Promise.all(summary.new_finding_ids.map((id) => findingOf(tenant.api, id)));
    const byTitle = Object.fromEntries(findings.map((f) => [f.title, f.asset_id]));
    expect(byTitle).toEqual({ 'On the address': asset.id, 'On a name': asset.id, 'Nowhere known': null });

    // The id is the asset's: its page answers the host the finding is on.
    const detail = okBody(await tenant.api.call(getAssetRoute, { params: { asset_id: asset.id } }));
    expect(detail).toMatchObject({ address: '127.0.0.1', names: ['cache.internal.test'] });

    // The JSON export is the detail view: the same asset_id.
    const exported = okBody(await tenant.api.call(exportFindingsRoute, { query: { format: 'json' } }));
    expect(Object.fromEntries(exported.map((f) => [f.title, f.asset_id]))).toEqual(byTitle);
  });

  it('gains the asset when a later scan records its host', async () => {
    const tenant = await factory.tenant(suite.app);
    const { summary } = await runScan(suite.db, tenant.orgId, [
      detection({ target: 'web.internal.test', affected_component: 'https://web.internal.test:443/' }),
    ]);
    const findingId = summary.new_finding_ids[0]!;
    expect((await findingOf(tenant.api, findingId)).asset_id).toBeNull();

    await runScan(suite.db, tenant.orgId, [], { hosts: [host('127.0.0.7', ['web.internal.test'])] });
    const asset = await assetAt(tenant.api, '127.0.0.7');
    expect((await findingOf(tenant.api, findingId)).asset_id).toBe(asset.id);
  });

  it("never names another organization's asset: two organizations scanning one address each see their own", async () => {
    const [one, two] = await Promise.all([factory.tenant(suite.app), factory.tenant(suite.app)]);
    const scanned = async (tenant: typeof one) => {
      const { summary } = await runScan(
        suite.db,
        tenant.orgId,
        [detection({ check_id: 'same-check', affected_component: 'redis://127.0.0.1:6379', port: 6379 })],
        { hosts: [host('127.0.0.1')] },
      );
      const finding = await findingOf(tenant.api, summary.new_finding_ids[0]!);
      return { finding, asset: await assetAt(tenant.api, '127.0.0.1') };
    };
    // One after the other: the second organization's scan comes after the first one's asset exists.
    const first = await scanned(one);
    const second = await scanned(two);

    expect(first.finding.asset_id).toBe(first.asset.id);
    expect(second.finding.asset_id).toBe(second.asset.id);
    expect(second.asset.id).not.toBe(first.asset.id);
    // Neither reaches the other's asset or finding.
    await expectError(
      await two.api.call(getAssetRoute, { params: { asset_id: first.finding.asset_id! } }),
      404,
      'NOT_FOUND',
    );
    await expectError(
      await one.api.call(getAssetRoute, { params: { asset_id: second.finding.asset_id! } }),
      404,
      'NOT_FOUND',
    );
    await expectError(
      await two.api.call(getFindingRoute, { params: { finding_id: first.finding.id } }),
      404,
      'NOT_FOUND',
    );
  });
});
