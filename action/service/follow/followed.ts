import type { Log } from '../../core/scan-source.ts';
import type { ScanRecord } from '../../core/scan.ts';
import type { HttpDeps } from '../http.ts';

/** What both halves of following a scan (stream.ts, polling.ts) take and give. */

export interface StreamSettings {
  /**
   * A stream that sends no byte (event or heartbeat) for this long is taken as broken: before
   * its first byte, as unusable (a buffering proxy: fall back to polling); later, as dropped
   * (reconnect). The service sends a heartbeat every 15 s by default.
   */
  stallMs: number;
  /** Reconnects in a row without a stream that lasted `stallMs`, before falling back to polling. */
  maxReconnects: number;
  /** Longest wait before a reconnect, whatever `retry:` or `Retry-After` asked. */
  maxReconnectDelayMs: number;
}

export const STREAM_SETTINGS: StreamSettings = {
  stallMs: 60_000,
  maxReconnects: 5,
  maxReconnectDelayMs: 30_000,
};

export interface FollowDeps {
  log: Log;
  http: HttpDeps;
  stream?: Partial<StreamSettings> | undefined;
}

export interface Followed {
  scan: ScanRecord;
  timedOut: boolean;
}

/** The statuses a scan ends in. */
export const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

export function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(2))}s`;
}
