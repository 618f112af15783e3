import { parseInputs, webSecrets } from '../core/inputs.ts';
import { judge } from '../core/verdict.ts';
import { ACTION_VERSION } from '../core/version.ts';
import { verdictOutputs } from '../reports/outputs.ts';
import type { ActionDeps, ActionResult } from './action-deps.ts';
import type { ActionCore } from './core.ts';
import { publishCompleted, publishUnsuccessful } from './publish.ts';
import { runScan } from './scan-step.ts';
import { failStep } from './step-failure.ts';

/**
 * The GitHub Action: run the scan through its source (scan-step.ts), judge the finished scan
 * against the gate (one verdict), and publish what the pure report builders make of the
 * verdict (publish.ts, github-steps.ts): the outputs, the SARIF file and its upload to code
 * scanning, the sticky pull request comment, the job summary, the annotations, and the step's
 * failure. Everything from the outside world comes in through `deps` (action-deps.ts), so
 * tests run it against a fake service and a fake GitHub without waiting.
 */

export { USER_AGENT, type ActionDeps, type ActionResult } from './action-deps.ts';

export async function run(deps: ActionDeps): Promise<ActionResult> {
  try {
    return await runAction(deps);
  } catch (error) {
    failStep(deps.core, error);
    return { outcome: 'failed' };
  }
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

  const outcome = await runScan(deps, inputs);
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

function setOutputs(core: ActionCore, outputs: Record<string, string>): void {
  for (const [name, value] of Object.entries(outputs)) core.setOutput(name, value);
}
