import { openSecret, sealSecret } from '../auth/keys.ts';
import type { Db } from '../db/index.ts';
import { newId } from '../identity/ids.ts';
import { insertMessageUnlessQueued } from './notification-messages.repository.ts';

/**
 * Queuing what the notification worker sends (delivery.ts): in the caller's transaction,
 * sealed (an e-mail may carry a one-time link, a tracker call a finding's evidence), and at
 * most once per `dedupeKey` in the organization. Answers the message's id, or undefined when
 * one of that key was queued before.
 */

/** What a message does when the worker sends it. */
export type MessageKind =
  'email' | 'chat' | 'ticket.open' | 'ticket.close' | 'ticket.reopen' | 'integration.test';

export interface QueuedMessage {
  kind: MessageKind;
  /** Null for e-mail, which goes through the service's SMTP server. */
  integrationId: string | null;
  dedupeKey: string;
  /** For the console's delivery list: never a secret. */
  summary: string;
  payload: Record<string, unknown>;
}

export async function queueMessage(
  trx: Db,
  key: Buffer,
  orgId: string,
  message: QueuedMessage,
  now = new Date(),
): Promise<string | undefined> {
  const id = newId('msg');
  const queued = await insertMessageUnlessQueued(trx, orgId, {
    id,
    org_id: orgId,
    integration_id: message.integrationId,
    kind: message.kind,
    dedupe_key: message.dedupeKey,
    summary: message.summary.slice(0, 500),
    payload: sealSecret(key, JSON.stringify(message.payload)),
    next_attempt_at: now,
    created_at: now,
    updated_at: now,
  });
  return queued ? id : undefined;
}

export function openPayload<T>(key: Buffer, sealed: string): T {
  return JSON.parse(openSecret(key, sealed)) as T;
}
