import { dirname, resolve } from 'node:path';
import type { ActionCore } from './core.ts';
import { runUrl, splitRepository, type GitHubContext } from './context.ts';
import { isUserError } from './errors.ts';
import type { GitHubClient, Repository } from './github-api.ts';
import { httpDeps, type Fetch, type RetryPolicy, type Sleep } from './http.ts';
import { parseInputs, type ActionInputs } from './inputs.ts';
import type { Finding, ScanBody } from './responses.ts';
import {
  findingUrl,
  formatMinutes,
  judge,
  runScanFlow,
  type FlowDeps,
  type ServiceLinks,
} from './scan-flow.ts';
import { buildSarif } from './sarif.ts';
import { renderSummary } from './summary.ts';
import { scanCounts, type GateResult } from './threshold.ts';
import { ACTION_VERSION } from './version.ts';

/**
 * The GitHub Action: start a scan (or follow one), wait for it, turn its
 * findings into SARIF for code scanning, write the job summary, the outputs
 * and, on pull requests, one sticky comment; annotate and fail the step at
 * the gate. Everything from the outside world comes in through `deps`, so
 * tests run it against the real service and a fake GitHub without waiting.
 */

export interface ActionDeps {
  core: ActionCore;
  context: GitHubContext;
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
  /** The GitHub client's retry backoff unit (tests shorten it). */
  githubRetryBaseMs?: number | undefined;
  /** false: no throttling plugin, so tests do not wait a second between writes. */
  githubThrottle?: boolean | undefined;
}

export interface ActionResult {
  /** `failed` when the step was failed, for whatever reason. */
  outcome: 'passed' | 'failed' | 'started';
  scanId?: string | undefined;
  status?: string | undefined;
  timedOut?: boolean | undefined;
  gate?: GateResult | undefined;
  sarifPath?: string | undefined;
  uploadId?: string | undefined;
  comment?: 'created' | 'updated' | undefined;
}

export const USER_AGENT = `scanward-github-action/${ACTION_VERSION}`;
const DEFAULT_SARIF_PROCESSING = { attempts: 12, intervalMs: 5000 };
/** Annotations for at most this many findings; GitHub shows 10 per step and type anyway. */
export const MAX_ANNOTATIONS = 10;

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
  const { core, context } = deps;
  core.info(`Scanward Action ${ACTION_VERSION} on Node ${process.version}`);
  const { inputs, warnings } = parseInputs((name) => core.getInput(name), context);
  for (const warning of warnings) core.warning(warning);
  core.setSecret(
    inputs.credentials.kind === 'api-key' ? inputs.credentials.apiKey : inputs.credentials.token,
  );
  if (inputs.githubToken) core.setSecret(inputs.githubToken);

  const flowDeps: FlowDeps = {
    log: { info: (m) => core.info(m), warning: (m) => core.warning(m), debug: (m) => core.debug(m) },
    http: httpDeps(deps, (m) => core.info(m)),
    userAgent: USER_AGENT,
    onSecret: (secret) => core.setSecret(secret),
    onScan: (scanId, links) => {
      core.setOutput('scan-id', scanId);
      core.setOutput('report-url', links.reportUrl);
    },
  };
  const outcome = await core.group('Scanward scan', () => runScanFlow(flowDeps, inputs));

  switch (outcome.kind) {
    case 'started':
      core.setOutput('result', 'started');
      return { outcome: 'started', scanId: outcome.scanId };
    case 'aborted':
      core.setFailed(`The job was cancelled; Scanward scan ${outcome.scanId} was cancelled too.`);
      return { outcome: 'failed', scanId: outcome.scanId };
    case 'unsuccessful':
      return finishUnsuccessful(deps, inputs, outcome.scan, outcome.links, outcome.timedOut);
    case 'completed':
      return finishCompleted(
        deps,
        inputs,
        outcome.scan,
        outcome.links,
        outcome.findings,
        outcome.toolVersion,
      );
  }
}

async function finishUnsuccessful(
  deps: ActionDeps,
  inputs: ActionInputs,
  scan: ScanBody,
  links: ServiceLinks,
  timedOut: boolean,
): Promise<ActionResult> {
  const { core } = deps;
  setScanOutputs(core, scan);
  core.setOutput('result', 'failed');
  await appendSummary(
    core,
    renderSummary({ scan, counts: scanCounts(scan), timedOut, ...links, runUrl: runUrl(deps.context) }),
  );
  if (timedOut) {
    core.setFailed(
      `Scanward scan ${scan.id} did not finish within timeout-minutes (${formatMinutes(inputs.timeoutMs / 60_000)}) and was cancelled. ` +
        `Raise timeout-minutes, or use a quicker scan-type (quick scans take 5-10 minutes, full scans 30-60).`,
    );
    return { outcome: 'failed', scanId: scan.id, status: scan.status, timedOut: true };
  }
  const reason = scan.error ?? scan.message;
  core.setFailed(`Scanward scan ${scan.id} ${scan.status}${reason ? `: ${reason}` : ''}.`);
  return { outcome: 'failed', scanId: scan.id, status: scan.status };
}

async function finishCompleted(
  deps: ActionDeps,
  inputs: ActionInputs,
  scan: ScanBody,
  links: ServiceLinks,
  findings: Finding[],
  toolVersion: string,
): Promise<ActionResult> {
  const { core, context } = deps;
  setScanOutputs(core, scan);
  const verdict = judge(findings, inputs);
  const { gate } = verdict;
  core.setOutput('new-findings', String(verdict.newFindings.length));

  const repository = splitRepository(context.repository);
  const { log, omitted } = buildSarif(verdict.reported, {
    scanId: scan.id,
    target: scan.target,
    scanType: scan.scan_type,
    toolVersion,
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

  // Octokit is loaded only now, after the scan: it is most of the bundle, and the first
  // request to Scanward should not wait for it (docs/performance.md, "The Action's cold start").
  const { createGitHubClient, processingStatus, uploadSarif } = await import('./github-api.ts');
  const { commentMarker, renderComment, upsertComment } = await import('./pr-comment.ts');
  let github: GitHubClient | undefined;
  const githubClient = () =>
    (github ??= createGitHubClient({
      token: inputs.githubToken!,
      apiUrl: context.apiUrl,
      userAgent: USER_AGENT,
      log: (m) => core.info(m),
      retryBaseMs: deps.githubRetryBaseMs,
      throttle: deps.githubThrottle,
    }));

  const errors: unknown[] = [];
  let uploadText = 'not uploaded (upload-sarif: false)';
  let uploadId: string | undefined;
  if (inputs.uploadSarif) {
    try {
      const uploaded = await core.group('Upload to GitHub code scanning', () =>
        uploadToCodeScanning(deps, githubClient, { uploadSarif, processingStatus }, sarifText, scan),
      );
      uploadText = uploaded.text;
      uploadId = uploaded.id;
    } catch (error) {
      errors.push(error);
      uploadText = 'upload to code scanning failed (see the log)';
    }
  }

  let comment: 'created' | 'updated' | undefined;
  if (inputs.comment) {
    if (!context.pullRequest || !repository) {
      core.info('comment is true, but this is not a pull_request event: no pull request comment.');
    } else {
      try {
        const body = renderComment({
          target: scan.target,
          scanId: scan.id,
          scanUrl: links.scanUrl,
          newFindings: verdict.newFindings,
          gate,
          runUrl: runUrl(context),
          findingUrl: (id) => findingUrl(inputs.apiUrl, id),
        });
        const written = await upsertComment(
          githubClient(),
          repository,
          context.pullRequest.number,
          commentMarker(scan.target),
          body,
        );
        comment = written.action;
        core.setOutput('comment-url', written.url);
        core.info(`Pull request comment ${written.action}: ${written.url}`);
      } catch (error) {
        errors.push(error);
      }
    }
  }

  await appendSummary(
    core,
    renderSummary({
      scan,
      counts: scanCounts(scan),
      findings: verdict.reported,
      gate,
      ...links,
      runUrl: runUrl(context),
      sarif: { path: inputs.sarifFile, upload: uploadText },
    }),
  );

  core.info(gate.message);
  annotate(core, gate);
  let failed = gate.failed;
  for (const error of errors) {
    if (gate.failed) core.error(error instanceof Error ? error.message : String(error));
    else fail(core, error);
    failed = true;
  }
  if (gate.failed) core.setFailed(gate.message);
  core.setOutput('result', failed ? 'failed' : 'passed');
  return {
    outcome: failed ? 'failed' : 'passed',
    scanId: scan.id,
    status: scan.status,
    gate,
    sarifPath,
    uploadId,
    comment,
  };
}

/** One annotation per finding that failed the gate (errors for critical and high), at most MAX_ANNOTATIONS. */
function annotate(core: ActionCore, gate: GateResult): void {
  const shown = gate.failing.slice(0, MAX_ANNOTATIONS);
  for (const f of shown) {
    const text = `${f.title} on ${f.affected_component} (${f.severity}${f.change && f.change !== 'unchanged' ? `, ${f.change}` : ''}, finding ${f.id})`;
    const properties = { title: `Scanward: ${f.severity} finding` };
    if (f.severity === 'critical' || f.severity === 'high') core.error(text, properties);
    else core.warning(text, properties);
  }
  const more = gate.failing.length - shown.length;
  if (more > 0)
    core.error(`…and ${more} more finding(s) failed the gate; see the job summary.`, { title: 'Scanward' });
}

async function uploadToCodeScanning(
  deps: ActionDeps,
  github: () => GitHubClient,
  api: Pick<typeof import('./github-api.ts'), 'uploadSarif' | 'processingStatus'>,
  sarif: string,
  scan: ScanBody,
): Promise<{ text: string; id?: string }> {
  const { core, context } = deps;
  const repository: Repository | undefined = splitRepository(context.repository);
  if (!repository || !context.sha || !context.ref) {
    core.warning(
      'Not uploading SARIF: GITHUB_REPOSITORY, GITHUB_SHA or GITHUB_REF is not set (not running in GitHub Actions?).',
    );
    return { text: 'not uploaded (no GitHub repository, commit or ref)' };
  }
  const { id } = await api.uploadSarif(github(), repository, {
    sarif,
    commitSha: context.sha,
    ref: context.ref,
    startedAt: scan.started_at,
  });
  core.info(`SARIF uploaded to GitHub code scanning (upload ${id}); waiting for GitHub to process it.`);

  const { attempts, intervalMs } = deps.sarifProcessing ?? DEFAULT_SARIF_PROCESSING;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const status = await api.processingStatus(github(), repository, id);
    if (status.status === 'complete') {
      core.info('GitHub processed the SARIF upload; alerts are in the Security tab.');
      return { text: 'uploaded to code scanning and processed', id };
    }
    if (status.status === 'failed') {
      throw new Error(
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

function setScanOutputs(core: ActionCore, scan: ScanBody): void {
  core.setOutput('status', scan.status);
  core.setOutput('vulnerabilities-found', String(scan.vulnerabilities_found));
  core.setOutput('critical-count', String(scan.critical_count));
  core.setOutput('high-count', String(scan.high_count));
  core.setOutput('medium-count', String(scan.medium_count));
  core.setOutput('low-count', String(scan.low_count));
}

/** Appends to the job summary; outside a runner (no GITHUB_STEP_SUMMARY) there is none to write. */
async function appendSummary(core: ActionCore, markdown: string): Promise<void> {
  try {
    core.summary.addRaw(markdown, true);
    await core.summary.write();
  } catch (error) {
    core.debug(`No job summary written: ${error instanceof Error ? error.message : String(error)}`);
  }
}
