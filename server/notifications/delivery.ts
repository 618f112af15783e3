import type { Logger } from 'pino';
import type { Services } from '../services.ts';
import { RETRY_DELAYS_SECONDS } from '../webhooks/delivery.ts';
import { sendOutbound } from '../webhooks/outbound.ts';
import { queueDueDigests } from './digest.ts';
import { dispatchNotificationEvents } from './dispatch.ts';
import { noticeMail, slackMessage, teamsMessage, type Notice } from './formats.ts';
import { settingsOf } from './integrations.ts';
import { findIntegration } from './integrations.repository.ts';
import { sendMail, type Mail } from './mail.ts';
import {
  claimDueMessagesOfAnyOrganization,
  claimMessage,
  recordMessageAttempt,
  type ClaimedMessage,
} from './notification-messages.repository.ts';
import { openPayload } from './outbox.ts';
import { performTicketCall } from './tickets.ts';
import { trackerOf, TrackerError } from './trackers.ts';

/**
 * The notification worker (docs/integrations.md, "Delivery"): reads the outbox's new events
 * into messages (dispatch.ts), then sends every due message once: e-mail through SMTP, chat
 * through the integration's webhook, tracker calls through its API, each through the
 * receiver address policy. A failure is retried on the webhook schedule (5 s, 5 min, 30 min,
 * … 24 h); after the last retry, or at once for an answer that cannot change by retrying
 * (400, 401, 403, 404, 410, 422), the message is `dead`: listed in the console, sent again
 * only when a person asks. A message claimed by one worker is no other's, so it is sent once.
 */

const CLAIM_SECONDS = 60;
const PERMANENT = new Set([400, 401, 403, 404, 410, 422]);

export interface SendResult {
  ok: boolean;
  status?: number;
  error?: string;
}

const publicUrlOf = (services: Services) =>
  services.config.publicUrl ?? `http://localhost:${services.config.port}`;

async function postChat(services: Services, url: string, body: unknown): Promise<SendResult> {
  const answer = await sendOutbound({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    allowPrivate: services.config.webhookAllowPrivate,
    timeoutMs: 10_000,
  });
  if (answer.status === 0) return { ok: false, error: answer.error ?? 'no answer' };
  const ok = answer.status >= 200 && answer.status < 300;
  return ok
    ? { ok, status: answer.status }
    : { ok, status: answer.status, error: `answered ${answer.status}` };
}

async function sendNotice(services: Services, message: ClaimedMessage, notice: Notice): Promise<SendResult> {
  const row = await findIntegration(services.db, message.org_id, message.integration_id!);
  if (!row) return { ok: true };
  const settings = settingsOf(services.keys.encryptionKey, row);
  if (settings.type === 'slack')
    return postChat(services, String(settings.config.webhook_url), slackMessage(notice));
  if (settings.type === 'teams')
    return postChat(services, String(settings.config.webhook_url), teamsMessage(notice));
  if (settings.type === 'email') {
    if (!services.config.mail) return { ok: false, error: 'e-mail is not configured (SCANWARD_SMTP_URL)' };
    for (const to of settings.config.to as string[]) {
      const sent = await sendMail(services.config.mail, noticeMail(notice, to));
      if (!sent.ok)
        return { ok: false, ...(sent.code ? { status: sent.code } : {}), error: sent.error ?? 'refused' };
    }
    return { ok: true };
  }
  return { ok: false, status: 422, error: `${settings.type} integrations take tickets, not messages` };
}

async function sendTest(services: Services, message: ClaimedMessage): Promise<SendResult> {
  const row = await findIntegration(services.db, message.org_id, message.integration_id!);
  if (!row) return { ok: true };
  if (row.type === 'github' || row.type === 'jira') {
    await trackerOf(
      settingsOf(services.keys.encryptionKey, row),
      services.config.webhookAllowPrivate,
    ).check();
    return { ok: true };
  }
  return sendNotice(services, message, {
    headline: `Scanward test message for ${row.name}`,
    severity: undefined,
    facts: [['Integration', row.name]],
    link: publicUrlOf(services),
    linkLabel: 'Open Scanward',
  });
}

export async function sendMessage(services: Services, message: ClaimedMessage): Promise<SendResult> {
  const key = services.keys.encryptionKey;
  try {
    switch (message.kind) {
      case 'email': {
        if (!services.config.mail)
          return { ok: false, error: 'e-mail is not configured (SCANWARD_SMTP_URL)' };
        const sent = await sendMail(services.config.mail, openPayload<Mail>(key, message.payload));
        return sent.ok
          ? { ok: true }
          : { ok: false, ...(sent.code ? { status: sent.code } : {}), error: sent.error ?? 'refused' };
      }
      case 'chat':
        return await sendNotice(
          services,
          message,
          openPayload<{ notice: Notice }>(key, message.payload).notice,
        );
      case 'integration.test':
        return await sendTest(services, message);
      case 'ticket.open':
      case 'ticket.close':
      case 'ticket.reopen':
        await performTicketCall(
          services,
          { org_id: message.org_id, integration_id: message.integration_id!, kind: message.kind },
          openPayload(key, message.payload),
          publicUrlOf(services),
        );
        return { ok: true };
      default:
        return { ok: false, status: 422, error: `unknown message kind ${message.kind}` };
    }
  } catch (err) {
    if (err instanceof TrackerError)
      return { ok: false, ...(err.status ? { status: err.status } : {}), error: err.message };
    return { ok: false, error: err instanceof Error ? err.message.slice(0, 300) : 'failed' };
  }
}

async function record(
  services: Services,
  message: ClaimedMessage,
  result: SendResult,
  now: Date,
): Promise<void> {
  const delay = RETRY_DELAYS_SECONDS[message.attempts - 1];
  const permanent = result.status !== undefined && PERMANENT.has(result.status);
  await recordMessageAttempt(services.db, message.org_id, message.id, {
    status: result.ok ? 'succeeded' : delay === undefined || permanent ? 'dead' : 'pending',
    next_attempt_at:
      result.ok || delay === undefined || permanent ? null : new Date(now.getTime() + delay * 1000),
    last_status_code: result.status ?? null,
    last_error: result.ok ? null : (result.error ?? 'failed'),
    updated_at: now,
  });
}

async function sendClaimed(services: Services, claimed: ClaimedMessage[], logger: Logger): Promise<void> {
  for (const message of claimed) {
    const result = await sendMessage(services, message);
    await record(services, message, result, new Date());
    logger.info(
      {
        message_id: message.id,
        kind: message.kind,
        integration_id: message.integration_id,
        attempt: message.attempts,
        ok: result.ok,
        status: result.status,
      },
      'notification delivery',
    );
  }
}

/**
 * One pass of the worker: new events become messages, the day's digests are queued, and
 * every message due at `now` is sent once. Answers how many were sent.
 */
export async function deliverNotifications(
  services: Services,
  options: { limit?: number; now?: Date } = {},
): Promise<number> {
  const now = options.now ?? new Date();
  const key = services.keys.encryptionKey;
  while ((await dispatchNotificationEvents(services.db, key, publicUrlOf(services), 500, now)) === 500) {
    // a full batch: there may be more
  }
  await queueDueDigests(services, now);
  const claimed = await claimDueMessagesOfAnyOrganization(
    services.db,
    options.limit ?? 20,
    now,
    CLAIM_SECONDS,
  );
  await sendClaimed(services, claimed, services.logger);
  return claimed.length;
}

/**
 * Sends one queued message of the organization now, unless a worker holds it (a person's
 * ticket or test asked for it and would like to see the outcome); a failure stays queued for
 * the worker's retries.
 */
export async function deliverNow(services: Services, orgId: string, messageId: string): Promise<void> {
  const claimed = await claimMessage(services.db, orgId, messageId, new Date(), CLAIM_SECONDS);
  if (claimed) await sendClaimed(services, [claimed], services.logger);
}

export interface NotificationWorker {
  stop(): Promise<void>;
}

/** Runs the worker every `intervalMs` until stopped (every role). */
export function startNotificationWorker(services: Services, intervalMs = 1000): NotificationWorker {
  let stopped = false;
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    running = (async () => {
      try {
        while (!stopped && (await deliverNotifications(services)) > 0) {
          // keep going while there is work
        }
      } catch (err) {
        services.logger.error({ err }, 'notification delivery loop failed');
      } finally {
        running = undefined;
        if (!stopped) timer = setTimeout(tick, intervalMs);
      }
    })();
  };
  timer = setTimeout(tick, 0);
  return {
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
