import type { UnsuccessfulVerdict, Verdict } from '../core/verdict.ts';

/**
 * The one-line result of a verdict, as the step failure (the Action) or the error line
 * (`scanward-ci`) says it. The front ends name their inputs differently (`timeout-minutes`
 * as an Action input, `--timeout-minutes` as a flag), so they pass how.
 */

/** How a front end names one of its inputs in a message. */
export type InputName = (input: string) => string;

export const actionInputName: InputName = (input) => input;
export const flagName: InputName = (input) => `--${input}`;

/** Why the run failed, or undefined when the verdict passed (a scan that did not complete never does). */
export function failureMessage(verdict: UnsuccessfulVerdict, name: InputName): string;
export function failureMessage(verdict: Verdict, name: InputName): string | undefined;
export function failureMessage(verdict: Verdict, name: InputName): string | undefined {
  if (verdict.kind === 'completed') return verdict.passed ? undefined : verdict.gate.message;
  return unsuccessfulMessage(verdict, name);
}

function unsuccessfulMessage(verdict: UnsuccessfulVerdict, name: InputName): string {
  const { scan } = verdict;
  if (verdict.timedOut) {
    return (
      `Scanward scan ${scan.id} did not finish within ${name('timeout-minutes')} (${formatMinutes(verdict.timeoutMs / 60_000)}) and was cancelled. ` +
      `Raise ${name('timeout-minutes')}, or use a quicker ${name('scan-type')} (quick scans take 5-10 minutes, full scans 30-60).`
    );
  }
  const reason = scan.error ?? scan.message;
  return `Scanward scan ${scan.id} ${scan.status}${reason ? `: ${reason}` : ''}.`;
}

export function formatMinutes(minutes: number): string {
  return minutes >= 1 ? `${Math.round(minutes * 10) / 10} min` : `${Math.round(minutes * 60)} s`;
}
