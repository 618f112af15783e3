import { createHmac } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { deliverNotifications } from '../../../server/notifications/delivery.ts';
import { announceSlaBreaches } from '../../../server/findings/sla-breaches.ts';
import { createFindingTicketRoute } from '../../../server/routes/finding-tickets.ts';
import { getFindingRoute, updateFindingRoute } from '../../../server/routes/findings.ts';
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
import { expectError, okBody, type ApiClient } from '../../helpers/api-client.ts';
import { testEngine } from '../../helpers/database.ts';
import { coverageOf, detection, factory, runScan, type BuiltTenant } from '../../helpers/factory.ts';
import { appendEvent } from '../../../server/events/outbox.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import {
  startChatFake,
  startGithubFake,
  startJiraFake,
  type Fake,
  type JiraFake,
} from '../../fixtures/notification-fakes.ts';

/**
 * Integrations, rules and tickets against loopback fakes of Slack, Teams, GitHub and Jira
 * (issue 35, docs/integrations.md): one chat message per new critical finding, retried after a
 * 500 and never sent twice, dead letters listed; tickets opened, closed and reopened with the
 * findings, and findings moved by signed tracker events only; secrets in no answer or log.
 */

const PUBLIC_URL = 'https://scanward.example.test';
const GITHUB_TOKEN = 'ghp_secret-token-never-shown-0001';
const JIRA_TOKEN = 'jira-api-token-never-shown-0002';
const SLACK_PATH = '/services/T000/B000/slack-secret-path-0003';

const sign = (secret: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

describe(`integrations (${testEngine})`, () => {
  const fakes: Fake[] = [];
  const suite = useTestApp({
    captureLogs: true,
    env: { SCANWARD_WEBHOOK_ALLOW_PRIVATE: 'true', SCANWARD_PUBLIC_URL: PUBLIC_URL },
  });
  afterAll(async () => {
    await Promise.all(fakes.map((f) => f.close()));
  });
  const keep = <T extends Fake>(fake: T) => {
    fakes.push(fake);
    return fake;
  };
  /** One pass of the notification worker, `secondsLater` from now (retries come due). */
  const deliver = (secondsLater = 0) =>
    deliverNotifications(suite.app.services, { now: new Date(Date.now() + secondsLater * 1000) });
  const findingStatus = async (api: ApiClient, id: string) =>
    okBody(await api.call(getFindingRoute, { params: { finding_id: id } })).status;

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

  async function githubSetup(t: BuiltTenant) {
    const github = keep(await startGithubFake(GITHUB_TOKEN, 'acme/web'));
    const integration = okBody(
      await t.api.call(createIntegrationRoute, {
        body: {
          type: 'github',
          name: 'acme-web',
          config: { repository: 'acme/web', token: GITHUB_TOKEN, api_url: github.url },
        },
      }),
      201,
    );
    return { github, integration, secret: integration.receiver_secret! };
  }

  it('opens a GitHub issue for a finding, closes and reopens it with the finding, and moves the finding on signed events only', async () => {
    const { app } = suite;
    const t = await factory.tenant(app, {
      findings: [detection({ severity: 'high', title: 'Ticketed weakness', target: 'gh.example.test' })],
    });
    const findingId = t.summary!.new_finding_ids[0]!;
    const { github, integration, secret } = await githubSetup(t);
    expect(integration.receiver_url).toBe(`${PUBLIC_URL}/api/v1/integrations/${integration.id}/events`);
    expect(JSON.stringify(integration)).not.toContain(GITHUB_TOKEN);

    const opened = okBody(
      await t.api.call(createFindingTicketRoute, {
        params: { finding_id: findingId },
        body: { integration_id: integration.id },
      }),
      201,
    );
    expect(opened.tickets).toEqual([
      {
        integration_id: integration.id,
        key: '#1',
        url: 'https://github.example/acme/web/issues/1',
        state: 'open',
      },
    ]);
    const issue = github.issues.get(1)!;
    expect(issue.title).toContain('Ticketed weakness');
    expect(issue.body).toContain('**Severity:** high');
    expect(issue.body).toContain(`${PUBLIC_URL}/findings/${findingId}`);
    // Asked again: still one issue.
    await t.api.call(createFindingTicketRoute, {
      params: { finding_id: findingId },
      body: { integration_id: integration.id },
    });
    expect(github.issues.size).toBe(1);

    // Resolved in Scanward: closed in GitHub with a comment; reopened: reopened.
    okBody(
      await t.api.call(updateFindingRoute, {
        params: { finding_id: findingId },
        body: { status: 'resolved' },
      }),
    );
    await deliver();
    expect(issue).toMatchObject({ state: 'closed', state_reason: 'completed' });
    expect(issue.comments.at(-1)).toMatch(/resolved/);
    okBody(
      await t.api.call(updateFindingRoute, { params: { finding_id: findingId }, body: { status: 'open' } }),
    );
    await deliver();
    expect(issue.state).toBe('open');
    expect(issue.comments).toHaveLength(2);

    // Tracker events: unsigned and forged ones are 401 and change nothing.
    const closed = JSON.stringify({
      action: 'closed',
      issue: { number: 1 },
      repository: { full_name: 'acme/web' },
    });
    const send = (body: string, signature?: string) =>
      app.request(`/api/v1/integrations/${integration.id}/events`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-github-event': 'issues',
          ...(signature ? { 'x-hub-signature-256': signature } : {}),
        },
        body,
      });
    await expectError(await send(closed), 401, 'INVALID_TOKEN');
    await expectError(await send(closed, sign('not-the-secret', closed)), 401, 'INVALID_TOKEN');
    await expectError(await send(closed, sign(secret, closed.replace('1', '2'))), 401, 'INVALID_TOKEN');
    expect(await findingStatus(t.api, findingId)).toBe('open');

    const moved = await send(closed, sign(secret, closed));
    expect(moved.status).toBe(200);
    expect(await findingStatus(t.api, findingId)).toBe('resolved');
    const patchesBefore = github.received.filter((r) => r.method === 'PATCH').length;
    await deliver();
    // The tracker closed it: Scanward does not close it again.
    expect(github.received.filter((r) => r.method === 'PATCH').length).toBe(patchesBefore);
    const reopened = closed.replace('"closed"', '"reopened"');
    expect((await send(reopened, sign(secret, reopened))).status).toBe(200);
    expect(await findingStatus(t.api, findingId)).toBe('open');
    const detail = okBody(await t.api.call(getFindingRoute, { params: { finding_id: findingId } }));
    expect(detail.tickets).toMatchObject([{ key: '#1', state: 'open' }]);

    expect(app.rawLogs()).not.toContain(GITHUB_TOKEN);
    expect(app.rawLogs()).not.toContain(secret);
  });

  it('closes the ticket of a finding a completed scan resolved', async () => {
    const { app } = suite;
    const seen = detection({ severity: 'medium', title: 'Fixed by deploy', target: 'fixed.example.test' });
    const t = await factory.tenant(app, { findings: [seen] });
    const findingId = t.summary!.new_finding_ids[0]!;
    const { github, integration } = await githubSetup(t);
    okBody(
      await t.api.call(createFindingTicketRoute, {
        params: { finding_id: findingId },
        body: { integration_id: integration.id },
      }),
      201,
    );
    // The next scan covers the weakness and no longer finds it; its completion is announced.
    const { scan } = await runScan(app.services.db, t.orgId, [], { extraCoverage: coverageOf([seen]) });
    expect(await findingStatus(t.api, findingId)).toBe('resolved');
    await app.services.db.transaction((trx) =>
      appendEvent(trx, t.orgId, { type: 'scan.completed', subjectId: scan.id, data: { id: scan.id } }),
    );
    await deliver();
    expect(github.issues.get(1)).toMatchObject({ state: 'closed', state_reason: 'completed' });
    expect(github.issues.get(1)!.comments.at(-1)).toMatch(/no longer finds it/);
    await deliver();
    expect(github.received.filter((r) => r.method === 'PATCH')).toHaveLength(1);
  });

  async function jiraTenant(cloud: boolean) {
    const t = await factory.tenant(suite.app);
    const jira: JiraFake = keep(
      await startJiraFake(
        cloud ? { cloud, email: 'bot@example.test', token: JIRA_TOKEN } : { cloud, token: JIRA_TOKEN },
      ),
    );
    const integration = okBody(
      await t.api.call(createIntegrationRoute, {
        body: {
          type: 'jira',
          name: cloud ? 'jira-cloud' : 'jira-dc',
          config: {
            base_url: jira.url,
            ...(cloud ? { email: 'bot@example.test' } : {}),
            api_token: JIRA_TOKEN,
            project_key: 'SEC',
            issue_type: 'Bug',
          },
        },
      }),
      201,
    );
    return { t, jira, integration };
  }

  it('opens Jira Cloud tickets by rule with ADF descriptions, moves them to done and back, and hears signed Jira events', async () => {
    const { app } = suite;
    const { t, jira, integration } = await jiraTenant(true);
    okBody(
      await t.api.call(createNotificationRuleRoute, {
        body: {
          integration_id: integration.id,
          events: ['vulnerability.found'],
          min_severity: 'high',
          action: 'ticket',
        },
      }),
      201,
    );
    jira.failures.push(500);
    const { summary } = await runScan(app.services.db, t.orgId, [
      detection({ severity: 'critical', title: 'Jira critical', target: 'jira.example.test' }),
      detection({ severity: 'low', title: 'Jira low', target: 'jira.example.test' }),
    ]);
    await deliver();
    await deliver(10);
    expect(jira.issues.size).toBe(1);
    const issue = jira.issues.get('SEC-1')!;
    expect(issue.fields).toMatchObject({
      summary: expect.stringContaining('Jira critical'),
      issuetype: { name: 'Bug' },
    });
    expect(JSON.stringify(issue.fields.description)).toContain(`${PUBLIC_URL}/findings/`);
    let findingId = '';
    for (const id of summary.new_finding_ids) {
      const f = okBody(await t.api.call(getFindingRoute, { params: { finding_id: id } }));
      if (f.tickets?.length) findingId = id;
    }
    expect(findingId).not.toBe('');

    okBody(
      await t.api.call(updateFindingRoute, {
        params: { finding_id: findingId },
        body: { status: 'false_positive', justification: 'not reachable from outside' },
      }),
    );
    await deliver();
    expect(issue.status).toBe('Done');
    expect(JSON.stringify(issue.comments.at(-1))).toContain('false positive');
    okBody(
      await t.api.call(updateFindingRoute, { params: { finding_id: findingId }, body: { status: 'open' } }),
    );
    await deliver();
    expect(issue.status).toBe('To Do');

    const event = (category: string) =>
      JSON.stringify({
        webhookEvent: 'jira:issue_updated',
        issue: {
          id: issue.id,
          key: 'SEC-1',
          fields: { status: { name: 'x', statusCategory: { key: category } } },
        },
      });
    const send = (body: string, signature?: string) =>
      app.request(`/api/v1/integrations/${integration.id}/events`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(signature ? { 'x-hub-signature': signature } : {}),
        },
        body,
      });
    await expectError(await send(event('done')), 401, 'INVALID_TOKEN');
    expect(await findingStatus(t.api, findingId)).toBe('open');
    // The secret was shown once, at creation; signed with it, the event moves the finding.
    const secret = integration.receiver_secret!;
    expect((await send(event('done'), sign(secret, event('done')))).status).toBe(200);
    expect(await findingStatus(t.api, findingId)).toBe('resolved');
    expect((await send(event('new'), sign(secret, event('new')))).status).toBe(200);
    expect(await findingStatus(t.api, findingId)).toBe('open');
    expect(app.rawLogs()).not.toContain(JIRA_TOKEN);
  });

  it('opens Jira Server tickets through REST v2 with a personal token', async () => {
    const { t, jira, integration } = await jiraTenant(false);
    const { summary } = await runScan(suite.app.services.db, t.orgId, [
      detection({ severity: 'medium', title: 'Jira DC thing', target: 'dc.example.test' }),
    ]);
    const opened = okBody(
      await t.api.call(createFindingTicketRoute, {
        params: { finding_id: summary.new_finding_ids[0]! },
        body: { integration_id: integration.id },
      }),
      201,
    );
    expect(opened.tickets).toMatchObject([{ key: 'SEC-1', url: `${jira.url}/browse/SEC-1`, state: 'open' }]);
    expect(typeof jira.issues.get('SEC-1')!.fields.description).toBe('string');
    expect(jira.received[0]!.path).toBe('/rest/api/2/issue');
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
