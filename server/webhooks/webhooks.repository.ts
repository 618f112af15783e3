import type { Db } from '../db/index.ts';
import type { WebhookEvent } from './outbox.ts';

// --- added by scan-lifecycle

/** Whether the organization has an active webhook subscribed to any of the events. */
export async function hasActiveSubscription(
  db: Db,
  orgId: string,
  events: readonly WebhookEvent[],
): Promise<boolean> {
  if (events.length === 0) return false;
  const row = await db<{ id: string; org_id: string; active: boolean }>('webhooks')
    .where({ org_id: orgId, active: true })
    .whereRaw(`events && array[${events.map(() => '?').join(', ')}]::text[]`, [...events])
    .first('id');
  return row !== undefined;
}
