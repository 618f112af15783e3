import { afterAll, describe, expect, it } from 'vitest';
import { reopenExpiredAcceptances } from '../../../server/findings/acceptance-expiry.ts';
import { deleteApiKey, postApiKey } from '../../../server/routes/api-keys.ts';
import { listAuditEventsRoute } from '../../../server/routes/audit-events.ts';
import { bulkUpdateFindingsRoute, updateFindingRoute } from '../../../server/routes/findings.ts';
import { putSlaRoute } from '../../../server/routes/settings.ts';
import {
  createWebhookRoute,
  deleteWebhookRoute,
  getWebhookRoute,
  redeliverRoute,
} from '../../../server/routes/webhooks.ts';
import { deliverDue } from '../../../server/webhooks/delivery.ts';
import { enqueueWebhookEvent } from '../../../server/webhooks/outbox.ts';
import { okBody, type ApiClient, type RouteInput } from '../../helpers/api-client.ts';
import { testEngine } from '../../helpers/database.ts';
import { detection, factory } from '../../helpers/factory.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../fixtures/webhook-receiver.ts';

/**
 * The audit trail of issue 31, item 10 (docs/security.md, "Audit trail"): risk acceptances
 * (given, revoked, lapsed), API keys made and revoked, triage policy changes, and webhooks
 * created, changed and deleted are audit events with actor, action, target, time and what
 * changed, never a secret; the trail filters by target as by actor and action.
 */
describe(`audit trail of triage, keys, settings and webhooks (${testEngine})`, () => {
  const suite = useTestApp({ env: { SCANWARD_WEBHOOK_ALLOW_PRIVATE: 'true' } });
  const receivers: WebhookReceiver[] = [];
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
  });

  const events = async (api: ApiClient, query: RouteInput<typeof listAuditEventsRoute>['query'] = {}) =>
    okBody(await api.call(listAuditEventsRoute, { query })).items;

  it('records accepting a risk, in PATCH and per finding of a bulk update, its revocation and its lapse', async () => {
    const t = await factory.tenant(suite.app, {
      findings: [detection({ target: 'a.example.test' }), detection({ target: 'b.example.test' })],
    });
    const [one, two] = t.summary!.new_finding_ids as [string, string];
    const expires = new Date(Date.now() + 86_400_000).toISOString();
    okBody(
      await t.api.call(updateFindingRoute, {
        params: { finding_id: one },
        body: { status: 'accepted', justification: 'behind the VPN', expires_at: expires },
      }),
    );
    const actor = { id: t.admin.id, email: t.admin.email };
    const [accepted] = await events(t.api, { action: 'risk.accepted' });
    expect(accepted).toMatchObject({
      actor,
      target: { id: one, email: null },
      details: { from: 'open', justification: 'behind the VPN', expires_at: expires },
    });
    expect(Date.parse(accepted!.created_at)).toBeGreaterThan(Date.now() - 60_000);

    okBody(
      await t.api.call(bulkUpdateFindingsRoute, {
        body: { finding_ids: [one, two], update: { status: 'accepted', notes: 'risk accepted' } },
      }),
    );
    const bulk = await events(t.api, { action: 'risk.accepted' });
    expect(bulk).toHaveLength(3);
    expect(
      bulk
        .slice(0, 2)
        .map((e) => [e.target?.id, e.details.from, e.details.justification])
        .sort(),
    ).toEqual(
      [
        [one, 'accepted', 'risk accepted'],
        [two, 'open', 'risk accepted'],
      ].sort(),
    );

    okBody(await t.api.call(updateFindingRoute, { params: { finding_id: one }, body: { status: 'open' } }));
    expect(await events(t.api, { action: 'risk.acceptance_revoked' })).toMatchObject([
      { actor, target: { id: one, email: null }, details: { to: 'open' } },
    ]);

    // An acceptance that lapses is the service's doing: no actor.
    okBody(
      await t.api.call(updateFindingRoute, {
        params: { finding_id: two },
        body: { status: 'accepted', notes: 'for a day', expires_at: expires },
      }),
    );
    const reopened = await reopenExpiredAcceptances(suite.db, new Date(Date.now() + 2 * 86_400_000));
    expect(reopened).toContain(two);
    expect(await events(t.api, { action: 'risk.acceptance_expired', target: two })).toMatchObject([
      { actor: null, target: { id: two, email: null }, details: { to: 'open' } },
    ]);
    // The target filter finds every event of one finding, newest first.
    expect((await events(t.api, { target: one })).map((e) => e.action)).toEqual([
      'risk.acceptance_revoked',
      'risk.accepted',
      'risk.accepted',
    ]);
  });

  it('records API keys made and revoked, with name, prefix and permissions but never the secret', async () => {
    const t = await factory.tenant(suite.app);
    const member = await t.addUser('member');
    const memberApi = await t.client(member);
    const created = okBody(
      await memberApi.call(postApiKey, { body: { name: 'deploy', permissions: ['read:scans'] } }),
      201,
    );
    okBody(await t.api.call(deleteApiKey, { params: { key_id: created.id } }));
    const trail = await events(t.api, { target: created.id });
    expect(trail).toMatchObject([
      {
        action: 'api_key.revoked',
        actor: { id: t.admin.id, email: t.admin.email },
        details: { name: 'deploy', prefix: created.prefix, owner_id: member.id },
      },
      {
        action: 'api_key.created',
        actor: { id: member.id, email: member.email },
        target: { id: created.id, email: null },
        details: { name: 'deploy', prefix: created.prefix, permissions: 'read:scans', expires_at: 'never' },
      },
    ]);
    expect(JSON.stringify(trail)).not.toContain(created.key);
    // Filters combine: the member's doings only.
    expect((await events(t.api, { actor: member.email })).map((e) => e.action)).toEqual(['api_key.created']);
  });

  it('records a change of the triage policy with each changed field before and after, and nothing for no change', async () => {
    const t = await factory.tenant(suite.app);
    const policy = { critical: 7, high: 30, medium: 90, low: 180 };
    okBody(await t.api.call(putSlaRoute, { body: policy }));
    expect(await events(t.api, { action: 'settings.sla_changed' })).toEqual([]);
    okBody(await t.api.call(putSlaRoute, { body: { ...policy, high: 14, require_justification: true } }));
    expect(await events(t.api, { action: 'settings.sla_changed' })).toMatchObject([
      {
        actor: { id: t.admin.id, email: t.admin.email },
        target: null,
        details: { high: '30 → 14', require_justification: 'false → true' },
      },
    ]);
    const [changed] = await events(t.api, { action: 'settings.sla_changed' });
    expect(Object.keys(changed!.details).sort()).toEqual(['high', 'require_justification']);
  });

  it('records webhooks created, disabled, re-enabled and deleted, by host and events, never the secret or the path', async () => {
    const t = await factory.tenant(suite.app);
    const receiver = await startWebhookReceiver({ status: 200 });
    receivers.push(receiver);
    const url = `${receiver.url}/hooks/T0KEN-in-the-path`;
    const hook = okBody(
      await t.api.call(createWebhookRoute, { body: { url, events: ['scan.completed'] } }),
      201,
    );
    const host = new URL(receiver.url).host;
    const [deliveryId] = await enqueueWebhookEvent(suite.db, t.orgId, 'scan.completed', {});
    receiver.statuses.push(410);
    await deliverDue(suite.app.services);
    expect(okBody(await t.api.call(getWebhookRoute, { params: { webhook_id: hook.id } })).active).toBe(false);
    okBody(await t.api.call(redeliverRoute, { params: { webhook_id: hook.id, delivery_id: deliveryId! } }));
    okBody(await t.api.call(deleteWebhookRoute, { params: { webhook_id: hook.id } }));

    const actor = { id: t.admin.id, email: t.admin.email };
    const trail = await events(t.api, { target: hook.id });
    expect(trail).toMatchObject([
      { action: 'webhook.deleted', actor, details: { host, events: 'scan.completed' } },
      { action: 'webhook.updated', actor, details: { host, active: 'false → true' } },
      {
        action: 'webhook.updated',
        actor: null,
        details: { host, active: 'true → false', reason: 'the receiver answered 410 Gone' },
      },
      {
        action: 'webhook.created',
        actor,
        target: { id: hook.id, email: null },
        details: { host, events: 'scan.completed', secret: 'generated' },
      },
    ]);
    const text = JSON.stringify(trail);
    expect(text).not.toContain(hook.secret);
    expect(text).not.toContain('T0KEN');
  });

  it('keeps every event to its organization', async () => {
    const t = await factory.tenant(suite.app, { findings: [detection()] });
    const other = await factory.tenant(suite.app);
    const id = t.summary!.new_finding_ids[0]!;
    okBody(
      await t.api.call(updateFindingRoute, { params: { finding_id: id }, body: { status: 'accepted' } }),
    );
    expect(await events(t.api, { target: id })).toHaveLength(1);
    expect(await events(other.api, { target: id })).toEqual([]);
    expect(await events(other.api)).toEqual([]);
  });
});
