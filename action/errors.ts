/**
 * The two kinds of failure the Action reports differently (as actions/checkout
 * and github/codeql-action do): a `ConfigurationError` is the user's to fix
 * (a bad input, a target outside the scan scope, a used-up quota) and is shown
 * as it is; anything else is an internal failure and is reported with a hint to
 * re-run and the stack in the debug log.
 */
export class ConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigurationError';
  }
}

/** An error answer of an HTTP API, in the Scanward `{detail, error_code, field?}` shape where it has one. */
export class ApiError extends Error {
  constructor(
    readonly service: 'Scanward' | 'GitHub',
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly field?: string,
    /** What the user can do about it, when we know. */
    readonly hint?: string,
  ) {
    const where = field ? ` (field: ${field})` : '';
    super(`${service} API answered ${status} ${code}: ${detail}${where}${hint ? `. ${hint}` : ''}`);
    this.name = 'ApiError';
  }

  /** 4xx answers (except rate limits, which are retried) are configuration problems, not bugs. */
  get isUserError(): boolean {
    return this.status >= 400 && this.status < 500 && this.status !== 429;
  }
}

/** The request never got an HTTP answer (connection refused, DNS, timeout), even after retries. */
export class NetworkError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'NetworkError';
  }
}

export function isUserError(error: unknown): boolean {
  return error instanceof ConfigurationError || (error instanceof ApiError && error.isUserError);
}
