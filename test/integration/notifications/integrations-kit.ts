import { createHmac } from 'node:crypto';
import { afterAll } from 'vitest';
import { deliverNotifications } from '../../../server/notifications/delivery.ts';
import { getFindingRoute } from '../../../server/routes/findings.ts';
import { okBody, type ApiClient } from '../../helpers/api-client.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import type { Fake } from '../../fixtures/notification-fakes.ts';

/**
 * What the integration tests share (issue 35, docs/integrations.md): an app that may reach the
 * loopback fakes of Slack, Teams, GitHub and Jira, the fakes closed after the file, one pass
 * of the notification worker, and the secrets no answer or log may show. Call
 * `useIntegrations()` inside a `describe`.
 */

export const PUBLIC_URL = 'https://scanward.example.test';
export const GITHUB_TOKEN = 'ghp_secret-token-never-shown-0001';
export const JIRA_TOKEN = 'jira-api-token-never-shown-0002';
export const SLACK_PATH = '/services/T000/B000/slack-secret-path-0003';

export const sign = (secret: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

export function useIntegrations() {
  const fakes: Fake[] = [];
  const suite = useTestApp({
    captureLogs: true,
    env: { SCANWARD_WEBHOOK_ALLOW_PRIVATE: 'true', SCANWARD_PUBLIC_URL: PUBLIC_URL },
  });
  afterAll(async () => {
    await Promise.all(fakes.map((f) => f.close()));
  });
  /** Closes the fake after the file. */
  const keep = <T extends Fake>(fake: T) => {
    fakes.push(fake);
    return fake;
  };
  /** One pass of the notification worker, `secondsLater` from now (retries come due). */
  const deliver = (secondsLater = 0) =>
    deliverNotifications(suite.app.services, { now: new Date(Date.now() + secondsLater * 1000) });
  const findingStatus = async (api: ApiClient, id: string) =>
    okBody(await api.call(getFindingRoute, { params: { finding_id: id } })).status;
  return { suite, keep, deliver, findingStatus };
}
