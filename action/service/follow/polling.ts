import type { ScanRequest } from '../../core/scan-source.ts';
import type { ScanwardClient } from '../client.ts';
import type { ProgressLog } from '../progress.ts';
import { TERMINAL, type FollowDeps, type Followed } from './followed.ts';

/**
 * The polling half of following a scan: `GET /api/v1/scans/{id}` every
 * `poll-interval-seconds`, one request each, until the scan ends or the deadline passes,
 * logging changes only. `follow: poll` asks for it; the stream half falls back to it.
 */
export async function followByPolling(
  deps: FollowDeps,
  client: ScanwardClient,
  scanId: string,
  request: Pick<ScanRequest, 'pollIntervalMs'>,
  deadline: number,
  progress: ProgressLog,
): Promise<Followed> {
  const { http } = deps;
  let scan = await client.getScan(scanId, deadline);
  progress.report(scan);
  while (!TERMINAL.has(scan.status)) {
    const left = deadline - http.now();
    if (left <= 0) return { scan, timedOut: true };
    await http.sleep(Math.min(request.pollIntervalMs, left), http.signal);
    scan = await client.getScan(scanId, deadline);
    progress.report(scan);
  }
  return { scan, timedOut: false };
}
