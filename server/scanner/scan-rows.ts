import type { Knex } from 'knex';
import { enqueueWebhookEvent } from '../webhooks/outbox.ts';
import { presentScanEvent } from './events.ts';

/** Heartbeats: often enough that a cancel stops the work within seconds. */
export function heartbeatIntervalMs(leaseSeconds: number): number {
  return Math.min(2000, (leaseSeconds * 1000) / 3);
}

/** Fails a pending or running scan with a reason and queues `scan.failed`, in the caller's transaction. */
export async function failScanRow(trx: Knex, scanId: string, orgId: string, error: string, now = new Date()) {
  const [row] = (await trx('scans')
    .where({ id: scanId })
    .whereIn('status', ['pending', 'running'])
    .update({
      status: 'failed',
      error,
      current_tool: null,
      runner_id: null,
      lease_expires_at: null,
      updated_at: now,
    })
    .returning('*')) as Record<string, unknown>[];
  if (row) await enqueueWebhookEvent(trx, orgId, 'scan.failed', { ...presentScanEvent(row), error }, now);
  return row !== undefined;
}
