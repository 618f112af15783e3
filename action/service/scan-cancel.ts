import { ApiError } from '../core/errors.ts';
import type { Log } from '../core/scan-source.ts';
import type { ScanRecord } from '../core/scan.ts';
import type { ScanwardClient } from './client.ts';

/** Cancelling a followed scan: when time runs out, and when the step ends without a result. */

/**
 * Cancels a scan that ran out of time. When it finished between the last poll and the
 * cancel, its own end counts (a completed scan's result is used after all).
 */
export async function cancelAtTimeout(
  log: Log,
  client: ScanwardClient,
  running: ScanRecord,
): Promise<{ scan: ScanRecord; timedOut: boolean }> {
  try {
    await client.cancelScan(running.id);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'SCAN_NOT_CANCELLABLE') {
      const scan = await client.getScan(running.id);
      return { scan, timedOut: false };
    }
    log.warning(
      `Could not cancel scan ${running.id}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const scan = await client.getScan(running.id).catch(() => ({ ...running, status: 'cancelled' }));
  return { scan, timedOut: true };
}

export async function cancelQuietly(log: Log, client: ScanwardClient, scanId: string): Promise<void> {
  try {
    await client.cancelScan(scanId);
    log.info(`Cancelled scan ${scanId}.`);
  } catch (error) {
    log.debug(`Could not cancel scan ${scanId}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
