import { dirname, resolve } from 'node:path';
import { ScanwardClient } from './client.ts';
import { processingStatus, uploadSarif, type CodeScanningTarget } from './code-scanning.ts';
import { readGitHubContext, runUrl, splitRepository, type Env, type GitHubContext } from './context.ts';
import { ApiError, isUserError } from './errors.ts';
import { DEFAULT_RETRY, type Fetch, type HttpDeps, type RetryPolicy, type Sleep } from './http.ts';
import { parseInputs, type ActionInputs } from './inputs.ts';
import { ProgressLog } from './progress.ts';
import type { Finding, FindingRefBody, ScanBody } from './responses.ts';
import type { ActionCore } from './runtime.ts';
import { buildSarif } from './sarif.ts';
import { renderSummary } from './summary.ts';
import { ACTION_VERSION } from './version.ts';
import { countOpenFindings, evaluateGate, scanCounts, type GateResult } from './threshold.ts';

/**
 * The Action: create a scan, follow it to the end, turn its findings into
 * SARIF for code scanning, write the job summary and outputs, and fail the
 * step at the severity threshold. Everything from the outside world comes in
 * through `deps`, so tests run it against local fakes without waiting.
 */

export interface ActionDeps {
  core: ActionCore;
  env: Env;
  fetch: Fetch;
  sleep: Sleep;
  now: () => number;
  writeFile: (path: string, data: string) => Promise<void>;
  mkdir: (path: string) => Promise<void>;
  /** Relative paths (sarif-file) resolve against this: the workspace on a runner. */
  cwd: string;
  /** Aborted when the job is cancelled. */
  signal?: AbortSignal | undefined;
  retry?: RetryPolicy | undefined;
  /** How long to watch GitHub process the upload. */
  sarifProcessing?: { attempts: number; intervalMs: number } | undefined;
}

export interface ActionResult {
  /** `failed` when the step was failed, for whatever reason. */
  outcome: 'passed' | 'failed';
  scanId?: string | undefined;
  status?: string | undefined;
  timedOut?: boolean | undefined;
  gate?: GateResult | undefined;
  sarifPath?: string | undefined;
  uploadId?: string | undefined;
}

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
const USER_AGENT = `scanward-github-action/${ACTION_VERSION}`;
const DEFAULT_SARIF_PROCESSING = { attempts: 12, intervalMs: 5000 };

export async function run(deps: ActionDeps): Promise<ActionResult> {
  try {
    return await runAction(deps);
  } catch (error) {
    fail(deps.core, error);
    return { outcome: 'failed' };
  }
}

/** Reports an error the way its kind deserves: user mistakes plainly, internal failures with a hint. */
function fail(core: ActionCore, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  if (isUserError(error)) {
    core.setFailed(message);
    return;
  }
  if (error instanceof Error && error.stack) core.debug(error.stack);
  core.setFailed(
    `${message}\nThe Scanward Action failed unexpectedly. Re-run the job; if it keeps failing, report it with the step's debug log (ACTIONS_STEP_DEBUG=true).`,
  );
}

async function runAction(deps: ActionDeps): Promise<ActionResult> {
  const { core } = deps;
  const context = readGitHubContext(deps.env);
  const { inputs, warnings } = parseInputs(core.getInput, context);
  for (const warning of warnings) core.warning(warning);
  core.setSecret(
    inputs.credentials.kind === 'api-key' ? inputs.credentials.apiKey : inputs.credentials.token,
  );
  if (inputs.githubToken) core.setSecret(inputs.githubToken);

  const client = new ScanwardClient({
    baseUrl: inputs.apiUrl,
    credentials: inputs.credentials,
    http: httpDeps(deps),
    userAgent: USER_AGENT,
    onSecret: (secret) => core.setSecret(secret),
  });

  const deadline = deps.now() + inputs.timeoutMs;
  core.debug(`Idempotency-Key: ${inputs.idempotencyKey}`);
  const created = await client.createScan(
    { target: inputs.target, scan_type: inputs.scanType, ports: inputs.ports, frameworks: inputs.frameworks },
    inputs.idempotencyKey,
    deadline,
  );
  const scanId = created.id;
  const links = serviceLinks(inputs.apiUrl, scanId);
  core.setOutput('scan-id', scanId);
  core.setOutput('report-url', links.reportUrl);
  const estimate = created.estimated_duration
    ? `, estimated ${Math.ceil(created.estimated_duration / 60)} min`
    : '';
  core.info(`Scanward scan ${scanId} of ${inputs.target} (${inputs.scanType}${estimate}): ${links.scanUrl}`);

  let scan: ScanBody | undefined;
  try {
    const followed = await follow(deps, client, scanId, inputs, deadline);
    scan = followed.scan;
    if (followed.timedOut) return await finishTimedOut(deps, client, scan, inputs, links, context);
  } catch (error) {
    // The step is ending without a result: do not leave the scan holding a concurrency slot.
    if (!scan || !TERMINAL.has(scan.status)) await cancelQuietly(core, client, scanId);
    if (deps.signal?.aborted) {
      core.setFailed(`The job was cancelled; Scanward scan ${scanId} was cancelled too.`);
      return { outcome: 'failed', scanId };
    }
    throw error;
  }

  setScanOutputs(core, scan);
  if (scan.status !== 'completed') return finishUnsuccessful(deps, scan, links, context);
  return finishCompleted(deps, client, scan, inputs, links, context);
}

/** Polls until the scan ends or the deadline passes, logging changes only. */
async function follow(
  deps: ActionDeps,
  client: ScanwardClient,
  scanId: string,
  inputs: ActionInputs,
  deadline: number,
): Promise<{ scan: ScanBody; timedOut: boolean }> {
  const progress = new ProgressLog((line) => deps.core.info(line));
  let scan = await client.getScan(scanId, deadline);
  progress.report(scan);
  while (!TERMINAL.has(scan.status)) {
    const left = deadline - deps.now();
    if (left <= 0) return { scan, timedOut: true };
    await deps.sleep(Math.min(inputs.pollIntervalMs, left), deps.signal);
    scan = await client.getScan(scanId, deadline);
    progress.report(scan);
  }
  return { scan, timedOut: false };
}

async function finishTimedOut(
  deps: ActionDeps,
  client: ScanwardClient,
  running: ScanBody,
  inputs: ActionInputs,
  links: ServiceLinks,
  context: GitHubContext,
): Promise<ActionResult> {
  const { core } = deps;
  const minutes = inputs.timeoutMs / 60_000;
  try {
    await client.cancelScan(running.id);
  } catch (error) {
    // Finished between the last poll and the cancel: use the result after all.
    if (error instanceof ApiError && error.code === 'SCAN_NOT_CANCELLABLE') {
      const scan = await client.getScan(running.id);
      setScanOutputs(core, scan);
      if (scan.status === 'completed') {
        return finishCompleted(deps, client, scan, inputs, links, context);
      }
      return finishUnsuccessful(deps, scan, links, context);
    }
    core.warning(
      `Could not cancel scan ${running.id}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const scan = await client.getScan(running.id).catch(() => ({ ...running, status: 'cancelled' }));
  setScanOutputs(core, scan);
  await core.appendSummary(
    renderSummary({ scan, counts: scanCounts(scan), timedOut: true, ...links, runUrl: runUrl(context) }),
  );
  core.setFailed(
    `Scanward scan ${scan.id} did not finish within timeout-minutes (${formatMinutes(minutes)}) and was cancelled. ` +
      `Raise timeout-minutes, or use a quicker scan-type (quick scans take 5-10 minutes, full scans 30-60).`,
  );
  return { outcome: 'failed', scanId: scan.id, status: scan.status, timedOut: true };
}

async function finishUnsuccessful(
  deps: ActionDeps,
  scan: ScanBody,
  links: ServiceLinks,
  context: GitHubContext,
): Promise<ActionResult> {
  await deps.core.appendSummary(
    renderSummary({ scan, counts: scanCounts(scan), ...links, runUrl: runUrl(context) }),
  );
  const reason = scan.error ?? scan.message;
  deps.core.setFailed(`Scanward scan ${scan.id} ${scan.status}${reason ? `: ${reason}` : ''}.`);
  return { outcome: 'failed', scanId: scan.id, status: scan.status };
}

async function finishCompleted(
  deps: ActionDeps,
  client: ScanwardClient,
  scan: ScanBody,
  inputs: ActionInputs,
  links: ServiceLinks,
  context: GitHubContext,
): Promise<ActionResult> {
  const { core } = deps;
  const findings = await readFindings(core, client, scan.id);
  const open = countOpenFindings(findings);
  const gate = evaluateGate(open.counts, inputs.failOn, open.ignored);

  const repository = splitRepository(context.repository);
  const { log, omitted } = buildSarif(findings, {
    scanId: scan.id,
    target: scan.target,
    scanType: scan.scan_type,
    toolVersion: (await client.serviceVersion()) ?? ACTION_VERSION,
    informationUri: `${inputs.apiUrl}/docs`,
    scanUrl: links.scanUrl,
    startedAt: scan.started_at,
    completedAt: scan.completed_at,
    repository: repository
      ? { uri: `${context.serverUrl}/${context.repository}`, revisionId: context.sha, branch: context.ref }
      : undefined,
  });
  if (omitted > 0)
    core.warning(`${omitted} finding(s) left out of the SARIF file: GitHub accepts at most 25,000 results.`);
  const sarifText = JSON.stringify(log, null, 2);
  const sarifPath = resolve(deps.cwd, inputs.sarifFile);
  await deps.mkdir(dirname(sarifPath));
  await deps.writeFile(sarifPath, sarifText);
  core.setOutput('sarif-file', sarifPath);
  core.info(`SARIF with ${log.runs[0]!.results.length} result(s) written to ${sarifPath}`);

  let uploadText = 'not uploaded (upload-sarif: false)';
  let uploadError: unknown;
  let uploadId: string | undefined;
  if (inputs.uploadSarif) {
    try {
      const uploaded = await uploadToCodeScanning(deps, inputs, context, sarifText, scan);
      uploadText = uploaded.text;
      uploadId = uploaded.id;
    } catch (error) {
      uploadError = error;
      uploadText = 'upload to code scanning failed (see the log)';
    }
  }

  await core.appendSummary(
    renderSummary({
      scan,
      counts: scanCounts(scan),
      findings,
      gate,
      ...links,
      runUrl: runUrl(context),
      sarif: { path: inputs.sarifFile, upload: uploadText },
    }),
  );

  core.info(gate.message);
  let failed = false;
  if (uploadError !== undefined) {
    failed = true;
    const message = uploadError instanceof Error ? uploadError.message : String(uploadError);
    if (gate.failed) core.error(message);
    else fail(core, uploadError);
  }
  if (gate.failed) {
    failed = true;
    core.setFailed(gate.message);
  }
  return {
    outcome: failed ? 'failed' : 'passed',
    scanId: scan.id,
    status: scan.status,
    gate,
    sarifPath,
    uploadId,
  };
}

/**
 * The scan's findings, each completed with its template id, CWE ids and
 * frameworks from the findings list when the per-scan list lacks them. That
 * second list needs `read:findings`; without it the SARIF falls back to
 * title-based rule ids, with a warning, rather than failing the build.
 */
async function readFindings(core: ActionCore, client: ScanwardClient, scanId: string): Promise<Finding[]> {
  const findings = await client.listScanFindings(scanId);
  if (findings.length === 0 || findings.every((f) => f.template_id)) return findings;
  let refs: FindingRefBody[];
  try {
    refs = await client.listFindingRefs(scanId);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    core.warning(
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

async function uploadToCodeScanning(
  deps: ActionDeps,
  inputs: ActionInputs,
  context: GitHubContext,
  sarif: string,
  scan: ScanBody,
): Promise<{ text: string; id?: string }> {
  const { core } = deps;
  const repository = splitRepository(context.repository);
  if (!repository || !context.sha || !context.ref) {
    core.warning(
      'Not uploading SARIF: GITHUB_REPOSITORY, GITHUB_SHA or GITHUB_REF is not set (not running in GitHub Actions?).',
    );
    return { text: 'not uploaded (no GitHub repository, commit or ref)' };
  }
  const target: CodeScanningTarget = {
    apiUrl: context.apiUrl,
    token: inputs.githubToken!,
    ...repository,
    http: httpDeps(deps),
    userAgent: USER_AGENT,
  };
  const { id } = await uploadSarif(target, {
    sarif,
    commitSha: context.sha,
    ref: context.ref,
    startedAt: scan.started_at,
  });
  core.info(`SARIF uploaded to GitHub code scanning (upload ${id}); waiting for GitHub to process it.`);

  const { attempts, intervalMs } = deps.sarifProcessing ?? DEFAULT_SARIF_PROCESSING;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const status = await processingStatus(target, id);
    if (status.status === 'complete') {
      core.info('GitHub processed the SARIF upload; alerts are in the Security tab.');
      return { text: 'uploaded to code scanning and processed', id };
    }
    if (status.status === 'failed') {
      throw new ApiError(
        'GitHub',
        422,
        'SARIF_PROCESSING_FAILED',
        `GitHub could not process the SARIF upload ${id}: ${status.errors.join('; ') || 'no reason given'}`,
      );
    }
    if (attempt < attempts) await deps.sleep(intervalMs, deps.signal);
  }
  core.info(
    `GitHub is still processing SARIF upload ${id}; the alerts will appear in the Security tab shortly.`,
  );
  return { text: 'uploaded to code scanning (still processing)', id };
}

function httpDeps(deps: ActionDeps): HttpDeps {
  return {
    fetch: deps.fetch,
    sleep: deps.sleep,
    now: deps.now,
    retry: deps.retry ?? DEFAULT_RETRY,
    signal: deps.signal,
    onRetry: (message) => deps.core.info(message),
  };
}

function setScanOutputs(core: ActionCore, scan: ScanBody): void {
  core.setOutput('status', scan.status);
  core.setOutput('vulnerabilities-found', String(scan.vulnerabilities_found));
  core.setOutput('critical-count', String(scan.critical_count));
  core.setOutput('high-count', String(scan.high_count));
  core.setOutput('medium-count', String(scan.medium_count));
  core.setOutput('low-count', String(scan.low_count));
}

async function cancelQuietly(core: ActionCore, client: ScanwardClient, scanId: string): Promise<void> {
  try {
    await client.cancelScan(scanId);
    core.info(`Cancelled scan ${scanId}.`);
  } catch (error) {
    core.debug(`Could not cancel scan ${scanId}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

interface ServiceLinks {
  scanUrl: string;
  reportUrl: string;
}

/** The scan in the API, and its PDF report (the findings export filtered to the scan). */
export function serviceLinks(apiUrl: string, scanId: string): ServiceLinks {
  const id = encodeURIComponent(scanId);
  return {
    scanUrl: `${apiUrl}/api/v1/scans/${id}`,
    reportUrl: `${apiUrl}/api/v1/findings/export?format=pdf&scan_id=${id}`,
  };
}

function formatMinutes(minutes: number): string {
  return minutes >= 1 ? `${Math.round(minutes * 10) / 10} min` : `${Math.round(minutes * 60)} s`;
}
