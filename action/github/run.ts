import { dirname, resolve } from 'node:path';
import { isUserError } from '../core/errors.ts';
import { parseInputs, webSecrets, type ActionInputs } from '../core/inputs.ts';
import type { GateResult } from '../core/gate.ts';
import { judge, type CompletedVerdict, type UnsuccessfulVerdict } from '../core/verdict.ts';
import { ACTION_VERSION } from '../core/version.ts';
import { annotations } from '../reports/annotations.ts';
import { commentMarker, renderComment } from '../reports/comment.ts';
import { actionInputName, failureMessage } from '../reports/messages.ts';
import { verdictOutputs } from '../reports/outputs.ts';
import { sarifReport } from '../reports/sarif.ts';
import { renderSummary, type UploadState } from '../reports/summary.ts';
import { httpDeps, type Fetch, type RetryPolicy, type Sleep } from '../service/http.ts';
import { remoteScanSource } from '../service/remote-scan.ts';
import { localScanSource } from '../local/local-scan.ts';
import type { LocalEngine } from '../../server/schemas/local-scan.ts';
import type { GitHubClient } from './api.ts';
import { runUrl, splitRepository, type GitHubContext } from './context.ts';
import type { ActionCore } from './core.ts';

/**
 * The GitHub Action: run the scan through its source, judge the finished scan against the
 * gate (one verdict), and publish what the pure report builders make of the verdict: the
 * outputs, the SARIF file and its upload to code scanning, the sticky pull request comment,
 * the job summary, the annotations, and the step's failure. Everything from the outside world
 * comes in through `deps`, so tests run it against a fake service and a fake GitHub without
 * waiting.
 */

export interface ActionDeps {
  core: ActionCore;
  context: GitHubContext;
  fetch: Fetch;
  sleep: Sleep;
  now: () => number;
  writeFile: (path: string, data: string) => Promise<void>;
  mkdir: (path: string) => Promise<void>;
  /** Reads a report to import (`import-file`). */
  readFile?: ((path: string) => Promise<Uint8Array>) | undefined;
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
  /** Whether the runner can mint an ID token (ACTIONS_ID_TOKEN_REQUEST_URL is set: the job has `id-token: write`). */
  idTokenAvailable?: boolean | undefined;
  /** Loads the local engine (`mode: local`): dist/local/engine.mjs beside the bundle. */
  loadEngine?: (() => Promise<LocalEngine>) | undefined;
  /** Milliseconds since the step started, for the local engine's first-probe line. */
  sinceStart?: (() => number) | undefined;
  /** Where the local engine keeps its compiled-template cache (RUNNER_TEMP). */
  cacheDir?: string | undefined;
}

async function missingEngine(): Promise<LocalEngine> {
  throw new Error('this build of the Action has no local engine (dist/local/engine.mjs)');
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

export async function run(deps: ActionDeps): Promise<ActionResult> {
  try {
    return await runAction(deps);
  } catch (error) {
    failStep(deps.core, error);
    return { outcome: 'failed' };
  }
}

/** Reports an error the way its kind deserves: user mistakes plainly, internal failures with a hint. */
function failStep(core: ActionCore, error: unknown): void {
  if (isUserError(error)) {
    core.setFailed(messageOf(error));
    return;
  }
  if (error instanceof Error && error.stack) core.debug(error.stack);
  core.setFailed(
    `${messageOf(error)}\nThe Scanward Action failed unexpectedly. Re-run the job; if it keeps failing, report it with the step's debug log (ACTIONS_STEP_DEBUG=true).`,
  );
}

async function runAction(deps: ActionDeps): Promise<ActionResult> {
  const { core, context } = deps;
  core.info(`Scanward Action ${ACTION_VERSION} on Node ${process.version}`);
  const { inputs, warnings } = parseInputs((name) => core.getInput(name), context, {
    idTokenAvailable: deps.idTokenAvailable,
  });
  // The web log-in's password and header values are masked before anything else is logged.
  for (const secret of webSecrets(inputs.scan.web)) core.setSecret(secret);
  for (const warning of warnings) core.warning(warning);
  if (inputs.github.githubToken) core.setSecret(inputs.github.githubToken);

  const log = {
    info: (m: string) => core.info(m),
    warning: (m: string) => core.warning(m),
    debug: (m: string) => core.debug(m),
  };
  const http = httpDeps(deps, (m) => core.info(m));
  const onSecret = (secret: string) => core.setSecret(secret);
  const source =
    inputs.mode === 'local'
      ? localScanSource(inputs.local!, {
          log,
          loadEngine: deps.loadEngine ?? missingEngine,
          sinceStart: deps.sinceStart ?? (() => 0),
          service: inputs.service && {
            inputs: inputs.service,
            http,
            userAgent: USER_AGENT,
            onSecret,
            idToken: (audience: string) => core.getIDToken(audience),
          },
          runUrl: runUrl(context),
          cacheDir: deps.cacheDir,
          signal: deps.signal,
        })
      : remoteScanSource(inputs.service!, {
          log,
          http,
          userAgent: USER_AGENT,
          onSecret,
          idToken: (audience) => core.getIDToken(audience),
          readFile: deps.readFile && ((path) => deps.readFile!(resolve(deps.cwd, path))),
        });
  const outcome = await core.group(
    inputs.mode === 'local' ? 'Scanward scan in this job' : 'Scanward scan',
    () =>
      source.run(inputs.scan, {
        onScan: (scanId, links) => {
          core.setOutput('scan-id', scanId);
          core.setOutput('report-url', links.reportUrl);
        },
      }),
  );

  switch (outcome.kind) {
    case 'started':
      core.setOutput('result', 'started');
      return { outcome: 'started', scanId: outcome.scanId };
    case 'aborted':
      core.setFailed(
        outcome.scanId === 'local'
          ? 'The job was cancelled; the local scan stopped.'
          : `The job was cancelled; Scanward scan ${outcome.scanId} was cancelled too.`,
      );
      return { outcome: 'failed', scanId: outcome.scanId };
  }
  const verdict = judge(outcome, inputs.policy);
  setOutputs(core, verdictOutputs(verdict));
  return verdict.kind === 'completed'
    ? publishCompleted(deps, inputs, verdict)
    : publishUnsuccessful(deps, verdict);
}

async function publishUnsuccessful(deps: ActionDeps, verdict: UnsuccessfulVerdict): Promise<ActionResult> {
  const { core } = deps;
  core.setOutput('result', 'failed');
  await appendSummary(core, renderSummary(verdict, { runUrl: runUrl(deps.context) }));
  core.setFailed(failureMessage(verdict, actionInputName));
  return {
    outcome: 'failed',
    scanId: verdict.scan.id,
    status: verdict.scan.status,
    timedOut: verdict.timedOut,
  };
}

/**
 * A completed scan: the SARIF file, its upload, the comment and the summary, then the gate.
 * A failed upload or comment fails the step too, after everything else was written.
 */
async function publishCompleted(
  deps: ActionDeps,
  inputs: ActionInputs,
  verdict: CompletedVerdict,
): Promise<ActionResult> {
  const { core, context } = deps;
  const repository = splitRepository(context.repository);
  const sarif = sarifReport(verdict, {
    repository: repository
      ? { uri: `${context.serverUrl}/${context.repository}`, revisionId: context.sha, branch: context.ref }
      : undefined,
  });
  for (const warning of sarif.warnings) core.warning(warning);
  const sarifPath = resolve(deps.cwd, inputs.github.sarifFile);
  await deps.mkdir(dirname(sarifPath));
  await deps.writeFile(sarifPath, sarif.text);
  core.setOutput('sarif-file', sarifPath);
  core.info(`SARIF with ${sarif.log.runs[0]!.results.length} result(s) written to ${sarifPath}`);

  const github = lazyGitHubClient(deps, inputs.github.githubToken);
  const problems: unknown[] = [];
  const upload = await uploadStep(deps, inputs, github, sarif.text, verdict, problems);
  const comment = await commentStep(deps, inputs, github, verdict, problems);
  await appendSummary(
    core,
    renderSummary(verdict, {
      runUrl: runUrl(context),
      sarif: { path: inputs.github.sarifFile, upload: upload.state },
    }),
  );
  const failed = conclude(core, verdict, problems);
  return {
    outcome: failed ? 'failed' : 'passed',
    scanId: verdict.scan.id,
    status: verdict.scan.status,
    gate: verdict.gate,
    sarifPath,
    uploadId: upload.id,
    comment,
  };
}

/**
 * The GitHub client, made on first use. Octokit is loaded only then, after the scan: it is
 * most of the bundle, and the first request to Scanward should not wait for it
 * (docs/performance.md, "The Action's cold start").
 */
function lazyGitHubClient(deps: ActionDeps, token: string | undefined): () => Promise<GitHubClient> {
  let client: Promise<GitHubClient> | undefined;
  return () =>
    (client ??= import('./api.ts').then(({ createGitHubClient }) =>
      createGitHubClient({
        token: token!,
        apiUrl: deps.context.apiUrl,
        userAgent: USER_AGENT,
        log: (m) => deps.core.info(m),
        retryBaseMs: deps.githubRetryBaseMs,
        throttle: deps.githubThrottle,
      }),
    ));
}

async function uploadStep(
  deps: ActionDeps,
  inputs: ActionInputs,
  github: () => Promise<GitHubClient>,
  sarif: string,
  verdict: CompletedVerdict,
  problems: unknown[],
): Promise<{ state: UploadState; id?: string }> {
  const { core, context } = deps;
  if (!inputs.github.uploadSarif) return { state: 'disabled' };
  const repository = splitRepository(context.repository);
  if (!repository || !context.sha || !context.ref) {
    core.warning(
      'Not uploading SARIF: GITHUB_REPOSITORY, GITHUB_SHA or GITHUB_REF is not set (not running in GitHub Actions?).',
    );
    return { state: 'no-repository' };
  }
  const { sha, ref } = context;
  try {
    return await core.group('Upload to GitHub code scanning', async () => {
      const { uploadAndWatch } = await import('./code-scanning.ts');
      const { attempts, intervalMs } = deps.sarifProcessing ?? DEFAULT_SARIF_PROCESSING;
      return uploadAndWatch(
        await github(),
        repository,
        { sarif, commitSha: sha, ref, startedAt: verdict.scan.started_at },
        { attempts, intervalMs, sleep: deps.sleep, signal: deps.signal, log: (m) => core.info(m) },
      );
    });
  } catch (error) {
    problems.push(error);
    return { state: 'failed' };
  }
}

async function commentStep(
  deps: ActionDeps,
  inputs: ActionInputs,
  github: () => Promise<GitHubClient>,
  verdict: CompletedVerdict,
  problems: unknown[],
): Promise<'created' | 'updated' | undefined> {
  const { core, context } = deps;
  if (!inputs.github.comment) return undefined;
  const repository = splitRepository(context.repository);
  if (!context.pullRequest || !repository) {
    core.info('comment is true, but this is not a pull_request event: no pull request comment.');
    return undefined;
  }
  try {
    const { upsertComment } = await import('./pr-comment.ts');
    const written = await upsertComment(
      await github(),
      repository,
      context.pullRequest.number,
      commentMarker(verdict.scan.target),
      renderComment(verdict, { runUrl: runUrl(context) }),
    );
    core.setOutput('comment-url', written.url);
    core.info(`Pull request comment ${written.action}: ${written.url}`);
    return written.action;
  } catch (error) {
    problems.push(error);
    return undefined;
  }
}

/**
 * The gate's message and annotations, then the step's result: failed by the gate, or by a
 * problem of the upload or the comment (shown as errors beside a failed gate, each failing
 * the step otherwise). Answers whether the step failed.
 */
function conclude(core: ActionCore, verdict: CompletedVerdict, problems: unknown[]): boolean {
  const { gate } = verdict;
  core.info(gate.message);
  for (const annotation of annotations(verdict)) {
    if (annotation.level === 'error') core.error(annotation.message, { title: annotation.title });
    else core.warning(annotation.message, { title: annotation.title });
  }
  for (const problem of problems) {
    if (gate.failed) core.error(messageOf(problem));
    else failStep(core, problem);
  }
  if (gate.failed) core.setFailed(gate.message);
  const failed = gate.failed || problems.length > 0;
  core.setOutput('result', failed ? 'failed' : 'passed');
  return failed;
}

function setOutputs(core: ActionCore, outputs: Record<string, string>): void {
  for (const [name, value] of Object.entries(outputs)) core.setOutput(name, value);
}

/** Appends to the job summary; outside a runner (no GITHUB_STEP_SUMMARY) there is none to write. */
async function appendSummary(core: ActionCore, markdown: string): Promise<void> {
  try {
    core.summary.addRaw(markdown, true);
    await core.summary.write();
  } catch (error) {
    core.debug(`No job summary written: ${messageOf(error)}`);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
