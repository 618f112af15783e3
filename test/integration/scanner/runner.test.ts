import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelScan, queueScan } from '../../../server/scans/lifecycle.ts';
import { claimScan } from '../../../server/scanner/runner.ts';
import { startRunner, type Runner } from '../../../server/scanner/runner.ts';
import { PHASES } from '../../../server/scans/phases.ts';
import { getFindingRoute, listFindingsRoute } from '../../../server/routes/findings.ts';
import { okBody } from '../../helpers/api-client.ts';
import type { TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory, scanRow, type Tenant } from '../../helpers/factory.ts';
import { pollUntil } from '../../helpers/poll.ts';
import { testEngine } from '../../helpers/database.ts';
import {
  closeAll,
  randomLoopbackAddress,
  startListener,
  type FixtureListener,
  fakeRedis,
} from '../../fixtures/listeners.ts';

describe(`scan runner (${testEngine})`, () => {
  let app: TestApp;
  let runner: Runner;
  let host: string;
  let listeners: FixtureListener[] = [];

  // 127.254.0.0/16 is denied: the out-of-scope target below stays on loopback, so even a broken
  // scope check could not reach another machine.
  const suite = useTestApp({
    env: { SCANWARD_RUNNER_LEASE_SECONDS: '6', SCANWARD_SCAN_DENY: '127.254.0.0/16' },
  });
  beforeAll(async () => {
    app = suite.app;
    host = randomLoopbackAddress();
    listeners = [
      await startListener({ host, banner: 'SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n' }),
      await startListener({ host, serve: fakeRedis }),
    ];
    runner = startRunner(app.services, { pollIntervalMs: 50 });
  });
  afterAll(async () => {
    await runner?.stop();
    await closeAll(listeners);
  });

  /** Each test scans as a tenant of its own, so what it reads is only what its own scans did. */
  const ownTenant = () => factory.tenant(app, { plan: 'enterprise' });
  const scanOf = (tenant: Tenant, id: string) => scanRow(app, tenant.orgId, id);

  it('runs a full scan through every phase in order and records what it found', async () => {
    const tenant = await ownTenant();
    const [ssh, redis] = listeners as [FixtureListener, FixtureListener];
    const closedPort = 1 + ((redis.port + 7) % 65000);
    const scan = await queueScan(app.services.db, {
      orgId: tenant.orgId,
      createdBy: tenant.admin.id,
      target: host,
      scanType: 'full',
      frameworks: [],
      ports: `${ssh.port},${redis.port},${closedPort}`,
      createdAt: new Date(),
    });
    runner.nudge();
    const seen = await pollUntil(
      () => scanOf(tenant, scan.id),
      (s) => s.status === 'completed' || s.status === 'failed',
    );
    const final = seen[seen.length - 1]!;
    expect(final.error).toBeNull();
    expect(final).toMatchObject({
      status: 'completed',
      progress: 100,
      phase: 'complete',
      current_tool: null,
    });
    expect(final.phases_completed).toEqual([...PHASES]);

    // Progress never fell, and phases advanced in order.
    const progress = seen.map((s) => s.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    const order = seen.map((s) => s.phase).filter((p, i, all) => p !== all[i - 1]);
    const indexes = order
      .filter((p) => p !== 'complete')
      .map((p) => PHASES.indexOf(p as (typeof PHASES)[number]));
    expect(indexes).toEqual([...indexes].sort((a, b) => a - b));
    expect(seen.some((s) => s.status === 'running' && s.current_tool)).toBe(true);

    const api = await tenant.client();
    const { items: findings, total } = okBody(
      await api.call(listFindingsRoute, { query: { per_page: 100 } }),
    );
    expect(findings).toHaveLength(total);
    const openPorts = [...new Set(findings.map((f) => Number(new URL(f.affected_component).port)))];
    expect(openPorts.sort((a, b) => a - b)).toEqual([ssh.port, redis.port].sort((a, b) => a - b));
    expect(findings).toContainEqual(
      expect.objectContaining({
        template_id: 'redis-unauthenticated',
        severity: 'critical',
        affected_component: `redis://${host}:${redis.port}`,
      }),
    );
    expect(findings).toContainEqual(
      expect.objectContaining({
        template_id: 'open-service',
        affected_component: `ssh://${host}:${ssh.port}`,
      }),
    );
    // remediation_planning: the Redis fix links its playbook and the finding gets a suggested priority.
    const redisId = findings.find((f) => f.template_id === 'redis-unauthenticated')!.id;
    const redisFinding = okBody(await api.call(getFindingRoute, { params: { finding_id: redisId } }));
    expect(redisFinding.remediation.steps).toContainEqual(
      expect.stringContaining('/api/v1/playbooks/pb_redis_requirepass'),
    );
    expect(redisFinding.priority).not.toBeNull();
    const counted = findings.filter((f) => f.severity !== 'info').length;
    expect(final.vulnerabilities_found).toBe(counted);
    expect(final.critical_count).toBe(findings.filter((f) => f.severity === 'critical').length);
    expect(final.changes).toMatchObject({ new: findings.length, reopened: 0, resolved: 0, unchanged: 0 });
  });

  it('fails a scan whose target the scope policy refuses when the scan starts, connecting nowhere', async () => {
    const tenant = await ownTenant();
    const scan = await queueScan(app.services.db, {
      orgId: tenant.orgId,
      createdBy: tenant.admin.id,
      target: '127.254.0.1',
      scanType: 'quick',
      frameworks: [],
      ports: '80',
      createdAt: new Date(),
    });
    runner.nudge();
    const seen = await pollUntil(
      () => scanOf(tenant, scan.id),
      (s) => s.status === 'failed' || s.status === 'completed',
    );
    expect(seen[seen.length - 1]).toMatchObject({ status: 'failed' });
    expect(seen[seen.length - 1]!.error).toMatch(/outside the scan scope/);
  });

  it('stops all work once a scan is cancelled: no connection reaches the fixtures afterwards', async () => {
    // Silent listeners: identification waits on each, so the scan is still busy when cancelled.
    const tenant = await ownTenant();
    const silentHost = randomLoopbackAddress();
    const silent = await Promise.all(
      Array.from({ length: 6 }, () => startListener({ host: silentHost, serve: () => undefined })),
    );
    try {
      const scan = await queueScan(app.services.db, {
        orgId: tenant.orgId,
        createdBy: tenant.admin.id,
        target: silentHost,
        scanType: 'quick',
        frameworks: [],
        ports: silent.map((l) => l.port).join(','),
        createdAt: new Date(),
      });
      runner.nudge();
      await pollUntil(
        () => scanOf(tenant, scan.id),
        (s) => s.status === 'running' && s.current_tool === 'scanward-probe',
      );
      const cancelled = await cancelScan(
        app.services.db,
        tenant.orgId,
        scan.id,
        'Scan cancelled by the test',
      );
      expect(cancelled.status).toBe('cancelled');
      await runner.idle();
      await Promise.all(silent.map((l) => l.flush()));
      const counts = silent.map((l) => l.connections);

      // Run another scan to completion: the cancelled one must not have left work behind.
      const [ssh] = listeners as [FixtureListener];
      const next = await queueScan(app.services.db, {
        orgId: tenant.orgId,
        createdBy: tenant.admin.id,
        target: host,
        scanType: 'quick',
        frameworks: [],
        ports: String(ssh.port),
        createdAt: new Date(),
      });
      runner.nudge();
      await pollUntil(
        () => scanOf(tenant, next.id),
        (s) => s.status === 'completed',
      );
      await Promise.all(silent.map((l) => l.flush()));
      expect(silent.map((l) => l.connections)).toEqual(counts);
      const final = await scanOf(tenant, scan.id);
      expect(final).toMatchObject({ status: 'cancelled', message: 'Scan cancelled by the test' });
      expect(final.progress).toBeLessThan(100);
    } finally {
      await closeAll(silent);
    }
  });

  it('lets only one of many concurrent claimers take each pending scan', async () => {
    // Park the shared runner first, so only the claimers below can take these scans; it starts
    // again afterwards, whatever happens, for the tests that run after this one.
    await runner.stop();
    try {
      const other = await ownTenant();
      const ids = new Set<string>();
      for (let i = 0; i < 8; i++) {
        const scan = await queueScan(app.services.db, {
          orgId: other.orgId,
          createdBy: other.admin.id,
          target: '127.0.0.1',
          scanType: 'quick',
          frameworks: [],
          ports: '1',
          createdAt: new Date(Date.now() + 3_600_000), // after every other queued scan
        });
        ids.add(scan.id);
      }
      const claims = await Promise.all(
        Array.from({ length: 24 }, (_, i) => claimScan(app.services.db, `claimer-${i}`, 60)),
      );
      const claimed = claims.flatMap((c) => (c && 'scan' in c && ids.has(c.scan.id) ? [c.scan.id] : []));
      expect(new Set(claimed).size).toBe(claimed.length);
      expect(new Set(claimed)).toEqual(ids);
      // The claimers never run what they took: cancelled, their scans leave the runner nothing to take over.
      for (const id of ids) await cancelScan(app.services.db, other.orgId, id, 'Claimed by the test');
    } finally {
      runner = startRunner(app.services, { pollIntervalMs: 50 });
    }
  });
});
