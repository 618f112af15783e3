import { ScanwardClient } from './client.ts';
import { ApiError, ConfigurationError } from './errors.ts';
import type { HttpDeps } from './http.ts';
import type { ActionInputs } from './inputs.ts';
import { ProgressLog } from './progress.ts';
import type { Finding, FindingRefBody, ScanBody } from './responses.ts';
import { TRIAGED_AWAY, atOrAbove, bySeverity, gateFindings, isNew, type GateResult } from './threshold.ts';
import { ACTION_VERSION } from './version.ts';

/**
 * What the GitHub Action and `scanward-ci` share: start a scan (or attach to
 * one given by `scan-id`), follow it to the end within `timeout-minutes`
 * (cancelling it when time runs out or the job is cancelled), and read the
 * findings of a completed scan. What each front end does with the outcome
 * (outputs, SARIF upload, comment; report files, exit codes) is its own.
 */

export interface Log {
  info(message: string): void;
  warning(message: string): void;
  debug(message: string): void;
}

export interface FlowDeps {
  log: Log;
  http: HttpDeps;
  userAgent: string;
  /** Told every secret that should be masked (a refreshed bearer token). */
  onSecret: (secret: string) => void;
  /** Told the scan id as soon as it is known (before waiting). */
  onScan?: ((scanId: string, links: ServiceLinks) => void) | undefined;
}

export interface ServiceLinks {
  scanUrl: string;
  reportUrl: string;
}

export type FlowOutcome =
  /** `wait: false`: the scan was created (or found) and not followed. */
  | { kind: 'started'; scanId: string; links: ServiceLinks }
  /** The scan failed, was cancelled, or timed out (and was cancelled). */
  | { kind: 'unsuccessful'; scan: ScanBody; links: ServiceLinks; timedOut: boolean }
  /** The job was cancelled while the scan ran; the scan was cancelled too. */
  | { kind: 'aborted'; scanId: string; links: ServiceLinks }
  | { kind: 'completed'; scan: ScanBody; links: ServiceLinks; findings: Finding[]; toolVersion: string };

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

export function createClient(deps: FlowDeps, inputs: ActionInputs): ScanwardClient {
  return new ScanwardClient({
    baseUrl: inputs.apiUrl,
    credentials: inputs.credentials,
    http: deps.http,
    userAgent: deps.userAgent,
    onSecret: deps.onSecret,
  });
}

export async function runScanFlow(deps: FlowDeps, inputs: ActionInputs): Promise<FlowOutcome> {
  const { log, http } = deps;
  const client = createClient(deps, inputs);
  const deadline = http.now() + inputs.timeoutMs;

  let scanId: string;
  if (inputs.scanId) {
    scanId = inputs.scanId;
    log.info(`Following Scanward scan ${scanId} (scan-id).`);
  } else {
    log.debug(`Idempotency-Key: ${inputs.idempotencyKey}`);
    const created = await client.createScan(
      {
        target: inputs.target,
        scan_type: inputs.scanType,
        ports: inputs.ports,
        frameworks: inputs.frameworks,
        credential_checks: inputs.credentialChecks,
      },
      inputs.idempotencyKey,
      deadline,
    );
    scanId = created.id;
    const estimate = created.estimated_duration
      ? `, estimated ${Math.ceil(created.estimated_duration / 60)} min`
      : '';
    log.info(
      `Scanward scan ${scanId} of ${inputs.target} (${inputs.scanType}${estimate}): ${serviceLinks(inputs.apiUrl, scanId).scanUrl}`,
    );
  }
  const links = serviceLinks(inputs.apiUrl, scanId);
  deps.onScan?.(scanId, links);
  if (!inputs.wait) {
    if (inputs.scanId) await client.getScan(scanId, deadline); // a wrong scan-id still fails the step
    log.info(`wait is false: not waiting for scan ${scanId} to finish.`);
    return { kind: 'started', scanId, links };
  }

  let scan: ScanBody | undefined;
  try {
    const followed = await follow(deps, client, scanId, inputs, deadline);
    scan = followed.scan;
    if (followed.timedOut) return await timedOut(deps, client, scan, links);
  } catch (error) {
    // The step is ending without a result: do not leave the scan holding a concurrency slot.
    if (!scan || !TERMINAL.has(scan.status)) await cancelQuietly(log, client, scanId);
    if (http.signal?.aborted) return { kind: 'aborted', scanId, links };
    throw error;
  }
  if (scan.status !== 'completed') return { kind: 'unsuccessful', scan, links, timedOut: false };
  return completed(deps, client, scan, links);
}

async function completed(
  deps: FlowDeps,
  client: ScanwardClient,
  scan: ScanBody,
  links: ServiceLinks,
): Promise<FlowOutcome> {
  const findings = await readFindings(deps.log, client, scan.id);
  const toolVersion = (await client.serviceVersion()) ?? ACTION_VERSION;
  return { kind: 'completed', scan, links, findings, toolVersion };
}

/** Polls until the scan ends or the deadline passes, logging changes only. */
async function follow(
  deps: FlowDeps,
  client: ScanwardClient,
  scanId: string,
  inputs: ActionInputs,
  deadline: number,
): Promise<{ scan: ScanBody; timedOut: boolean }> {
  const { http } = deps;
  const progress = new ProgressLog((line) => deps.log.info(line));
  let scan = await client.getScan(scanId, deadline);
  progress.report(scan);
  while (!TERMINAL.has(scan.status)) {
    const left = deadline - http.now();
    if (left <= 0) return { scan, timedOut: true };
    await http.sleep(Math.min(inputs.pollIntervalMs, left), http.signal);
    scan = await client.getScan(scanId, deadline);
    progress.report(scan);
  }
  return { scan, timedOut: false };
}

async function timedOut(
  deps: FlowDeps,
  client: ScanwardClient,
  running: ScanBody,
  links: ServiceLinks,
): Promise<FlowOutcome> {
  try {
    await client.cancelScan(running.id);
  } catch (error) {
    // Finished between the last poll and the cancel: use the result after all.
    if (error instanceof ApiError && error.code === 'SCAN_NOT_CANCELLABLE') {
      const scan = await client.getScan(running.id);
      if (scan.status === 'completed') return completed(deps, client, scan, links);
      return { kind: 'unsuccessful', scan, links, timedOut: false };
    }
    deps.log.warning(
      `Could not cancel scan ${running.id}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const scan = await client.getScan(running.id).catch(() => ({ ...running, status: 'cancelled' }));
  return { kind: 'unsuccessful', scan, links, timedOut: true };
}

/**
 * The scan's findings, each completed with its template id, CWE ids and
 * frameworks from the findings list when the per-scan list lacks them. That
 * second list needs `read:findings`; without it the SARIF falls back to
 * title-based rule ids, with a warning, rather than failing the build.
 */
async function readFindings(log: Log, client: ScanwardClient, scanId: string): Promise<Finding[]> {
  const findings = await client.listScanFindings(scanId);
  if (findings.length === 0 || findings.every((f) => f.template_id)) return findings;
  let refs: FindingRefBody[];
  try {
    refs = await client.listFindingRefs(scanId);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    log.warning(
      `Could not read the findings' template ids, so SARIF rules are named after titles: ${reason}`,
    );
    return findings;
  }
  const byId = new Map(refs.map((r) => [r.id, r]));
  return findings.map((f) => {
    const ref = byId.get(f.id);
    if (!ref) return f;
    return {
      ...f,
      template_id: f.template_id ?? ref.template_id,
      cwe_ids: f.cwe_ids ?? ref.cwe_ids,
      target: f.target ?? ref.target,
      frameworks: f.frameworks ?? ref.frameworks,
    };
  });
}

async function cancelQuietly(log: Log, client: ScanwardClient, scanId: string): Promise<void> {
  try {
    await client.cancelScan(scanId);
    log.info(`Cancelled scan ${scanId}.`);
  } catch (error) {
    log.debug(`Could not cancel scan ${scanId}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The scan in the API, and its PDF report (the findings export filtered to the scan). */
export function serviceLinks(apiUrl: string, scanId: string): ServiceLinks {
  const id = encodeURIComponent(scanId);
  return {
    scanUrl: `${apiUrl}/api/v1/scans/${id}`,
    reportUrl: `${apiUrl}/api/v1/findings/export?format=pdf&scan_id=${id}`,
  };
}

/** A finding in the API. */
export function findingUrl(apiUrl: string, findingId: string): string {
  return `${apiUrl}/api/v1/findings/${encodeURIComponent(findingId)}`;
}

export function formatMinutes(minutes: number): string {
  return minutes >= 1 ? `${Math.round(minutes * 10) / 10} min` : `${Math.round(minutes * 60)} s`;
}

export interface Verdict {
  gate: GateResult;
  /** The findings at or above report-severity (triaged ones included; SARIF leaves those out), most severe first. */
  reported: Finding[];
  /** The open findings this scan found first or reopened, at or above report-severity, most severe first. */
  newFindings: Finding[];
}

/** The gate and the report of a completed scan's findings, as the inputs ask. */
export function judge(
  findings: readonly Finding[],
  inputs: Pick<ActionInputs, 'failOn' | 'gate' | 'reportSeverity'>,
): Verdict {
  if (inputs.gate === 'new' && findings.some((f) => f.change === undefined)) {
    throw new ConfigurationError(
      'gate is new, but this Scanward service does not say which findings are new (no `change` in GET /api/v1/scans/{id}/findings). Upgrade the service, or use gate: all.',
    );
  }
  const reported = findings.filter((f) => atOrAbove(f, inputs.reportSeverity)).sort(bySeverity);
  return {
    gate: gateFindings(findings, inputs.failOn, inputs.gate),
    reported,
    newFindings: reported.filter((f) => isNew(f) && !TRIAGED_AWAY.has(f.status)),
  };
}
