import { ApiError, ConfigurationError } from '../core/errors.ts';
import type { ServiceInputs } from '../core/inputs.ts';
import type { Finding, ScanLinks, ScanRecord, ToolInfo } from '../core/scan.ts';
import type { ImportFormat } from '../../server/schemas/imports.ts';
import type {
  FinishedScan,
  Log,
  ScanHooks,
  ScanOutcome,
  ScanRequest,
  ScanSource,
} from '../core/scan-source.ts';
import { ACTION_VERSION } from '../core/version.ts';
import { ScanwardClient } from './client.ts';
import { acquireCredentials } from './credentials.ts';
import type { HttpDeps } from './http.ts';
import { followScan, TERMINAL, type StreamSettings } from './follow.ts';
import type { FindingRefBody } from './responses.ts';

/**
 * The remote scan source: the Scanward service runs the scan and the REST API reports it.
 * Start a scan (or attach to one given by `scan-id`), follow it to the end within
 * `timeout-minutes` (cancelling it when time runs out or the job is cancelled), and read the
 * findings of a completed scan. What the front ends do with the outcome (the verdict and its
 * reports) does not depend on this being the source.
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
  const { log, http } = deps;
  const deadline = http.now() + request.timeoutMs;
  if (request.importFile) return importReport(deps, client, apiUrl, request, hooks, deadline);

  let scanId: string;
  if (request.scanId) {
    scanId = request.scanId;
    log.info(`Following Scanward scan ${scanId} (scan-id).`);
  } else {
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
    scanId = created.id;
    const estimate = created.estimated_duration
      ? `, estimated ${Math.ceil(created.estimated_duration / 60)} min`
      : '';
    log.info(
      `Scanward scan ${scanId} of ${request.target} (${request.scanType}${estimate}): ${serviceLinks(apiUrl, scanId).scanUrl}`,
    );
  }
  const links = serviceLinks(apiUrl, scanId);
  hooks.onScan?.(scanId, links);
  if (!request.wait) {
    if (request.scanId) await client.getScan(scanId, deadline); // a wrong scan-id still fails the step
    log.info(`wait is false: not waiting for scan ${scanId} to finish.`);
    return { kind: 'started', scanId, links };
  }

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

/**
 * `import-file`: the report is sent to the import API, which answers with the completed scan
 * it recorded; its findings are then read exactly as a completed scan's are.
 */
async function importReport(
  deps: RemoteScanDeps,
  client: ScanwardClient,
  apiUrl: string,
  request: ScanRequest,
  hooks: ScanHooks,
  deadline: number,
): Promise<ScanOutcome> {
  const file = request.importFile!;
  if (!deps.readFile) throw new Error('this front end cannot read report files');
  let report: Uint8Array;
  try {
    report = await deps.readFile(file.path);
  } catch (error) {
    throw new ConfigurationError(
      `\`import-file\` ${file.path} cannot be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return recordReport(
    deps.log,
    client,
    apiUrl,
    report,
    {
      target: request.target,
      scanType: request.scanType,
      format: file.format,
      reportName: file.path.split(/[\\/]/).pop(),
      ciRun: request.ciRun,
      what: `Imported ${file.path}`,
      idempotencyKey: request.idempotencyKey,
    },
    hooks,
    deadline,
  );
}

/**
 * Sends a report to the import API as a completed scan of `target` and reads that scan's
 * findings back exactly as a completed scan's are (so `change` is the service's: new, unchanged,
 * reopened for that target). `import-file` and the local engine's result both come this way.
 */
export async function recordReport(
  log: Log,
  client: ScanwardClient,
  apiUrl: string,
  report: Uint8Array,
  input: {
    target: string;
    scanType: string;
    format?: ImportFormat | undefined;
    /** What was done, for the log line: `Imported nuclei.json`. */
    what: string;
    /** Makes a retried import answer the scan already recorded. */
    idempotencyKey: string;
    /** The report's file name and the CI run, shown with the imported scan (`report_name`, `ci_run`). */
    reportName?: string | undefined;
    ciRun?: string | undefined;
  },
  hooks: ScanHooks,
  deadline: number,
): Promise<FinishedScan> {
  const scan = await client.importReport(
    report,
    {
      target: input.target,
      scan_type: input.scanType,
      format: input.format,
      report_name: input.reportName,
      ci_run: input.ciRun,
    },
    input.idempotencyKey,
    deadline,
  );
  const links = serviceLinks(apiUrl, scan.id);
  log.info(`${input.what} as Scanward scan ${scan.id} of ${input.target}: ${links.scanUrl}`);
  hooks.onScan?.(scan.id, links);
  const findings = await readFindings(log, client, scan.id);
  return { kind: 'completed', scan, links, tool: await toolInfo(client, apiUrl), findings };
}

/**
 * Cancels a scan that ran out of time. When it finished between the last poll and the
 * cancel, its own end counts (a completed scan's result is used after all).
 */
async function cancelAtTimeout(
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

/** The service version from /api/health (the Action's own when it does not say) and its documentation. */
async function toolInfo(client: ScanwardClient, apiUrl: string): Promise<ToolInfo> {
  return { version: (await client.serviceVersion()) ?? ACTION_VERSION, informationUri: `${apiUrl}/docs` };
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

/**
 * The scan's and a finding's pages in the console (served by the service at its own address:
 * `/scans/:id`, `/findings/:id`, console/src/routes.tsx), and the scan's PDF report (the
 * findings export filtered to the scan).
 */
export function serviceLinks(apiUrl: string, scanId: string): ScanLinks {
  const id = encodeURIComponent(scanId);
  return {
    scanUrl: `${apiUrl}/scans/${id}`,
    reportUrl: `${apiUrl}/api/v1/findings/export?format=pdf&scan_id=${id}`,
    findingUrl: (findingId) => `${apiUrl}/findings/${encodeURIComponent(findingId)}`,
  };
}
