import { afterAll, describe, expect, it } from 'vitest';
import { deliverNotifications } from '../../../server/notifications/delivery.ts';
import { queueDueDigests } from '../../../server/notifications/digest.ts';
import { listMySessions } from '../../../server/routes/auth.ts';
import { getFindingRoute, listFindingsRoute, updateFindingRoute } from '../../../server/routes/findings.ts';
import { updateNotificationPreferencesRoute } from '../../../server/routes/notification-preferences.ts';
import {
  confirmPasswordResetRoute,
  requestPasswordResetRoute,
} from '../../../server/routes/password-reset.ts';
import { inviteUserRoute } from '../../../server/routes/users.ts';
import { createIntegrationRoute } from '../../../server/routes/integrations.ts';
import { createNotificationRuleRoute } from '../../../server/routes/notifications.ts';
import { appendEvent } from '../../../server/events/outbox.ts';
import { apiClient, expectError, okBody } from '../../helpers/api-client.ts';
import { testEngine } from '../../helpers/database.ts';
import { detection, factory, logIn } from '../../helpers/factory.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { startMailbox, type Mailbox } from '../../fixtures/notification-fakes.ts';

/**
 * E-mail through a real SMTP server on loopback (issue 35, docs/email.md): the invitation,
 * the self-service password reset and the daily digest arrive with a plain-text and an HTML
 * part and links under SCANWARD_PUBLIC_URL; the reset link works once and revokes sessions
 * and keys; neither the SMTP password nor a token is logged.
 */

const PUBLIC_URL = 'https://scanward.example.test';
const tokenIn = (text: string, path: string) => {
  const match = new RegExp(`${PUBLIC_URL}${path}#token=([A-Za-z0-9_%.-]+)`).exec(text);
  return match ? decodeURIComponent(match[1]!) : undefined;
};

describe(`e-mail (${testEngine})`, () => {
  let mailbox: Mailbox;
  const suite = useTestApp(async () => {
    mailbox = await startMailbox();
    return {
      captureLogs: true,
      env: {
        SCANWARD_SMTP_URL: mailbox.url,
        SCANWARD_MAIL_FROM: 'Scanward <scanward@example.test>',
        SCANWARD_PUBLIC_URL: PUBLIC_URL,
        SCANWARD_DIGEST_HOUR: '6',
      },
    };
  });
  afterAll(async () => mailbox?.close());

  const mailsTo = (address: string) => mailbox.mails.filter((m) => m.to.includes(address));

  it('e-mails an invitation with the same link the console shows', async () => {
    const t = await factory.tenant(suite.app);
    const email = `invitee-${t.orgId.slice(4)}@example.test`;
    const invited = okBody(await t.api.call(inviteUserRoute, { body: { email, role: 'member' } }), 201);
    await deliverNotifications(suite.app.services);
    const [mail, ...more] = mailsTo(email);
    expect(more).toHaveLength(0);
    expect(mail!.from).toBe('scanward@example.test');
    expect(mail!.raw).toMatch(/Content-Type: text\/plain/i);
    expect(mail!.raw).toMatch(/Content-Type: text\/html/i);
    expect(tokenIn(mail!.text, '/set-password')).toBe(
      decodeURIComponent(new URL(invited.invite_url).hash.replace(/^#token=/, '')),
    );
  });

  it('resets a password by e-mail once, revoking sessions and API keys, answering alike for unknown addresses', async () => {
    const { app } = suite;
    const t = await factory.tenant(app);
    const key = await t.apiKey(['read:findings']);
    const session = await t.login();
    const anonymous = apiClient(app);

    const known = await anonymous.call(requestPasswordResetRoute, {
      body: { email: t.admin.email.toUpperCase() },
    });
    const unknown = await anonymous.call(requestPasswordResetRoute, {
      body: { email: `nobody@${t.orgId}.example.test` },
    });
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(unknown.text).toBe(known.text);

    await deliverNotifications(app.services);
    const mails = mailsTo(t.admin.email);
    expect(mails).toHaveLength(1);
    expect(mailsTo(`nobody@${t.orgId}.example.test`)).toHaveLength(0);
    const token = tokenIn(mails[0]!.text, '/reset-password');
    expect(token).toBeDefined();
    expect(mails[0]!.raw).toMatch(/Content-Type: text\/html/i);

    await expectError(
      await anonymous.call(confirmPasswordResetRoute, { body: { token: token!, new_password: 'short' } }),
      422,
      'VALIDATION_ERROR',
      'new_password',
    );
    const newPassword = 'a-brand-new-password-42';
    const done = okBody(
      await anonymous.call(confirmPasswordResetRoute, { body: { token: token!, new_password: newPassword } }),
    );
    expect(done).toMatchObject({ email: t.admin.email, password_reset: true, revoked_api_keys: 1 });
    expect(done.revoked_sessions).toBeGreaterThanOrEqual(1);

    // The old session and the key stop working; the link works once; the new password logs in.
    await expectError(await apiClient(app, { token: session }).call(listMySessions), 401, 'INVALID_TOKEN');
    expect((await apiClient(app, { apiKey: key }).call(listFindingsRoute)).status).toBe(401);
    await expectError(
      await anonymous.call(confirmPasswordResetRoute, {
        body: { token: token!, new_password: 'yet-another-password-1' },
      }),
      422,
      'VALIDATION_ERROR',
      'token',
    );
    expect((await logIn(app, { email: t.admin.email, password: newPassword })).status).toBe(200);
    expect((await logIn(app, { email: t.admin.email, password: 'yet-another-password-1' })).status).toBe(401);

    // Neither the SMTP password nor the one-time token is in the logs.
    expect(app.rawLogs()).not.toContain('mail-password-not-shown');
    expect(app.rawLogs()).not.toContain(token!);
  });

  it('limits reset requests for one address as log-ins are limited', async () => {
    const t = await factory.tenant(suite.app);
    const anonymous = apiClient(suite.app);
    const email = `limited-${t.orgId}@example.test`;
    for (let i = 0; i < 10; i += 1) {
      expect((await anonymous.call(requestPasswordResetRoute, { body: { email } })).status).toBe(202);
    }
    const refused = await anonymous.call(requestPasswordResetRoute, { body: { email } });
    await expectError(refused, 429, 'RATE_LIMIT_EXCEEDED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('sends a failed scan to an e-mail integration as one mail linking to the scan', async () => {
    const { app } = suite;
    const t = await factory.tenant(app);
    const to = `oncall-${t.orgId.slice(4)}@example.test`;
    const integration = okBody(
      await t.api.call(createIntegrationRoute, {
        body: { type: 'email', name: 'on-call', config: { to: [to] } },
      }),
      201,
    );
    okBody(
      await t.api.call(createNotificationRuleRoute, {
        body: { integration_id: integration.id, events: ['scan.failed'] },
      }),
      201,
    );
    await app.services.db.transaction((trx) =>
      appendEvent(trx, t.orgId, {
        type: 'scan.failed',
        subjectId: 'scan_failedexample',
        data: { id: 'scan_failedexample', target: 'down.example.test', error: 'watchdog: no progress' },
      }),
    );
    await deliverNotifications(app.services);
    await deliverNotifications(app.services);
    const [mail, ...more] = mailsTo(to);
    expect(more).toHaveLength(0);
    expect(mail!.text).toContain('Scan failed: down.example.test');
    expect(mail!.text).toContain(`${PUBLIC_URL}/scans/scan_failedexample`);
    expect(mail!.raw).toMatch(/Content-Type: text\/html/i);
  });

  it('sends each person one daily digest of their overdue and soon-due findings, unless they opted out', async () => {
    const { app } = suite;
    const t = await factory.tenant(app, {
      findings: [
        detection({ severity: 'high', title: 'Digest overdue finding', target: 'digest-a.example.test' }),
        detection({ severity: 'low', title: 'Digest later finding', target: 'digest-b.example.test' }),
      ],
    });
    const idOf = async (title: string) => {
      for (const id of t.summary!.new_finding_ids) {
        const f = okBody(await t.api.call(getFindingRoute, { params: { finding_id: id } }));
        if (f.title === title) return id;
      }
      throw new Error(`no finding ${title}`);
    };
    const overdueId = await idOf('Digest overdue finding');
    const laterId = await idOf('Digest later finding');
    const member = await t.addUser('member');
    const now = new Date();
    const at = (days: number) => new Date(now.getTime() + days * 86_400_000).toISOString();
    okBody(
      await t.api.call(updateFindingRoute, {
        params: { finding_id: overdueId },
        body: { assignee: member.email, due_date: at(-2) },
      }),
    );
    okBody(
      await t.api.call(updateFindingRoute, {
        params: { finding_id: laterId },
        body: { assignee: member.email, due_date: at(60) },
      }),
    );
    const title = 'Digest overdue finding';

    const morning = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 7));
    await queueDueDigests(app.services, morning, true);
    await queueDueDigests(app.services, new Date(morning.getTime() + 3600_000), true);
    await deliverNotifications(app.services);
    const digests = mailsTo(member.email);
    expect(digests).toHaveLength(1);
    expect(digests[0]!.text).toContain(title);
    expect(digests[0]!.text).not.toContain('Digest later finding');
    expect(digests[0]!.text).toContain(`${PUBLIC_URL}/findings/${overdueId}`);
    expect(digests[0]!.raw).toMatch(/Content-Type: text\/html/i);

    // Opted out: no digest the next day.
    const memberApi = await t.client(member);
    okBody(await memberApi.call(updateNotificationPreferencesRoute, { body: { email_digest: false } }));
    await queueDueDigests(app.services, new Date(morning.getTime() + 86_400_000), true);
    await deliverNotifications(app.services);
    expect(mailsTo(member.email)).toHaveLength(1);
  });
});
