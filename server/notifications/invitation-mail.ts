import type { Services } from '../services.ts';
import type { UserInvited } from '../schemas/people.ts';
import { renderMail } from './mail.ts';
import { queueMessage } from './outbox.ts';

/**
 * The invitation e-mail (docs/email.md): the invitee gets the one-time set-password link the
 * console also shows the admin. Queued in the notification outbox (retried like every
 * message); nothing when e-mail is not configured. Answers whether it was queued.
 */
export async function mailInvitation(
  services: Services,
  orgId: string,
  invitedBy: string,
  invited: UserInvited,
  now = new Date(),
): Promise<boolean> {
  if (!services.config.mail) return false;
  const mail = renderMail(invited.user.email, "You're invited to Scanward", {
    greeting: 'Hello,',
    paragraphs: [
      `${invitedBy} invited you to their organization on Scanward as ${invited.user.role}.`,
      `Choose your password with the link below. It works once, until ${invited.invite_expires_at.replace('T', ' ').slice(0, 16)} UTC.`,
    ],
    action: { label: 'Set your password', url: invited.invite_url },
    footer: 'If you did not expect this invitation, ignore this e-mail.',
  });
  const id = await queueMessage(
    services.db,
    services.keys.encryptionKey,
    orgId,
    {
      kind: 'email',
      integrationId: null,
      dedupeKey: `invitation:${invited.user.id}:${invited.invite_expires_at}`,
      summary: `invitation e-mail to ${invited.user.email}`,
      payload: { ...mail },
    },
    now,
  );
  return id !== undefined;
}
