/**
 * Exit codes of the operator command line, so scripts can tell a typo from a
 * missing record from a busy database.
 */
export const EXIT = {
  ok: 0,
  /** The command was valid but could not be carried out (unknown org, taken e-mail, database down). */
  failed: 1,
  /** Bad usage or input: unknown flag, bad plan, short password, invalid configuration. */
  usage: 2,
  /** The embedded database is held by a running server (the same code the server exits with). */
  locked: 3,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A mistake or refusal the operator should read: printed as one line, never with a stack. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode = EXIT.failed,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export function usageError(message: string): CliError {
  return new CliError(message, EXIT.usage);
}
