import {
  LOCAL_TARGET_ERROR,
  type LocalEngine,
  type LocalFinding,
  type LocalScanReport,
} from '../../server/schemas/local-scan.ts';
import { ConfigurationError } from '../core/errors.ts';
import type { LocalInputs, ServiceInputs } from '../core/inputs.ts';
import type { Finding, ScanLinks, ScanRecord, SeverityCounts } from '../core/scan.ts';
import { emptyCounts } from '../core/scan.ts';
import type { Log, ScanHooks, ScanOutcome, ScanRequest, ScanSource } from '../core/scan-source.ts';
import { ACTION_VERSION } from '../core/version.ts';
import type { HttpDeps } from '../service/http.ts';
import { recordReport } from '../service/import-report.ts';
import { serviceClient } from '../service/remote-scan.ts';

/**
 * The local scan source (`mode: local`, `scanward-ci scan --local`): Scanward's engine runs in
 * this process, inside the CI job, against a service only the job can reach
 * (`http://localhost:8080`). The engine is the bundle `dist/local/engine.mjs`, built from
 * server/local-scan/ and loaded at run time (the front end says how: `loadEngine`), so the
 * Action's own bundle stays the remote client it was.
 *
 * With a service named (`api-url` and a credential), the engine's findings are recorded there
 * through the import API (format `scanward`) as a completed scan of `asset`, and read back like
 * any completed scan's: the service's lifecycle says which are new, so `gate: new` compares this
 * run with what the service knows of the asset. Without one, every finding is new and the
 * scan's links point at `reportUrl` (the job's own page, or the target).
 *
 * What comes out is a `FinishedScan` like the remote source's: the verdict and every report
 * (SARIF, JUnit, JSON, summary, comment, gate) are the same code.
 */

export interface LocalScanDeps {
  log: Log;
  /** Loads the engine bundle (dist/local/engine.mjs beside the front end's bundle). */
  loadEngine: () => Promise<LocalEngine>;
  /** Milliseconds since the step started (the process's start), for the first-probe line. */
  sinceStart: () => number;
  /** The service to record the result on, with how to reach it; undefined: nothing is recorded. */
  service?: {
    inputs: ServiceInputs;
    http: HttpDeps;
    userAgent: string;
    onSecret: (secret: string) => void;
    /** The runner's ID token for an audience (`auth: oidc`); only the Action has it. */
    idToken?: ((audience: string) => Promise<string>) | undefined;
  };
  /** Where a person reads about a run that was not recorded (the job's page); default the target. */
  runUrl?: string | undefined;
  /** Where the engine keeps its compiled-template cache (the runner's temporary directory). */
  cacheDir?: string | undefined;
  signal?: AbortSignal | undefined;
}

export function localScanSource(local: LocalInputs, deps: LocalScanDeps): ScanSource {
  return { run: (request, hooks) => runLocalScan(local, deps, request, hooks) };
}

async function runLocalScan(
  local: LocalInputs,
  deps: LocalScanDeps,
  request: ScanRequest,
  hooks: ScanHooks = {},
): Promise<ScanOutcome> {
  const { log } = deps;
  const engine = await deps.loadEngine();
  const engineStarted = deps.sinceStart();
  // The step's own time limit, as for a remote scan: the scan is stopped and the step fails.
  const timeout = AbortSignal.timeout(request.timeoutMs);
  const signal = deps.signal ? AbortSignal.any([deps.signal, timeout]) : timeout;
  let report: LocalScanReport;
  try {
    report = await engine.runLocalScan({
      target: request.target,
      scanType: request.scanType,
      credentialChecks: request.credentialChecks,
      ...(request.web ? { web: request.web } : {}),
      cacheDir: deps.cacheDir,
      log: (line) => log.info(line),
      signal,
    });
  } catch (error) {
    if (error instanceof Error && error.name === LOCAL_TARGET_ERROR)
      throw new ConfigurationError(error.message);
    if (deps.signal?.aborted) return { kind: 'aborted', scanId: 'local', links: localLinks(deps, request) };
    if (timeout.aborted) {
      return {
        kind: 'unsuccessful',
        scan: { ...scanRecord(request.target, request.scanType, emptyCounts()), status: 'cancelled' },
        links: localLinks(deps, request),
        timedOut: true,
        timeoutMs: request.timeoutMs,
      };
    }
    throw error;
  }
  if (report.first_probe_ms !== null) {
    log.info(
      `First probe ${Math.round(engineStarted + report.first_probe_ms)} ms after the step started; ` +
        `${report.findings.length} finding(s).`,
    );
  }
  for (const note of report.notes) log.debug(note);

  if (deps.service) return recordOnService(deps.service, local, log, request, report, hooks);
  return finishedHere(deps, request, report, hooks);
}

/** The engine's findings recorded on the service as a completed scan of `asset`, and read back. */
function recordOnService(
  service: NonNullable<LocalScanDeps['service']>,
  local: LocalInputs,
  log: Log,
  request: ScanRequest,
  report: LocalScanReport,
  hooks: ScanHooks,
): Promise<ScanOutcome> {
  const { inputs, ...clientDeps } = service;
  const client = serviceClient(inputs, clientDeps);
  const body = new TextEncoder().encode(JSON.stringify({ findings: report.findings }));
  return recordReport(
    log,
    client,
    inputs.apiUrl,
    body,
    {
      target: local.asset,
      scanType: report.scan_type,
      format: 'scanward',
      reportName: 'scanward-local.json',
      ciRun: request.ciRun,
      what: `Recorded the local scan of ${report.target}`,
      idempotencyKey: request.idempotencyKey,
    },
    hooks,
    clientDeps.http.now() + request.timeoutMs,
  );
}

/** With no service named: every finding is new, and the links point at the run's page. */
function finishedHere(
  deps: LocalScanDeps,
  request: ScanRequest,
  report: LocalScanReport,
  hooks: ScanHooks,
): ScanOutcome {
  const findings = report.findings.map(asFinding);
  const counts = emptyCounts();
  for (const f of findings) counts[f.severity] += 1;
  const scan: ScanRecord = {
    ...scanRecord(report.target, report.scan_type, counts),
    started_at: report.started_at,
    completed_at: report.completed_at,
  };
  const links = localLinks(deps, request);
  hooks.onScan?.(scan.id, links);
  return {
    kind: 'completed',
    scan,
    links,
    tool: { version: ACTION_VERSION, informationUri: deps.runUrl ?? report.target },
    findings,
  };
}

/** A scan record for a scan the service never saw. */
function scanRecord(target: string, scanType: string, counts: SeverityCounts): ScanRecord {
  return {
    id: 'local',
    target,
    scan_type: scanType,
    status: 'completed',
    progress: 100,
    phase: 'complete',
    vulnerabilities_found: counts.critical + counts.high + counts.medium + counts.low,
    critical_count: counts.critical,
    high_count: counts.high,
    medium_count: counts.medium,
    low_count: counts.low,
    info_count: counts.info,
  };
}

function localLinks(deps: LocalScanDeps, request: ScanRequest): ScanLinks {
  const url = deps.runUrl ?? request.target;
  return { scanUrl: url, reportUrl: url, findingUrl: () => url };
}

/** An engine finding as the reports read findings: open, and new (there is no history here). */
function asFinding(f: LocalFinding): Finding {
  return {
    id: f.id,
    title: f.title,
    severity: f.severity,
    cvss_score: f.cvss_score,
    status: 'open',
    tool: f.tool,
    affected_component: f.affected_component,
    description: f.description,
    remediation: f.remediation?.summary || null,
    cve_ids: f.cve_ids,
    change: 'new',
    template_id: f.template_id,
    cwe_ids: f.cwe_ids,
    target: f.target,
    frameworks: f.frameworks,
  };
}
