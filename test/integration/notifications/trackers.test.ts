import { describe, expect, it } from 'vitest';
import { createFindingTicketRoute } from '../../../server/routes/finding-tickets.ts';
import { getFindingRoute, updateFindingRoute } from '../../../server/routes/findings.ts';
import { createIntegrationRoute } from '../../../server/routes/integrations.ts';
import { createNotificationRuleRoute } from '../../../server/routes/notifications.ts';
import { expectError, okBody } from '../../helpers/api-client.ts';
import { testEngine } from '../../helpers/database.ts';
import { coverageOf, detection, factory, runScan, type BuiltTenant } from '../../helpers/factory.ts';
import { appendEvent } from '../../../server/events/outbox.ts';
import { startGithubFake, startJiraFake, type JiraFake } from '../../fixtures/notification-fakes.ts';

import { GITHUB_TOKEN, JIRA_TOKEN, PUBLIC_URL, sign, useIntegrations } from './integrations-kit.ts';

/**
 * Tickets against loopback fakes of GitHub and Jira (issue 35, docs/integrations.md): opened,
 * closed and reopened with the findings, findings moved by signed tracker events only, Jira
 * Cloud and Server; secrets in no answer or log. Chat messages and rules: integrations.test.ts.
 */

describe(`integrations: trackers (${testEngine})`, () => {
  const { suite, keep, deliver, findingStatus } = useIntegrations();

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
});
