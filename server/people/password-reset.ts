import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/index.ts';
import { AppError } from '../errors.ts';
import { queueMessage } from '../notifications/outbox.ts';
import { consoleLink, renderMail } from '../notifications/mail.ts';
import { reserveAttempt } from '../ratelimit/sliding-window.ts';
import { rateLimited } from '../errors.ts';
import type { Services } from '../services.ts';
import { recordAuditEvent } from '../identity/audit.ts';
import { newId } from '../identity/ids.ts';
import { passwordLoginAllowed } from '../identity/organizations.ts';
import {
  consumePasswordReset,
  insertPasswordReset,
  spendPasswordResetsOfUser,
} from '../identity/password-resets.repository.ts';
import { resetPassword } from './user-lifecycle.ts';
import { findUser, findUserByEmailInAnyOrganization } from '../identity/users.repository.ts';

/**
 * Self-service password reset by e-mail (docs/email.md): a request answers the same whether
 * or not the address has an account, and is rate limited as log-ins are (10 per e-mail, 50
 * per client address in 15 minutes); the mail carries a one-time link to the console's reset
 * page, valid one hour; confirming sets the password exactly as the operator's reset does
 * (user-lifecycle.ts: every session revoked, API keys too unless kept).
 */

export const RESET_LIFETIME_MS = 3600_000;
export const RESET_PATH = '/reset-password';
const WINDOW_SECONDS = 15 * 60;

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

export const RESET_REQUESTED = {
  detail: 'If an account has this address, a link to reset its password is on its way.',
};

export async function requestPasswordReset(
  services: Services,
  input: { email: string; ip: string; origin: string },
  now = new Date(),
): Promise<typeof RESET_REQUESTED> {
  const email = input.email.trim().toLowerCase();
  const reserved = await reserveAttempt(
    services.db,
    [
      { bucket: `reset:email:${email}`, max: 10 },
      { bucket: `reset:ip:${input.ip}`, max: 50 },
    ],
    WINDOW_SECONDS,
    now,
  );
  if (!reserved.reserved) {
    throw rateLimited(
      'RATE_LIMIT_EXCEEDED',
      'too many password reset requests; try again later',
      reserved.retryAfterSeconds,
    );
  }
  const mail = services.config.mail;
  const user = email ? await findUserByEmailInAnyOrganization(services.db, email) : undefined;
  if (!mail || !user || user.disabled_at || !(await passwordLoginAllowed(services.db, user.org_id))) {
    return RESET_REQUESTED;
  }
  const token = `pwr_${randomBytes(32).toString('base64url')}`;
  const link = consoleLink(
    services.config.publicUrl ?? input.origin,
    `${RESET_PATH}#token=${encodeURIComponent(token)}`,
  );
  const id = newId('pwr');
  await services.db.transaction(async (trx) => {
    await insertPasswordReset(trx, {
      id,
      org_id: user.org_id,
      user_id: user.id,
      token_hash: tokenHash(token),
      created_at: now,
      expires_at: new Date(now.getTime() + RESET_LIFETIME_MS),
    });
    await queueMessage(
      trx,
      services.keys.encryptionKey,
      user.org_id,
      {
        kind: 'email',
        integrationId: null,
        dedupeKey: `password-reset:${id}`,
        summary: `password reset e-mail to ${user.email}`,
        payload: {
          ...renderMail(user.email, 'Reset your Scanward password', {
            paragraphs: [
              'Someone (we hope you) asked to reset the password of your Scanward account.',
              'The link below works once, for one hour. If you did not ask, ignore this e-mail: your password stays as it is.',
            ],
            action: { label: 'Choose a new password', url: link },
            footer: 'Scanward',
          }),
        },
      },
      now,
    );
  });
  return RESET_REQUESTED;
}

const invalidLink = () =>
  new AppError(422, 'VALIDATION_ERROR', 'token: the link is invalid, already used or expired', 'token');

export async function confirmPasswordReset(
  db: Db,
  input: { token: string; password: string; keepApiKeys: boolean; ip: string },
  now = new Date(),
) {
  const reset = await db.transaction(async (trx) => {
    const found = await consumePasswordReset(trx, tokenHash(input.token), now);
    if (!found) throw invalidLink();
    await spendPasswordResetsOfUser(trx, found.org_id, found.user_id, now);
    return found;
  });
  const user = await findUser(db, reset.org_id, reset.user_id);
  if (!user || user.disabled_at) throw invalidLink();
  const change = await resetPassword(
    db,
    { orgId: reset.org_id, userId: reset.user_id },
    input.password,
    { keepApiKeys: input.keepApiKeys },
    now,
  );
  const person = { id: user.id, email: user.email };
  await recordAuditEvent(
    db,
    {
      orgId: user.org_id,
      action: 'user.password_changed',
      actor: person,
      target: person,
      ip: input.ip,
      details: { via: 'password reset e-mail' },
    },
    now,
  );
  return {
    email: user.email,
    password_reset: true as const,
    revoked_sessions: change.revoked.sessions,
    revoked_api_keys: change.revoked.apiKeys,
  };
}
