import { webhookMetrics } from '../metrics/registry.ts';
import type { Logger } from 'pino';
import { Webhook } from 'standardwebhooks';
import { openSecret } from '../auth/keys.ts';
import type { Db } from '../db/index.ts';
import type { Services } from '../services.ts';
import { dispatchWebhookEvents, pruneOutbox } from './outbox.ts';
import { sendOutbound } from './outbound.ts';
import {
  claimDueDeliveriesOfAnyOrganization,
  recordDeliveryAttempt,
  type ClaimedDelivery,
} from './webhook-deliveries.repository.ts';
import { clearWebhookFailure, findWebhookFailingSince, recordWebhookFailure } from './webhooks.repository.ts';
import { auditWebhookDisabled } from './webhooks.ts';

/**
 * The delivery worker: sends queued deliveries (the outbox) following the
 * Standard Webhooks specification, retrying on the schedule of decisions.md.
 */

/** Delays after each failed attempt (Standard Webhooks schedule); after the last, the delivery fails. */
export const RETRY_DELAYS_SECONDS = [5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 86_400];
export const DELIVERY_TIMEOUT_MS = 10_000;
/** A claimed delivery is someone's for this long; a worker that died loses it afterwards. */
const CLAIM_SECONDS = DELIVERY_TIMEOUT_MS / 1000 + 5;
const DISABLE_AFTER_FAILING_MS = 5 * 24 * 3600 * 1000;
const MAX_RESPONSE_BYTES = 64 * 1024;
/** How often the worker deletes outbox events past their retention. */
const PRUNE_INTERVAL_MS = 3600 * 1000;

interface AttemptResult {
  ok: boolean;
  statusCode?: number;
  ms: number;
  error?: string;
}

/** POSTs the payload to the receiver, connecting only to the addresses the URL policy checked. */
async function attempt(
  delivery: ClaimedDelivery,
  headers: Record<string, string>,
  allowPrivate: boolean,
): Promise<AttemptResult> {
  const answer = await sendOutbound({
    url: delivery.url,
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: delivery.payload,
    allowPrivate,
    timeoutMs: DELIVERY_TIMEOUT_MS,
    maxResponseBytes: MAX_RESPONSE_BYTES,
    userAgent: 'Scanward-Webhooks/1',
  });
  if (answer.status === 0) {
    return { ok: false, ms: answer.ms, error: answer.error ?? 'no answer' };
  }
  return { ok: answer.status >= 200 && answer.status < 300, statusCode: answer.status, ms: answer.ms };
}

async function recordResult(
  db: Db,
  delivery: ClaimedDelivery,
  result: AttemptResult,
  now: Date,
): Promise<void> {
  const base = {
    locked_until: null,
    last_status_code: result.statusCode ?? null,
    last_response_ms: result.ms,
    last_error: result.ok ? null : (result.error ?? `receiver answered ${result.statusCode}`),
    updated_at: now,
  };
  const delay = RETRY_DELAYS_SECONDS[delivery.attempts - 1];
  webhookMetrics.deliveries.inc({
    outcome: result.ok ? 'succeeded' : delay === undefined ? 'failed' : 'retrying',
  });
  const orgId = delivery.org_id;
  await db.transaction(async (trx) => {
    if (result.ok) {
      await recordDeliveryAttempt(trx, orgId, delivery.id, {
        ...base,
        status: 'succeeded',
        next_attempt_at: null,
      });
      await clearWebhookFailure(trx, orgId, delivery.webhook_id);
      return;
    }
    await recordDeliveryAttempt(
      trx,
      orgId,
      delivery.id,
      delay === undefined
        ? { ...base, status: 'failed', next_attempt_at: null }
        : { ...base, next_attempt_at: new Date(now.getTime() + delay * 1000) },
    );
    const hook = await findWebhookFailingSince(trx, orgId, delivery.webhook_id);
    if (!hook) return;
    const failingSince = hook.failing_since ?? now;
    let disabledReason: string | undefined;
    if (result.statusCode === 410) disabledReason = 'the receiver answered 410 Gone';
    else if (now.getTime() - failingSince.getTime() >= DISABLE_AFTER_FAILING_MS) {
      disabledReason = 'deliveries kept failing for 5 days';
    }
    await recordWebhookFailure(trx, orgId, delivery.webhook_id, { failingSince, disabledReason }, now);
    if (disabledReason && hook.active)
      await auditWebhookDisabled(trx, orgId, delivery.webhook_id, hook, disabledReason, now);
  });
}

/** Turns the outbox's new webhook events into deliveries, then sends every due delivery once; returns how many were attempted. */
export async function deliverDue(
  services: Services,
  options: { limit?: number; now?: Date } = {},
): Promise<number> {
  const now = options.now ?? new Date();
  // The outbox's webhook events become deliveries first (webhooks/outbox.ts).
  const BATCH = 500;
  while ((await dispatchWebhookEvents(services.db, BATCH)) === BATCH) {
    // a full batch: there may be more
  }
  const claimed = await claimDueDeliveriesOfAnyOrganization(
    services.db,
    options.limit ?? 20,
    now,
    CLAIM_SECONDS,
  );
  await Promise.all(
    claimed.map(async (delivery) => {
      const signer = new Webhook(openSecret(services.keys.encryptionKey, delivery.secret));
      const sentAt = new Date();
      const headers = {
        'webhook-id': delivery.id,
        'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
        'webhook-signature': signer.sign(delivery.id, sentAt, delivery.payload),
      };
      const result = await attempt(delivery, headers, services.config.webhookAllowPrivate);
      await recordResult(services.db, delivery, result, new Date());
      services.logger.info(
        {
          delivery_id: delivery.id,
          webhook_id: delivery.webhook_id,
          attempt: delivery.attempts,
          ok: result.ok,
          status: result.statusCode,
          ms: result.ms,
        },
        'webhook delivery',
      );
    }),
  );
  return claimed.length;
}

export interface WebhookWorker {
  /** Asks the worker to look for due deliveries now (after an event was queued). */
  nudge(): void;
  stop(): Promise<void>;
}

/** Polls the outbox every `intervalMs` (and on nudge) until stopped. */
export function startWebhookWorker(
  services: Services,
  intervalMs = 1000,
  logger: Logger = services.logger,
): WebhookWorker {
  let stopped = false;
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let prunedAt = 0;
  const tick = () => {
    if (stopped || running) return;
    running = (async () => {
      try {
        if (Date.now() - prunedAt > PRUNE_INTERVAL_MS) {
          prunedAt = Date.now();
          await pruneOutbox(services.db);
        }
        while (!stopped && (await deliverDue(services)) > 0) {
          // keep going while there is work
        }
      } catch (err) {
        logger.error({ err }, 'webhook delivery loop failed');
      } finally {
        running = undefined;
        if (!stopped) timer = setTimeout(tick, intervalMs);
      }
    })();
  };
  timer = setTimeout(tick, 0);
  return {
    nudge: () => {
      if (timer) clearTimeout(timer);
      tick();
    },
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
