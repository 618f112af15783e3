import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config.ts';
import { identifyService } from '../../../server/scanner/net/service-id.ts';
import { scanTcpPorts } from '../../../server/scanner/net/tcp-scan.ts';
import { createScopeGuard, OutOfScopeError } from '../../../server/scanner/scope-guard.ts';
import { emptyState } from '../../../server/scanner/types.ts';
import {
  closeAll,
  randomLoopbackAddress,
  startListener,
  type FixtureListener,
} from '../../fixtures/listeners.ts';

/**
 * The connect-time half of the scope policy: a probe may connect only to an
 * address that discovery checked and recorded for this scan, and never to one
 * the deny list names, whatever the allow list says.
 */
describe('scan scope guard at connect time', () => {
  const approved = randomLoopbackAddress();
  let other = randomLoopbackAddress();
  while (other === approved) other = randomLoopbackAddress();
  let listeners: FixtureListener[] = [];

  beforeAll(async () => {
    listeners = [
      await startListener({ host: approved, banner: 'SSH-2.0-OpenSSH_9.2p1\r\n' }),
      await startListener({ host: other, banner: 'SSH-2.0-OpenSSH_9.2p1\r\n' }),
    ];
  });
  afterAll(() => closeAll(listeners));

  const guardFor = (env: Record<string, string>) => {
    const state = emptyState();
    state.hosts = [{ target: approved, address: approved, alive: true }];
    return createScopeGuard(loadConfig({ SCANWARD_SCAN_ALLOW: '127.0.0.0/8', ...env }), state);
  };

  it('lets probes reach the address discovery recorded', async () => {
    const [target] = listeners as [FixtureListener];
    const result = await scanTcpPorts({
      address: approved,
      ports: [target.port],
      assertAllowed: guardFor({}),
    });
    expect(result.openPorts).toEqual([target.port]);
  });

  it('refuses an address the scan did not record, though the allow list covers it, before any connection', async () => {
    const [, stray] = listeners as [FixtureListener, FixtureListener];
    const guard = guardFor({});
    expect(() => guard(other)).toThrow(OutOfScopeError);
    await expect(scanTcpPorts({ address: other, ports: [stray.port], assertAllowed: guard })).rejects.toThrow(
      OutOfScopeError,
    );
    await expect(identifyService({ address: other, port: stray.port, assertAllowed: guard })).rejects.toThrow(
      OutOfScopeError,
    );
    await stray.flush();
    expect(stray.connections).toBe(0);
  });

  it('refuses a recorded address that the deny list now names', async () => {
    const [target] = listeners as [FixtureListener];
    const guard = guardFor({ SCANWARD_SCAN_DENY: approved });
    await expect(
      scanTcpPorts({ address: approved, ports: [target.port], assertAllowed: guard }),
    ).rejects.toThrow(OutOfScopeError);
  });
});
