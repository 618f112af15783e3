import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAssetRoute, listAssetsRoute } from '../../../server/routes/assets.ts';
import { apiClient, okBody, type ApiClient } from '../../helpers/api-client.ts';
import { getFindingRoute, listFindingsRoute } from '../../../server/routes/findings.ts';
import { testEngine } from '../../helpers/database.ts';
import { runScanToEnd, startScanApp, type ScanApp } from '../../helpers/scanner.ts';
import {
  closeAll,
  randomLoopbackAddress,
  startListener,
  type FixtureListener,
} from '../../fixtures/listeners.ts';

/** A Redis of a release cycle long past its end of life (5.0), without a password. */
function endOfLifeRedis(socket: Socket) {
  socket.on('data', (data: Buffer) => {
    const text = data.toString('latin1');
    if (/PING/i.test(text)) socket.write('+PONG\r\n');
    if (/INFO/i.test(text)) {
      const body = '# Server\r\nredis_version:5.0.14\r\nredis_mode:standalone\r\n';
      socket.write(`$${body.length}\r\n${body}\r\n`);
    }
  });
}

/** A real scan of loopback fixtures keeps the asset inventory: the host, its services, EOL and findings. */
describe(`a scan records its hosts as assets (${testEngine})`, () => {
  let scanApp: ScanApp;
  let api: ApiClient;
  let host: string;
  let listeners: FixtureListener[] = [];

  beforeAll(async () => {
    scanApp = await startScanApp();
    api = apiClient(scanApp.app, { token: await scanApp.tenant.bearer() });
    host = randomLoopbackAddress();
    listeners = [
      await startListener({ host, banner: 'SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n' }),
      await startListener({ host, serve: endOfLifeRedis }),
    ];
  });
  afterAll(async () => {
    await closeAll(listeners);
    await scanApp?.close();
  });

  it('creates the asset with its services and end-of-life state, and places the findings on it', async () => {
    const [ssh, redis] = listeners as [FixtureListener, FixtureListener];
    const scan = await runScanToEnd(scanApp, {
      target: host,
      ports: `${ssh.port},${redis.port}`,
      scanType: 'quick',
    });
    expect(scan.status).toBe('completed');

    const page = okBody(await api.call(listAssetsRoute, { query: { q: host } }));
    expect(page.items.map((a) => a.address)).toEqual([host]);
    const asset = okBody(await api.call(getAssetRoute, { params: { asset_id: page.items[0]!.id } }));
    expect(asset).toMatchObject({ address: host, last_scan_id: scan.id, end_of_life: true });
    expect(asset.services.map((s) => s.port)).toEqual([ssh.port, redis.port].sort((a, b) => a - b));
    expect(asset.services.find((s) => s.port === ssh.port)).toMatchObject({
      service: 'ssh',
      tls: false,
      eol: { status: 'unknown' },
    });
    expect(asset.services.find((s) => s.port === redis.port)).toMatchObject({
      service: 'redis',
      version: '5.0.14',
      tls: false,
      eol: { status: 'end_of_life', product: 'Redis', cycle: '5.0' },
    });

    // Every finding the scan observed on the host is on the asset, and counted as open.
    const ofScan = okBody(await api.call(listFindingsRoute, { query: { scan_id: scan.id } }));
    const onAsset = okBody(await api.call(listFindingsRoute, { query: { asset_id: asset.id } }));
    expect(onAsset.total).toBe(ofScan.total);
    expect(onAsset.items.map((f) => f.template_id)).toContain('software-end-of-life:redis');
    expect(asset.open_findings.total).toBe(ofScan.total);
    // And each one names the asset in its detail view.
    const listed = okBody(await api.call(listFindingsRoute, { query: { scan_id: scan.id, per_page: 100 } }));
    expect(listed.items.length).toBe(ofScan.total);
    for (const item of listed.items) {
      const finding = okBody(await api.call(getFindingRoute, { params: { finding_id: item.id } }));
      expect(finding.asset_id, item.template_id).toBe(asset.id);
    }

    // A second scan of the host keeps one asset and moves its last sighting.
    const again = await runScanToEnd(scanApp, { target: host, ports: `${redis.port}`, scanType: 'quick' });
    const after = okBody(await api.call(listAssetsRoute, { query: { q: host } }));
    expect(after.items).toEqual([expect.objectContaining({ id: asset.id, last_scan_id: again.id })]);
  });
});
