import type { ScanRequest } from '../core/scan-source.ts';
import type { ScanwardClient } from './client.ts';
import { STREAM_SETTINGS, formatSeconds, type FollowDeps, type Followed } from './follow/followed.ts';
import { followByPolling } from './follow/polling.ts';
import { followByStream } from './follow/stream.ts';
import { ProgressLog } from './progress.ts';

/**
 * Following a running scan to its end (or to the deadline), in one of two ways:
 *
 * - **stream** (the default, follow/stream.ts and follow/connection.ts): through the service's
 *   live event stream, `GET /api/v1/events`, which counts as one request against the
 *   organization's rate limit however long it stays open. The stream is opened first and the
 *   scan read once after it answered, so no event falls between the two; the scan's
 *   `scan.started` and `scan.progress` events are logged as progress; on its terminal event the
 *   scan is read once more for its final record. A stream that drops is reopened with
 *   `Last-Event-ID` (a bounded number of times in a row), so no event is missed. When the
 *   stream cannot be had (an older service answers 404, a key without the permission 403, a
 *   proxy buffers it so nothing arrives), one line says so and the scan is followed by polling
 *   instead.
 * - **poll** (follow/polling.ts): `GET /api/v1/scans/{id}` every `poll-interval-seconds`, one
 *   request each.
 *
 * Either way the deadline ends the following with `timedOut` (the caller cancels the scan),
 * and the run's abort signal throws out of it (the caller cancels the scan too).
 */

export {
  STREAM_SETTINGS,
  TERMINAL,
  type FollowDeps,
  type Followed,
  type StreamSettings,
} from './follow/followed.ts';

export async function followScan(
  deps: FollowDeps,
  client: ScanwardClient,
  scanId: string,
  request: Pick<ScanRequest, 'follow' | 'pollIntervalMs'>,
  deadline: number,
): Promise<Followed> {
  const progress = new ProgressLog((line) => deps.log.info(line));
  if (request.follow === 'poll') return followByPolling(deps, client, scanId, request, deadline, progress);
  const settings = { ...STREAM_SETTINGS, ...deps.stream };
  const streamed = await followByStream({ deps, client, scanId, deadline, progress, settings });
  if (streamed.kind === 'followed') return streamed;
  deps.log.info(
    `The event stream is not available (${streamed.reason}); following scan ${scanId} by polling every ${formatSeconds(request.pollIntervalMs)}.`,
  );
  return followByPolling(deps, client, scanId, request, deadline, progress);
}
