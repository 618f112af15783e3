import type { ServiceInputs } from '../core/inputs.ts';
import type { ScanRecord } from '../core/scan.ts';
import type { Log, ScanHooks, ScanOutcome, ScanRequest, ScanSource } from '../core/scan-source.ts';
import { ScanwardClient } from './client.ts';
import { acquireCredentials } from './credentials.ts';
import type { HttpDeps } from './http.ts';
import { followScan, TERMINAL, type StreamSettings } from './follow.ts';
import { importReport } from './import-report.ts';
import { cancelAtTimeout, cancelQuietly } from './scan-cancel.ts';
import { readFindings, serviceLinks, toolInfo } from './scan-results.ts';

/**
 * The remote scan source: the Scanward service runs the scan and the REST API reports it.
 * Start a scan (or attach to one given by `scan-id`), follow it to the end within
 * `timeout-minutes` (cancelling it when time runs out or the job is cancelled), and read the
 * findings of a completed scan. What the front ends do with the outcome (the verdict and its
 * reports) does not depend on this being the source. The parts: import-report.ts (`import-file`,
 * and a local scan's result recorded), follow.ts, scan-cancel.ts and scan-results.ts.
 */

export interface RemoteScanDeps {
  log: Log;
  http: HttpDeps;
  userAgent: string;
  /** Told every secret that should be masked (the key or token, a refreshed token). */
  onSecret: (secret: string) => void;
  /** Reads a report file to import (`import-file`); the front end does the file I/O. */
  readFile?: ((path: string) => Promise<Uint8Array>) | undefined;
  /** The runner's ID token for an audience (`auth: oidc`); only the Action has it. */
  idToken?: ((audience: string) => Promise<string>) | undefined;
  /** How the event stream is followed (follow.ts); tests shorten the stall bound. */
  stream?: Partial<StreamSettings> | undefined;
}

export function remoteScanSource(service: ServiceInputs, deps: RemoteScanDeps): ScanSource {
  const client = serviceClient(service, deps);
  return { run: (request, hooks) => runRemoteScan(deps, client, service.apiUrl, request, hooks) };
}

/** The typed client of the service, with its credentials acquired in the one place that does. */
export function serviceClient(
  service: ServiceInputs,
  deps: Pick<RemoteScanDeps, 'http' | 'userAgent' | 'onSecret' | 'idToken'>,
): ScanwardClient {
  return new ScanwardClient({
    baseUrl: service.apiUrl,
    credentials: acquireCredentials(service.auth, {
      baseUrl: service.apiUrl,
      http: deps.http,
      userAgent: deps.userAgent,
      onSecret: deps.onSecret,
      idToken: deps.idToken,
    }),
    http: deps.http,
    userAgent: deps.userAgent,
  });
}

async function runRemoteScan(
  deps: RemoteScanDeps,
  client: ScanwardClient,
  apiUrl: string,
  request: ScanRequest,
  hooks: ScanHooks = {},
): Promise<ScanOutcome> {
  const { log } = deps;
  const deadline = deps.http.now() + request.timeoutMs;
  if (request.importFile) return importReport(deps, client, apiUrl, request, hooks, deadline);

  const scanId = await startOrAttach(log, client, apiUrl, request, deadline);
  const links = serviceLinks(apiUrl, scanId);
  hooks.onScan?.(scanId, links);
  if (!request.wait) {
    if (request.scanId) await client.getScan(scanId, deadline); // a wrong scan-id still fails the step
    log.info(`wait is false: not waiting for scan ${scanId} to finish.`);
    return { kind: 'started', scanId, links };
  }
  return followToEnd(deps, client, apiUrl, request, scanId, deadline);
}

/** The scan `scan-id` names, or a new one of `target`: its id. */
async function startOrAttach(
  log: Log,
  client: ScanwardClient,
  apiUrl: string,
  request: ScanRequest,
  deadline: number,
): Promise<string> {
  if (request.scanId) {
    log.info(`Following Scanward scan ${request.scanId} (scan-id).`);
    return request.scanId;
  }
  log.debug(`Idempotency-Key: ${request.idempotencyKey}`);
  const created = await client.createScan(
    {
      target: request.target,
      scan_type: request.scanType,
      ports: request.ports,
      frameworks: request.frameworks,
      credential_checks: request.credentialChecks,
      web: request.web,
    },
    request.idempotencyKey,
    deadline,
  );
  const estimate = created.estimated_duration
    ? `, estimated ${Math.ceil(created.estimated_duration / 60)} min`
    : '';
  log.info(
    `Scanward scan ${created.id} of ${request.target} (${request.scanType}${estimate}): ${serviceLinks(apiUrl, created.id).scanUrl}`,
  );
  return created.id;
}

/** Follows the scan to its end, cancelling it at the deadline or when the step is cancelled. */
async function followToEnd(
  deps: RemoteScanDeps,
  client: ScanwardClient,
  apiUrl: string,
  request: ScanRequest,
  scanId: string,
  deadline: number,
): Promise<ScanOutcome> {
  const { log, http } = deps;
  const links = serviceLinks(apiUrl, scanId);
  const unsuccessful = (scan: ScanRecord, timedOut: boolean): ScanOutcome => ({
    kind: 'unsuccessful',
    scan,
    links,
    timedOut,
    timeoutMs: request.timeoutMs,
  });
  const completed = async (scan: ScanRecord): Promise<ScanOutcome> => {
    const findings = await readFindings(log, client, scan.id);
    return { kind: 'completed', scan, links, tool: await toolInfo(client, apiUrl), findings };
  };

  let scan: ScanRecord | undefined;
  try {
    const followed = await followScan(deps, client, scanId, request, deadline);
    scan = followed.scan;
    if (followed.timedOut) {
      const ended = await cancelAtTimeout(log, client, scan);
      if (!ended.timedOut && ended.scan.status === 'completed') return await completed(ended.scan);
      return unsuccessful(ended.scan, ended.timedOut);
    }
  } catch (error) {
    // The step is ending without a result: do not leave the scan holding a concurrency slot.
    if (!scan || !TERMINAL.has(scan.status)) await cancelQuietly(log, client, scanId);
    if (http.signal?.aborted) return { kind: 'aborted', scanId, links };
    throw error;
  }
  if (scan.status !== 'completed') return unsuccessful(scan, false);
  return completed(scan);
}
