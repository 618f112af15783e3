import type * as actionsCore from '@actions/core';

/**
 * The part of `@actions/core` the Action uses: inputs, outputs, masking, log
 * lines and groups, annotations, failing the step and the job summary. The
 * entry passes `@actions/core` itself; tests pass a recording object of the
 * same shape, so `run(deps)` never touches the process.
 */
export type ActionCore = Pick<
  typeof actionsCore,
  | 'getInput'
  | 'setOutput'
  | 'setSecret'
  | 'info'
  | 'warning'
  | 'error'
  | 'debug'
  | 'setFailed'
  | 'group'
  | 'getIDToken'
> & {
  summary: { addRaw(text: string, addEOL?: boolean): unknown; write(): Promise<unknown> };
};
