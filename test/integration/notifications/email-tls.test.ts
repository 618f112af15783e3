import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deliverNotifications } from '../../../server/notifications/delivery.ts';
import { renderMail, sendMail } from '../../../server/notifications/mail.ts';
import { inviteUserRoute } from '../../../server/routes/users.ts';
import { okBody } from '../../helpers/api-client.ts';
import { testEngine } from '../../helpers/database.ts';
import { factory } from '../../helpers/factory.ts';
import { useTestApp } from '../../helpers/suite-app.ts';
import { startMailbox, type Mailbox } from '../../fixtures/notification-fakes.ts';
import { generateLoopbackCertificates } from '../../fixtures/tls-certificates.ts';

/**
 * E-mail over STARTTLS (docs/email.md): the loopback SMTP server offers STARTTLS with a
 * certificate from a CA the test makes; the service trusts that CA through
 * SCANWARD_SMTP_CA_FILE (verification stays on), and `?requireTLS=true` refuses to send in
 * clear to a server that does not offer STARTTLS.
 */

describe(`e-mail over STARTTLS (${testEngine})`, () => {
  const certs = generateLoopbackCertificates();
  const dir = mkdtempSync(join(tmpdir(), 'scanward-smtp-ca-'));
  const caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, certs.ca);
  let tlsMailbox: Mailbox;
  let plainMailbox: Mailbox;
  const suite = useTestApp(async () => {
    tlsMailbox = await startMailbox({ starttls: certs.server });
    plainMailbox = await startMailbox();
    return {
      env: {
        SCANWARD_SMTP_URL: tlsMailbox.url,
        SCANWARD_SMTP_CA_FILE: caFile,
        SCANWARD_MAIL_FROM: 'Scanward <scanward@example.test>',
      },
    };
  });
  afterAll(async () => {
    await tlsMailbox?.close();
    await plainMailbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const mail = (to: string) => renderMail(to, 'TLS check', { paragraphs: ['Sent over TLS, or not at all.'] });

  it('sends an invitation over STARTTLS to a server whose CA the operator named', async () => {
    const t = await factory.tenant(suite.app);
    const email = `tls-invitee-${t.orgId.slice(4)}@example.test`;
    okBody(await t.api.call(inviteUserRoute, { body: { email, role: 'member' } }), 201);
    await deliverNotifications(suite.app.services);
    const arrived = tlsMailbox.mails.filter((m) => m.to.includes(email));
    expect(arrived).toHaveLength(1);
    expect(arrived[0]!.secure).toBe(true);
  });

  it('does not send to a STARTTLS server whose certificate it cannot verify', async () => {
    const { ca: _ca, ...withoutCa } = suite.app.services.config.mail!;
    const to = 'untrusted@example.test';
    const result = await sendMail(withoutCa, mail(to));
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/^SMTP failed/);
    expect(tlsMailbox.mails.filter((m) => m.to.includes(to))).toHaveLength(0);
  });

  it('refuses to send in clear when the URL requires TLS and the server offers no STARTTLS', async () => {
    const config = suite.app.services.config.mail!;
    const required = await sendMail(
      { ...config, smtpUrl: `${plainMailbox.url}?requireTLS=true` },
      mail('required@example.test'),
    );
    expect(required.ok).toBe(false);
    expect(plainMailbox.mails.filter((m) => m.to.includes('required@example.test'))).toHaveLength(0);

    // Without the parameter the same server gets the mail in clear (nodemailer's default).
    const opportunistic = await sendMail(
      { ...config, smtpUrl: plainMailbox.url },
      mail('clear@example.test'),
    );
    expect(opportunistic.ok).toBe(true);
    expect(plainMailbox.mails.filter((m) => m.to.includes('clear@example.test'))).toEqual([
      expect.objectContaining({ secure: false }),
    ]);
  });
});
