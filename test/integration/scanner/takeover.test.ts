import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueScan } from '../../../server/scans/lifecycle.ts';
import { listFindingsRoute } from '../../../server/routes/findings.ts';
import { listScanFindingsRoute } from '../../../server/routes/scans.ts';
import { okBody } from '../../helpers/api-client.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory, scanRow, type Tenant } from '../../helpers/factory.ts';
import { waitFor } from '../../helpers/poll.ts';
import { testEngine } from '../../helpers/database.ts';
import { SERVER_ENTRY } from '../../helpers/server-process.ts';
import {
  closeAll,
  randomLoopbackAddress,
  startListener,
  type FixtureListener,
} from '../../fixtures/listeners.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const PORT_COUNT = 10;

/** A runner process of its own (SCANWARD_ROLE=runner) on the test's PostgreSQL database. */
function spawnRunner(databaseUrl: string): ChildProcess {
  return spawn(process.execPath, SERVER_ENTRY, {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      SCANWARD_ROLE: 'runner',
      SCANWARD_RUNNER_LEASE_SECONDS: '3',
      SCANWARD_SCAN_ALLOW: '127.0.0.0/8,::1,localhost',
      SCANWARD_JWT_SECRET: 'x'.repeat(48),
      LOG_LEVEL: 'silent',
    },
    stdio: 'ignore',
  });
}

describe.skipIf(testEngine !== 'postgres')(`runner takeover across processes (${testEngine})`, () => {
  let app: TestApp;
  let tenant: Tenant;
  let listeners: FixtureListener[] = [];
  const runners: ChildProcess[] = [];

  const suite = useTestApp({ env: { SCANWARD_JWT_SECRET: 'x'.repeat(48) } });
  beforeAll(async () => {
    app = suite.app;
    tenant = await factory.tenant(app, { plan: 'enterprise' });
    const host = randomLoopbackAddress();
    // Each port greets after a pause, so identification keeps the scan busy for a few seconds.
    listeners = await Promise.all(
      Array.from({ length: PORT_COUNT }, () =>
        startListener({
          host,
          serve: (socket) => {
            const timer = setTimeout(() => socket.write('SSH-2.0-OpenSSH_9.2p1\r\n'), 1200);
            socket.on('close', () => clearTimeout(timer));
          },
        }),
      ),
    );
  });
  afterAll(async () => {
    for (const child of runners) child.kill('SIGKILL');
    await closeAll(listeners);
  });

  it('finishes a scan whose runner was killed with SIGKILL, without duplicate findings', async () => {
    const databaseUrl = app.config.databaseUrl!;
    const [first, second] = [spawnRunner(databaseUrl), spawnRunner(databaseUrl)];
    runners.push(first!, second!);
    const scan = await queueScan(app.services.db, {
      orgId: tenant.orgId,
      createdBy: tenant.admin.id,
      target: listeners[0]!.host,
      scanType: 'quick',
      frameworks: [],
      ports: listeners.map((l) => l.port).join(','),
      createdAt: new Date(),
    });
    const row = (id: string) => scanRow(app, tenant.orgId, id);

    const running = await waitFor(
      () => row(scan.id),
      (s) => s.status === 'running' && s.phase === 'enumeration' && s.runner_id !== null,
      { timeoutMs: 90_000, intervalMs: 50 },
    );
    const owner = runners.find((c) => running.runner_id!.includes(`-${c.pid}-`));
    expect(owner).toBeDefined();
    owner!.kill('SIGKILL');

    const done = await waitFor(
      () => row(scan.id),
      (s) => s.status === 'completed' || s.status === 'failed',
      { timeoutMs: 90_000, intervalMs: 50 },
    );
    expect(done.status).toBe('completed');
    expect(done.runner_id).not.toBe(running.runner_id);
    expect(done.attempts).toBe(2);

    // One finding per port, none twice, each observed once by the scan.
    const api = await tenant.client();
    const findings = okBody(await api.call(listFindingsRoute, { query: { per_page: 100 } }));
    expect(findings.total).toBe(PORT_COUNT);
    expect(findings.items).toHaveLength(PORT_COUNT);
    expect(new Set(findings.items.map((f) => f.affected_component)).size).toBe(PORT_COUNT);
    const observed = okBody(
      await api.call(listScanFindingsRoute, { params: { scan_id: scan.id }, query: { per_page: 100 } }),
    );
    expect(observed.total).toBe(PORT_COUNT);
    expect(observed.items.map((f) => f.id).sort()).toEqual(findings.items.map((f) => f.id).sort());
    expect(done.info_count).toBe(PORT_COUNT);
  });
});
