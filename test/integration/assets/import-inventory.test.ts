import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { getAssetRoute, listAssetsRoute } from '../../../server/routes/assets.ts';
import { okBody, type ApiClient } from '../../helpers/api-client.ts';
import { postReport } from '../imports/upload.ts';
import { detection, factory, runScan } from '../../helpers/factory.ts';
import { useTestApp } from '../../helpers/suite-app.ts';

/** An imported report that names hosts (nmap XML) creates and updates assets. PGlite and PostgreSQL. */

const NMAP = readFileSync(new URL('../../fixtures/nmap-sv-loopback.xml', import.meta.url), 'utf8');

/**
 * Imports a report of 127.0.0.1 sent as the raw request body, its fields in the query (the typed
 * `call` sends JSON, not an upload); answers the imported scan.
 */
const importReport = async (api: ApiClient, format: 'nmap' | 'scanward', report: string) =>
  okBody(await postReport(api, Buffer.from(report), { format, target: '127.0.0.1' }), 201);

describe('imports keep the asset inventory', () => {
  const suite = useTestApp();

  it('creates the asset of an nmap report with its open ports, then updates it from the next report', async () => {
    const tenant = await factory.tenant(suite.app);
    const first = await importReport(tenant.api, 'nmap', NMAP);
    const page = okBody(await tenant.api.call(listAssetsRoute));
    expect(page.total).toBe(1);
    const asset = okBody(await tenant.api.call(getAssetRoute, { params: { asset_id: page.items[0]!.id } }));
    expect(asset).toMatchObject({ address: '127.0.0.1', names: [], last_scan_id: first.id });
    expect(asset.services.map((s) => s.port)).toEqual([1883, 3306, 4222, 5432, 5672, 6379]);
    expect(asset.services.find((s) => s.port === 6379)).toMatchObject({
      service: 'redis',
      product: 'Redis',
      version: '7.0.15',
      tls: false,
      eol: { status: 'end_of_life', product: 'Redis', cycle: '7.0' },
    });
    // Its open-port results are on the asset.
    expect(asset.open_findings).toMatchObject({ total: 6, info: 6 });

    // The next report: the host under a name, Redis upgraded and behind TLS.
    const next = NMAP.replace(
      '<hostnames>\n</hostnames>',
      '<hostnames><hostname name="cache.internal.test" type="user"/></hostnames>',
    ).replace('version="7.0.15"', 'version="7.4.1" tunnel="ssl"');
    const second = await importReport(tenant.api, 'nmap', next);
    const updated = okBody(await tenant.api.call(getAssetRoute, { params: { asset_id: asset.id } }));
    expect(updated).toMatchObject({ names: ['cache.internal.test'], last_scan_id: second.id });
    expect(updated.services.find((s) => s.port === 6379)).toMatchObject({ version: '7.4.1', tls: true });
    expect(okBody(await tenant.api.call(listAssetsRoute)).total).toBe(1);
  });

  it('records no asset from a report that names no hosts, but places its findings on a known one', async () => {
    const tenant = await factory.tenant(suite.app);
    await runScan(suite.db, tenant.orgId, [], { hosts: [{ address: '127.0.0.1', names: [], services: [] }] });
    const report = {
      findings: [
        {
          template_id: 'x-check',
          affected_component: 'https://127.0.0.1:8443/',
          severity: 'high',
          title: 'X',
        },
      ],
    };
    await importReport(tenant.api, 'scanward', JSON.stringify(report));
    const page = okBody(await tenant.api.call(listAssetsRoute));
    expect(page.total).toBe(1);
    expect(page.items[0]!.open_findings.high).toBe(1);
    // A finding on a host with no asset stays unplaced.
    await runScan(suite.db, tenant.orgId, [
      detection({
        target: 'elsewhere.internal.test',
        affected_component: 'https://elsewhere.internal.test:443/',
      }),
    ]);
    expect(okBody(await tenant.api.call(listAssetsRoute)).total).toBe(1);
  });
});
