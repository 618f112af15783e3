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

/**
 * The service answered with a redirect. The API clients never follow one: fetch would carry
 * `X-API-Key` (it drops only `Authorization`) to wherever `Location` points, another host
 * included. A redirect means `api-url` is not the service's own address (http:// moved to
 * https://, a moved host, a proxy's log-in page), so it is the user's to fix.
 */
export class RedirectError extends ConfigurationError {
  constructor(
    readonly status: number,
    /** Where the answer pointed, resolved against the request's URL; undefined without a `Location`. */
    readonly location: string | undefined,
    what: string,
  ) {
    super(
      `${what}: the service answered ${status} with a redirect to ${location ?? '(no Location header)'}. ` +
        'Scanward clients never follow a redirect, so the credentials are not sent to another address; ' +
        'set api-url to the address the service answers on itself.',
    );
    this.name = 'RedirectError';
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
