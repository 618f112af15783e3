/** nmap as a second tool, run for real on loopback fixtures; skipped when nmap is not installed. */
import { afterEach, describe, expect, it } from 'vitest';
import { isNmapAvailable, NmapError, runNmapServiceScan } from '../../../../server/scanner/net/nmap.ts';
import { closeAll, startListener, type FixtureListener } from '../../../fixtures/listeners.ts';

const available = await isNmapAvailable();
const skipNote = 'nmap is not installed (apt-get install nmap to run these cases)';

let listeners: FixtureListener[] = [];
afterEach(async () => {
  await closeAll(listeners);
  listeners = [];
});

describe('runNmapServiceScan', () => {
  it('identifies an SSH greeting on a loopback fixture and reports a closed port', async (context) => {
    context.skip(!available, skipNote);
    const ssh = await startListener({ banner: 'SSH-2.0-OpenSSH_9.6p1 Ubuntu-3ubuntu13\r\n' });
    const closed = await startListener();
    await closed.close();
    listeners = [ssh];

    const results = await runNmapServiceScan({
      address: '127.0.0.1',
      ports: [ssh.port, closed.port],
      assertAllowed: () => {},
      timeoutMs: 60_000,
    });

    expect(results.find((result) => result.port === ssh.port)).toMatchObject({
      state: 'open',
      service: 'ssh',
      product: 'OpenSSH',
      version: '9.6p1 Ubuntu 3ubuntu13',
      tool: 'nmap',
    });
    expect(results.find((result) => result.port === closed.port)?.state).toBe('closed');
  });

  it('kills nmap when aborted', async (context) => {
    context.skip(!available, skipNote);
    const silent = await startListener();
    listeners = [silent];
    const controller = new AbortController();
    const scan = runNmapServiceScan({
      address: '127.0.0.1',
      ports: [silent.port],
      assertAllowed: () => {},
      signal: controller.signal,
    });
    await silent.waitForConnections(1, 20_000);
    const abortedAt = performance.now();
    controller.abort(new Error('stop'));
    await expect(scan).rejects.toThrow('stop');
    expect(performance.now() - abortedAt).toBeLessThan(2500);
  });

  it('runs nothing when the scope policy refuses the address', async (context) => {
    context.skip(!available, skipNote);
    const listener = await startListener();
    listeners = [listener];
    await expect(
      runNmapServiceScan({
        address: '127.0.0.1',
        ports: [listener.port],
        assertAllowed: () => {
          throw new Error('target not allowed');
        },
      }),
    ).rejects.toThrow('target not allowed');
    await listener.flush();
    expect(listener.connections).toBe(0);
  });

  it('fails with NmapError when the executable cannot be run', async () => {
    await expect(
      runNmapServiceScan({
        address: '127.0.0.1',
        ports: [1],
        assertAllowed: () => {},
        command: 'nmap-does-not-exist',
      }),
    ).rejects.toBeInstanceOf(NmapError);
    expect(await isNmapAvailable('nmap-does-not-exist')).toBe(false);
  });
});
