import { dirname, resolve } from 'node:path';
import type { ActionInputs } from '../core/inputs.ts';
import type { CompletedVerdict, UnsuccessfulVerdict } from '../core/verdict.ts';
import { annotations } from '../reports/annotations.ts';
import { actionInputName, failureMessage } from '../reports/messages.ts';
import { sarifReport } from '../reports/sarif.ts';
import { renderSummary } from '../reports/summary.ts';
import type { ActionDeps, ActionResult } from './action-deps.ts';
import { runUrl, splitRepository } from './context.ts';
import type { ActionCore } from './core.ts';
import { commentStep, lazyGitHubClient, uploadStep } from './github-steps.ts';
import { failStep, messageOf } from './step-failure.ts';

/**
 * The last step of a run: what the pure report builders make of the verdict, written where
 * GitHub shows it (the SARIF file and its upload, the comment, the job summary, the
 * annotations) and the step's result.
 */

export async function publishUnsuccessful(
  deps: ActionDeps,
  verdict: UnsuccessfulVerdict,
): Promise<ActionResult> {
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
export async function publishCompleted(
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

/** Appends to the job summary; outside a runner (no GITHUB_STEP_SUMMARY) there is none to write. */
async function appendSummary(core: ActionCore, markdown: string): Promise<void> {
  try {
    core.summary.addRaw(markdown, true);
    await core.summary.write();
  } catch (error) {
    core.debug(`No job summary written: ${messageOf(error)}`);
  }
}
