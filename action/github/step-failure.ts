import { isUserError } from '../core/errors.ts';
import type { ActionCore } from './core.ts';

/** Reports an error the way its kind deserves: user mistakes plainly, internal failures with a hint. */
export function failStep(core: ActionCore, error: unknown): void {
  if (isUserError(error)) {
    core.setFailed(messageOf(error));
    return;
  }
  if (error instanceof Error && error.stack) core.debug(error.stack);
  core.setFailed(
    `${messageOf(error)}\nThe Scanward Action failed unexpectedly. Re-run the job; if it keeps failing, report it with the step's debug log (ACTIONS_STEP_DEBUG=true).`,
  );
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
