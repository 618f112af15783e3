import { describe, expect, it } from 'vitest';
import { announceSlaBreaches } from '../../../server/findings/sla-breaches.ts';
import { updateFindingRoute } from '../../../server/routes/findings.ts';
import { listAuditEventsRoute } from '../../../server/routes/audit-events.ts';
import {
  createIntegrationRoute,
  deleteIntegrationRoute,
  getIntegrationRoute,
  listIntegrationsRoute,
  testIntegrationRoute,
  updateIntegrationRoute,
} from '../../../server/routes/integrations.ts';
import {
  createNotificationRuleRoute,
  listNotificationDeliveriesRoute,
  retryNotificationDeliveryRoute,
} from '../../../server/routes/notifications.ts';
import { expectError, okBody } from '../../helpers/api-client.ts';
import { testEngine } from '../../helpers/database.ts';
import { detection, factory, runScan } from '../../helpers/factory.ts';
import { startChatFake } from '../../fixtures/notification-fakes.ts';

import { PUBLIC_URL, SLACK_PATH, useIntegrations } from './integrations-kit.ts';

/**
 * Integrations and rules against loopback fakes of Slack and Teams (issue 35,
 * docs/integrations.md): one chat message per new critical finding, retried after a 500 and
 * never sent twice, dead letters listed and sent again; configs refused and changes audited;
 * SLA breaches announced once; secrets in no answer or log. Trackers: trackers.test.ts.
 */

describe(`integrations: chat messages and rules (${testEngine})`, () => {
  const { suite, keep, deliver } = useIntegrations();

  it('posts one Slack and one Teams message per new critical finding, retrying a 500, never twice', async () => {
    const { app } = suite;
    const t = await factory.tenant(app);
    const slack = keep(await startChatFake('slack'));
    const teams = keep(await startChatFake('teams'));
    const slackHook = okBody(
      await t.api.call(createIntegrationRoute, {
        body: { type: 'slack', name: 'sec-alerts', config: { webhook_url: `${slack.url}${SLACK_PATH}` } },
      }),
      201,
    );
    expect(slackHook.secrets_set).toEqual(['webhook_url']);
    expect(JSON.stringify(slackHook)).not.toContain('slack-secret-path');
    expect(slackHook.receiver_secret).toBeNull();
    const teamsHook = okBody(
      await t.api.call(createIntegrationRoute, {
        body: { type: 'teams', name: 'sec-teams', config: { webhook_url: `${teams.url}/webhookb2/x` } },
      }),
      201,
    );
    for (const integration of [slackHook, teamsHook]) {
      okBody(
        await t.api.call(createNotificationRuleRoute, {
          body: { integration_id: integration.id, events: ['vulnerability.found'], min_severity: 'critical' },
        }),
        201,
      );
    }
    slack.failures.push(500);

    const { summary } = await runScan(app.services.db, t.orgId, [
      detection({ severity: 'critical', title: 'Critical thing', target: 'chat.example.test' }),
      detection({ severity: 'high', title: 'High thing', target: 'chat.example.test' }),
    ]);
    expect(summary.new_finding_ids).toHaveLength(2);
    await deliver();
    // Slack answered 500 the first time: queued for a retry; Teams got its card.
    expect(slack.received).toHaveLength(1);
    expect(teams.received).toHaveLength(1);
    const pending = okBody(
      await t.api.call(listNotificationDeliveriesRoute, { query: { integration_id: slackHook.id } }),
    ).items;
    expect(pending).toMatchObject([{ status: 'pending', attempts: 1, status_code: 500 }]);
    expect(pending[0]!.next_retry_at).not.toBeNull();

    await deliver(10);
    await deliver(3600);
    expect(slack.received).toHaveLength(2);
    expect(teams.received).toHaveLength(1);
    const message = slack.received[1]!.json as { text: string; blocks: Array<{ type: string }> };
    expect(slack.received[1]!.path).toBe(SLACK_PATH);
    expect(message.text).toContain('Critical thing');
    expect(message.text).not.toContain('High thing');
    expect(message.text).toMatch(new RegExp(`${PUBLIC_URL}/findings/finding_`));
    expect(message.blocks.map((b) => b.type)).toEqual(['section', 'section', 'actions']);
    const card = teams.received[0]!.json as {
      type: string;
      attachments: Array<{ contentType: string; content: { type: string; body: Array<{ text?: string }> } }>;
    };
    expect(card.type).toBe('message');
    expect(card.attachments[0]!.contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(card.attachments[0]!.content.type).toBe('AdaptiveCard');
    expect(card.attachments[0]!.content.body[0]!.text).toContain('Critical thing');
    expect(
      okBody(await t.api.call(listNotificationDeliveriesRoute, { query: { integration_id: slackHook.id } }))
        .items,
    ).toMatchObject([{ status: 'succeeded', attempts: 2 }]);

    // Another organization's integration and deliveries look like missing ones.
    const other = await factory.tenant(app);
    await expectError(
      await other.api.call(getIntegrationRoute, { params: { integration_id: slackHook.id } }),
      404,
      'NOT_FOUND',
    );
    expect(okBody(await other.api.call(listNotificationDeliveriesRoute, { query: {} })).items).toHaveLength(
      0,
    );
    await runScan(app.services.db, other.orgId, [
      detection({ severity: 'critical', title: 'Other org thing' }),
    ]);
    await deliver(7200);
    expect(slack.received).toHaveLength(2);
    expect(JSON.stringify(okBody(await t.api.call(listIntegrationsRoute, { query: {} })))).not.toContain(
      'slack-secret-path',
    );
  });

  it('lists a delivery that keeps failing as dead, and sends it again when asked', async () => {
    const t = await factory.tenant(suite.app);
    const teams = keep(await startChatFake('teams'));
    const hook = okBody(
      await t.api.call(createIntegrationRoute, {
        body: { type: 'teams', name: 'gone', config: { webhook_url: `${teams.url}/hook` } },
      }),
      201,
    );
    teams.failures.push(404);
    const test = okBody(await t.api.call(testIntegrationRoute, { params: { integration_id: hook.id } }));
    expect(test).toMatchObject({ status: 'dead', status_code: 404, kind: 'integration.test' });
    const dead = okBody(
      await t.api.call(listNotificationDeliveriesRoute, { query: { status: 'dead' } }),
    ).items;
    expect(dead.map((d) => d.id)).toEqual([test.id]);
    okBody(await t.api.call(retryNotificationDeliveryRoute, { params: { message_id: test.id } }));
    await deliver();
    expect(teams.received).toHaveLength(2);
    expect(
      okBody(await t.api.call(listNotificationDeliveriesRoute, { query: { status: 'dead' } })).items,
    ).toHaveLength(0);
  });

  it('refuses integrations to members, bad configs and addresses the policy forbids, and audits changes', async () => {
    const t = await factory.tenant(suite.app);
    const member = await t.client(await t.addUser('member'));
    await expectError(
      await member.call(createIntegrationRoute, {
        body: { type: 'slack', name: 'x', config: { webhook_url: 'https://hooks.slack.example/x' } },
      }),
      403,
      'INSUFFICIENT_PERMISSION',
    );
    await expectError(
      await t.api.call(createIntegrationRoute, {
        body: { type: 'github', name: 'gh', config: { repository: 'nope' } },
      }),
      422,
      'VALIDATION_ERROR',
      'config.repository',
    );
    await expectError(
      await t.api.call(createIntegrationRoute, {
        body: { type: 'slack', name: 'meta', config: { webhook_url: 'http://169.254.169.254/latest' } },
      }),
      422,
      'VALIDATION_ERROR',
      'config.webhook_url',
    );
    const made = okBody(
      await t.api.call(createIntegrationRoute, {
        body: { type: 'email', name: 'mail', config: { to: ['security@example.test'] } },
      }),
      201,
    );
    okBody(
      await t.api.call(updateIntegrationRoute, {
        params: { integration_id: made.id },
        body: { config: { to: ['sec2@example.test'] } },
      }),
    );
    okBody(await t.api.call(deleteIntegrationRoute, { params: { integration_id: made.id } }));
    const actions = okBody(await t.api.call(listAuditEventsRoute, { query: {} })).items.map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(['integration.created', 'integration.updated', 'integration.deleted']),
    );
  });

  it('announces a finding past its due date once as sla.breached to the rules that ask for it', async () => {
    const { app } = suite;
    const t = await factory.tenant(app, {
      findings: [detection({ severity: 'high', title: 'Late finding', target: 'sla.example.test' })],
    });
    const findingId = t.summary!.new_finding_ids[0]!;
    const slack = keep(await startChatFake('slack'));
    const hook = okBody(
      await t.api.call(createIntegrationRoute, {
        body: { type: 'slack', name: 'sla', config: { webhook_url: `${slack.url}/hook` } },
      }),
      201,
    );
    okBody(
      await t.api.call(createNotificationRuleRoute, {
        body: { integration_id: hook.id, events: ['sla.breached'] },
      }),
      201,
    );
    okBody(
      await t.api.call(updateFindingRoute, {
        params: { finding_id: findingId },
        body: { due_date: new Date(Date.now() - 3600_000).toISOString() },
      }),
    );
    await announceSlaBreaches(app.services.db);
    await announceSlaBreaches(app.services.db);
    await deliver();
    expect(slack.received).toHaveLength(1);
    expect((slack.received[0]!.json as { text: string }).text).toContain('SLA missed: Late finding');
  });
});
