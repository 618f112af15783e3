import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { deliverDue, RETRY_DELAYS_SECONDS } from '../../../server/webhooks/delivery.ts';
import { enqueueWebhookEvent } from '../../../server/webhooks/outbox.ts';
import { findDelivery } from '../../../server/webhooks/webhook-deliveries.repository.ts';
import { findWebhook } from '../../../server/webhooks/webhooks.repository.ts';
import {
  createWebhookRoute,
  deleteWebhookRoute,
  getWebhookRoute,
  listDeliveriesRoute,
  listWebhooksRoute,
  redeliverRoute,
} from '../../../server/routes/webhooks.ts';
import type { WebhookEventName as EventSchema } from '../../../server/schemas/webhooks.ts';
import { apiClient, expectError, okBody, type ApiClient } from '../../helpers/api-client.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { factory } from '../../helpers/factory.ts';
import { testEngine } from '../../helpers/database.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../fixtures/webhook-receiver.ts';

// Each test has a tenant and a receiver of its own: a receiver's queued answers (500, then 200)
// go to the deliveries of the test that queued them, whatever ran before.
type WebhookEventName = z.infer<typeof EventSchema>;

describe(`webhooks (${testEngine})`, () => {
  let app: TestApp;
  const receivers: WebhookReceiver[] = [];

  /** A tenant of its own, its admin's client, and a receiver of its own answering 200. */
  const setup = async () => {
    const tenant = await factory.tenant(app, { plan: 'professional' });
    const receiver = await startWebhookReceiver({ status: 200 });
    receivers.push(receiver);
    return { tenant, api: tenant.api, receiver };
  };
  const register = (api: ApiClient, body: { url: string; events: WebhookEventName[]; secret?: string }) =>
    api.call(createWebhookRoute, { body });

  /** A tenant and receiver of its own with one webhook. */
  const isolatedHook = async (path: string, events: WebhookEventName[]) => {
    const { tenant, api, receiver } = await setup();
    const hook = okBody(await register(api, { url: receiver.url + path, events }), 201);
    return { id: hook.id, secret: hook.secret, orgId: tenant.orgId, api, receiver };
  };

  const suite = useTestApp({ env: { SCANWARD_WEBHOOK_ALLOW_PRIVATE: 'true' } });
  beforeAll(() => {
    app = suite.app;
  });
  // Closed once every test has run: a later test's delivery run may still send a delivery left pending.
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
  });

  it('registers a webhook and shows its generated secret once', async () => {
    const { tenant, api, receiver } = await setup();
    const res = await register(api, {
      url: `${receiver.url}?a=1`,
      events: ['scan.completed', 'vulnerability.found'],
    });
    expect(res.status).toBe(201);
    const hook = res.body;
    expect(hook).toMatchObject({
      url: `${receiver.url}?a=1`,
      events: ['scan.completed', 'vulnerability.found'],
      active: true,
    });
    expect(hook.id).toMatch(/^wh_/);
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);

    const got = okBody(await api.call(getWebhookRoute, { params: { webhook_id: hook.id } }));
    expect(got).not.toHaveProperty('secret');
    const list = okBody(await api.call(listWebhooksRoute));
    expect(list.items.map((w) => w.id)).toContain(hook.id);
    expect(list.items.every((w) => !('secret' in w))).toBe(true);

    // Storage itself: the secret is sealed at rest.
    const stored = (await findWebhook(app.services.db, tenant.orgId, hook.id))!;
    expect(stored.secret).not.toContain(hook.secret);
  });

  it('refuses unknown events, bad secrets, non-http URLs and a duplicate URL', async () => {
    const { api, receiver } = await setup();
    // An event the contract does not name: sent as it is, past the route's input type.
    const badEvent = await api.call(createWebhookRoute, {
      body: {
        url: receiver.url + '/x',
        events: ['scan.started', 'scan.deleted'],
      } as never,
    });
    expect(badEvent.status).toBe(422);
    expect(badEvent.body).toMatchObject({ error_code: 'VALIDATION_ERROR', field: 'events' });

    const badSecret = await register(api, {
      url: receiver.url + '/y',
      events: ['scan.failed'],
      secret: 'whsec_c2hvcnQ=',
    });
    expect(badSecret.status).toBe(422);
    expect(badSecret.body).toMatchObject({ error_code: 'VALIDATION_ERROR', field: 'secret' });

    const ftp = await register(api, { url: 'ftp://127.0.0.1/hook', events: ['scan.failed'] });
    expect(ftp.status).toBe(422);
    expect(ftp.body).toMatchObject({ field: 'url' });

    const first = await register(api, { url: receiver.url + '/dup', events: ['scan.failed'] });
    expect(first.status).toBe(201);
    const again = await register(api, { url: receiver.url + '/dup', events: ['scan.started'] });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error_code: 'CONFLICT' });
  });

  it('accepts a supplied secret of the Standard Webhooks form', async () => {
    const { api, receiver } = await setup();
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const res = await register(api, { url: receiver.url + '/own', events: ['scan.started'], secret });
    expect(res.status).toBe(201);
    expect(res.body.secret).toBe(secret);
  });

  it('delivers a signed event that the standardwebhooks package verifies', async () => {
    const created = await isolatedHook('/signed', ['scan.started']);
    const { receiver } = created;
    const [deliveryId] = await enqueueWebhookEvent(app.services.db, created.orgId, 'scan.started', {
      id: 'scan_x',
    });
    await deliverDue(app.services);
    const got = receiver.received.find((r) => r.headers['webhook-id'] === deliveryId);
    expect(got).toBeDefined();
    const payload = new Webhook(created.secret).verify(got!.body, got!.headers as Record<string, string>) as {
      type: string;
      data: { id: string };
    };
    expect(payload.type).toBe('scan.started');
    expect(payload.data.id).toBe('scan_x');

    const log = okBody(await created.api.call(listDeliveriesRoute, { params: { webhook_id: created.id } }));
    expect(log.items[0]).toMatchObject({
      id: deliveryId,
      status: 'succeeded',
      status_code: 200,
      attempts: 1,
    });
  });

  it('retries a failing receiver with the same webhook-id until it recovers', async () => {
    const created = await isolatedHook('/flaky', ['scan.failed']);
    const { receiver } = created;
    const [deliveryId] = await enqueueWebhookEvent(app.services.db, created.orgId, 'scan.failed', {
      id: 'scan_y',
    });
    receiver.statuses.push(500);
    const t0 = new Date();
    await deliverDue(app.services, { now: t0 });
    const failed = (await findDelivery(app.services.db, created.orgId, deliveryId!))!;
    expect(failed).toMatchObject({ status: 'pending', attempts: 1, last_status_code: 500 });
    expect(failed.next_attempt_at!.getTime()).toBeGreaterThanOrEqual(
      t0.getTime() + RETRY_DELAYS_SECONDS[0]! * 1000,
    );

    // Not yet due: nothing is sent.
    const before = receiver.received.length;
    await deliverDue(app.services, { now: new Date(t0.getTime() + 1000) });
    expect(receiver.received.length).toBe(before);

    await deliverDue(app.services, { now: new Date(failed.next_attempt_at!.getTime() + 1) });
    const attempts = receiver.received.filter((r) => r.headers['webhook-id'] === deliveryId);
    expect(attempts).toHaveLength(2);
    for (const a of attempts) new Webhook(created.secret).verify(a.body, a.headers as Record<string, string>);
    const done = (await findDelivery(app.services.db, created.orgId, deliveryId!))!;
    expect(done.status).toBe('succeeded');
  });

  it('gives up after the last retry and marks the delivery failed', async () => {
    const created = await isolatedHook('/down', ['vulnerability.critical']);
    const { receiver } = created;
    const [deliveryId] = await enqueueWebhookEvent(
      app.services.db,
      created.orgId,
      'vulnerability.critical',
      {},
    );
    let now = new Date();
    for (let i = 0; i <= RETRY_DELAYS_SECONDS.length; i++) {
      receiver.statuses.push(503);
      await deliverDue(app.services, { now });
      const row = (await findDelivery(app.services.db, created.orgId, deliveryId!))!;
      now = new Date((row.next_attempt_at ?? now).getTime() + 1);
    }
    const row = (await findDelivery(app.services.db, created.orgId, deliveryId!))!;
    expect(row).toMatchObject({ status: 'failed', attempts: RETRY_DELAYS_SECONDS.length + 1 });
  });

  it('disables a webhook whose receiver answers 410 Gone, and redelivery re-enables it', async () => {
    const created = await isolatedHook('/gone', ['scan.completed']);
    const { receiver } = created;
    const [deliveryId] = await enqueueWebhookEvent(app.services.db, created.orgId, 'scan.completed', {});
    receiver.statuses.push(410);
    await deliverDue(app.services);
    const hook = okBody(await created.api.call(getWebhookRoute, { params: { webhook_id: created.id } }));
    expect(hook).toMatchObject({ active: false, disabled_reason: 'the receiver answered 410 Gone' });

    const params = { webhook_id: created.id, delivery_id: deliveryId! };
    const res = await created.api.call(redeliverRoute, { params });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: deliveryId, status: 'pending' });
    await deliverDue(app.services);
    const after = (await findDelivery(app.services.db, created.orgId, deliveryId!))!;
    expect(after.status).toBe('succeeded');
  });

  it('refuses receivers on loopback or private addresses unless the operator allows them', async () => {
    const { receiver } = await setup();
    const strict = await startTestApp();
    try {
      const t = await factory.tenant(strict);
      const api = await t.client();
      // The receiver itself, then IPv4-compatible, IPv4-mapped and NAT64 forms of loopback.
      const port = new URL(receiver.url).port;
      for (const host of ['127.0.0.1', '[::127.0.0.1]', '[::ffff:127.0.0.1]', '[64:ff9b::7f00:1]']) {
        const res = await register(api, { url: `http://${host}:${port}/hook`, events: ['scan.started'] });
        await expectError(res, 422, 'VALIDATION_ERROR', 'url');
      }
      expect(okBody(await api.call(listWebhooksRoute)).items).toEqual([]);
    } finally {
      await strict.close();
    }
  });

  it('refuses a cloud metadata address even when private receivers are allowed', async () => {
    const { api } = await setup();
    const res = await register(api, {
      url: 'http://169.254.169.254/latest/meta-data/',
      events: ['scan.started'],
    });
    const body = await expectError(res, 422, 'VALIDATION_ERROR', 'url');
    expect(body.detail).toContain('cloud metadata');
  });

  it('lets only admins with a bearer token manage webhooks', async () => {
    const { tenant } = await setup();
    const member = await tenant.addUser('member');
    const res = await (await tenant.client(member)).call(listWebhooksRoute);
    await expectError(res, 403, 'INSUFFICIENT_PERMISSION');
  });

  it("answers 404 for another organization's webhooks and deliveries, changing nothing", async () => {
    const { tenant, api, receiver } = await setup();
    const created = okBody(
      await register(api, { url: receiver.url + '/mine', events: ['scan.started'] }),
      201,
    );
    const [deliveryId] = await enqueueWebhookEvent(app.services.db, tenant.orgId, 'scan.started', {});
    const other = await factory.tenant(app);
    const otherToken = await other.bearer();
    const attempts: [string, string][] = [
      ['GET', `/api/v1/webhooks/${created.id}`],
      ['GET', `/api/v1/webhooks/${created.id}/deliveries`],
      ['POST', `/api/v1/webhooks/${created.id}/deliveries/${deliveryId!}/redeliver`],
      ['DELETE', `/api/v1/webhooks/${created.id}`],
    ];
    for (const [method, path] of attempts) {
      const res = await apiClient(app, { token: otherToken }).send(method, path);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toMatchObject({ error_code: 'NOT_FOUND' });
    }
    const webhook = { params: { webhook_id: created.id } };
    expect(okBody(await api.call(getWebhookRoute, webhook))).toMatchObject({ id: created.id, active: true });
    const log = okBody(await api.call(listDeliveriesRoute, webhook));
    expect(log.items).toEqual([expect.objectContaining({ id: deliveryId, status: 'pending', attempts: 0 })]);

    const del = await api.call(deleteWebhookRoute, webhook);
    expect(del.body).toEqual({ id: created.id, deleted: true });
    expect((await api.call(getWebhookRoute, webhook)).status).toBe(404);
  });
});
