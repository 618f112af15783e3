import type { ImportFormat } from '../../server/schemas/imports.ts';
import type { CredentialChecks, Framework, ScanType } from '../../server/schemas/scans.ts';
import type { WebTestingOptions } from '../../server/schemas/web-testing.ts';
import type { Finding, ScanLinks, ScanRecord, ToolInfo } from './scan.ts';

/**
 * Where a scan's results come from, behind one interface, so that the gate and every report
 * (SARIF, JUnit, JSON, job summary, pull request comment, annotations) are the same whatever
 * ran the scan. Today there is one source: the Scanward service, over its REST API
 * (service/remote-scan.ts). A source runs the scan to its end and hands back what it found;
 * it decides nothing about the gate and writes no report.
 */

export interface Log {
  info(message: string): void;
  warning(message: string): void;
  debug(message: string): void;
}

export type FollowMode = 'stream' | 'poll';

/** What to scan, and how long to follow it. */
export interface ScanRequest {
  target: string;
  scanType: ScanType;
  ports?: string | undefined;
  frameworks: Framework[];
  /** Unset: the service's default for the scan type. */
  credentialChecks?: CredentialChecks | undefined;
  /** Web application testing (docs/web-testing.md): sent as `web` remotely, handed to the local engine. Holds secrets. */
  web?: WebTestingOptions | undefined;
  /** Follow this existing scan instead of creating one. */
  scanId?: string | undefined;
  /** false: create the scan (or check `scanId`) and return without waiting. */
  wait: boolean;
  timeoutMs: number;
  /**
   * How a running scan is followed: `stream` (the default) through the service's event stream,
   * falling back to polling when it cannot be had; `poll` by reading the scan every
   * `pollIntervalMs`.
   */
  follow?: FollowMode | undefined;
  pollIntervalMs: number;
  /** Makes a retried or repeated create return the scan already created. */
  idempotencyKey: string;
  /**
   * Import this report (another scanner's, or Scanward's findings JSON) as a completed scan of
   * `target` instead of running a scan (POST /api/v1/imports, docs/imports.md).
   */
  importFile?: { path: string; format?: ImportFormat | undefined } | undefined;
  /** The CI run this job is (`acme/app run 123, attempt 1`), named on a report it records (`ci_run`). */
  ciRun?: string | undefined;
}

/** A scan that ended: completed with its findings, or failed, cancelled or timed out (and cancelled). */
export type FinishedScan =
  | { kind: 'completed'; scan: ScanRecord; links: ScanLinks; tool: ToolInfo; findings: Finding[] }
  | { kind: 'unsuccessful'; scan: ScanRecord; links: ScanLinks; timedOut: boolean; timeoutMs: number };

export type ScanOutcome =
  /** `wait: false`: the scan was created (or found) and not followed. */
  | { kind: 'started'; scanId: string; links: ScanLinks }
  /** The job was cancelled while the scan ran; the scan was cancelled too. */
  | { kind: 'aborted'; scanId: string; links: ScanLinks }
  | FinishedScan;

export interface ScanHooks {
  /** Told the scan id as soon as it is known (before waiting). */
  onScan?: ((scanId: string, links: ScanLinks) => void) | undefined;
}

export interface ScanSource {
  /**
   * Starts the scan (or attaches to `request.scanId`), follows it to its end within
   * `request.timeoutMs`, cancelling it when time runs out or the run is aborted, and reads
   * the findings of a completed scan. Throws on errors the scan cannot recover from (bad
   * credentials, a refused target, an unreachable service).
   */
  run(request: ScanRequest, hooks?: ScanHooks): Promise<ScanOutcome>;
}
