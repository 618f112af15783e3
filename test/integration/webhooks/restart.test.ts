import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir } from '../../../server/db/lock.ts';
import { createScanRoute } from '../../../server/routes/scans.ts';
import { createWebhookRoute, listDeliveriesRoute } from '../../../server/routes/webhooks.ts';
import { DELIVERY_TIMEOUT_MS } from '../../../server/webhooks/delivery.ts';
import { apiClient, okBody, type ApiClient } from '../../helpers/api-client.ts';
import {
  startWebhookReceiver,
  type ReceivedRequest,
  type WebhookReceiver,
} from '../../fixtures/webhook-receiver.ts';
import { createTestDatabase, testEngine, type TestDatabase } from '../../helpers/database.ts';
import { logIn } from '../../helpers/factory.ts';
import { waitFor } from '../../helpers/poll.ts';
import { type ServerProcess, spawnServer } from '../../helpers/server-process.ts';

/**
 * The outbox promise of docs/webhooks.md ("after a restart too") with real
 * processes: a server killed with SIGKILL while a delivery is in flight sends
 * that delivery, with the same `webhook-id`, once it is started again on the
 * same database, and sends it only once after that.
 *
 * Everything goes through the child's HTTP API (bootstrap admin, webhook, scans),
 * so the test never opens the database itself: on PGlite the data directory
 * belongs to one process at a time (the test only asks its lock whether it is free).
 */

/** The bootstrap admin (SCANWARD_ADMIN_EMAIL left at its default: zod's e-mail check refuses `admin@localhost`). */
const ADMIN = { email: 'admin@localhost', password: 'restart-test-password' };

describe(`webhook delivery across a killed server process (${testEngine})`, () => {
  let root: string | undefined;
  let database: TestDatabase | undefined;
  let env: Record<string, string>;
  let receiver: WebhookReceiver;
  const started: ServerProcess[] = [];

  beforeAll(async () => {
    receiver = await startWebhookReceiver({ holding: true });
    env = {
      SCANWARD_ADMIN_PASSWORD: ADMIN.password,
      SCANWARD_WEBHOOK_ALLOW_PRIVATE: 'true',
      SCANWARD_NMAP: 'off',
    };
    if (testEngine === 'postgres') {
      // A database of its own, created empty: the first child migrates it and creates the admin.
      database = await createTestDatabase();
      env.DATABASE_URL = database.url!;
    } else {
      root = mkdtempSync(path.join(tmpdir(), 'scanward-webhooks-restart-'));
      env.SCANWARD_DATA_DIR = path.join(root, 'data');
    }
  });
  afterAll(async () => {
    for (const server of started) {
      server.kill();
      await server.exited;
    }
    await receiver?.close();
    await database?.drop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  const start = async (): Promise<ServerProcess> => {
    const server = await spawnServer(env);
    started.push(server);
    await server.ready();
    return server;
  };

  /**
   * On PGlite, waits until the data-dir lock of a killed process has gone stale
   * (the product's own lock: taken and given back at once), so the next server can open it.
   */
  const dataDirFree = async () => {
    if (!env.SCANWARD_DATA_DIR) return;
    await waitFor(
      () =>
        lockDataDir(env.SCANWARD_DATA_DIR!).then(
          async (lock) => {
            await lock.release();
            return true;
          },
          (err: unknown) => {
            if (err instanceof DataDirLockedError) return false;
            throw err;
          },
        ),
      (free) => free,
      { timeoutMs: 30_000, intervalMs: 100 },
    );
  };

  /** The bootstrap admin's client on a server process, logged in over HTTP. */
  const adminOf = async (server: ServerProcess) => {
    const res = await logIn(server, ADMIN);
    expect(res.status).toBe(200);
    return apiClient(server, { token: res.body.access_token });
  };

  const startScan = async (api: ApiClient) => {
    const res = await api.call(createScanRoute, {
      body: { target: '127.0.0.1', scan_type: 'quick', ports: '1', authorized: true },
    });
    expect(res.status).toBe(201);
    return res.body.id;
  };

  const attemptsOf = (deliveryId: string) =>
    receiver.received.filter((r) => r.headers['webhook-id'] === deliveryId);

  // About 25 s on PostgreSQL (mostly the killed attempt's claim) and 37 s on PGlite (creating the
  // data directory, then the killed process's lock going stale); the timeout leaves room for a busy machine.
  it('delivers an event whose attempt was in flight when the process was killed, once, after restart', async () => {
    // 1. First process: a webhook for scan.started, and a scan a runner picks up.
    const first = await start();
    const firstApi = await adminOf(first);
    const registration = { url: receiver.url, events: ['scan.started' as const] };
    const created = await firstApi.call(createWebhookRoute, { body: registration });
    expect(created.status).toBe(201);
    const hook = created.body;
    const firstScan = await startScan(firstApi);

    // 2. The receiver holds the attempt open; kill the process while it is in flight.
    const [inFlight] = await waitFor(
      async () => receiver.received,
      (r) => r.length > 0,
      { timeoutMs: 20_000, intervalMs: 20 },
    );
    const deliveryId = inFlight!.headers['webhook-id'] as string;
    expect(deliveryId).toMatch(/^whd_/);
    const killedPayload = new Webhook(hook.secret).verify(
      inFlight!.body,
      inFlight!.headers as Record<string, string>,
    ) as { type: string; data: { id: string } };
    expect(killedPayload).toMatchObject({ type: 'scan.started', data: { id: firstScan } });
    first.kill();
    expect(await first.exited).toBe('SIGKILL');

    // 3. Restart on the same database (on PGlite once the killed process's lock is stale).
    receiver.answer();
    await dataDirFree();
    const second = await start();
    const api = await adminOf(second);

    // The claim of the killed attempt protects it until its lease ends, then it is due again.
    const deliveries = (id: string) =>
      api
        .call(listDeliveriesRoute, { params: { webhook_id: hook.id } })
        .then((res) => okBody(res).items.find((d) => d.id === id));
    const delivered = await waitFor(
      () => deliveries(deliveryId),
      (d) => d?.status === 'succeeded',
      { timeoutMs: 30_000, intervalMs: 250 },
    );
    expect(delivered).toMatchObject({ status: 'succeeded', status_code: 204, attempts: 2 });

    const attempts = attemptsOf(deliveryId);
    expect(attempts).toHaveLength(2);
    const [killed, retried] = attempts as [ReceivedRequest, ReceivedRequest];
    expect(retried.body).toBe(killed.body);
    const payload = new Webhook(hook.secret).verify(retried.body, retried.headers as Record<string, string>);
    expect(payload).toEqual(killedPayload);
    // Not retried while the killed attempt could still have been running (its claim outlasts the timeout).
    expect(retried.at - killed.at).toBeGreaterThanOrEqual(DELIVERY_TIMEOUT_MS);

    // 4. Once succeeded it is not sent again: a later event is delivered by the same worker,
    //    and by then the recovered delivery still has exactly its two attempts.
    const laterScan = await startScan(api);
    const later = await waitFor(
      async () =>
        receiver.received.find((r) => (JSON.parse(r.body) as { data: { id: string } }).data.id === laterScan),
      (r) => r !== undefined,
      { timeoutMs: 20_000, intervalMs: 50 },
    );
    const laterId = later!.headers['webhook-id'] as string;
    expect(laterId).not.toBe(deliveryId);
    await waitFor(
      () => deliveries(laterId),
      (d) => d?.status === 'succeeded',
      { timeoutMs: 10_000, intervalMs: 100 },
    );
    expect(attemptsOf(deliveryId)).toHaveLength(2);
    expect(await deliveries(deliveryId)).toMatchObject({ status: 'succeeded', attempts: 2 });
  }, 90_000);
});
