import { NetworkError, RedirectError } from '../core/errors.ts';

/**
 * One HTTP request to the Scanward service, with retries. Retried: network
 * failures, 429 (waiting what `Retry-After` asks) and the transient 5xx
 * answers. Redirects are never followed (`redirect: 'manual'`): a 3xx answer
 * is a `RedirectError` naming the `Location`, at once and without a retry, so
 * the credentials never reach another address. Everything else is returned to
 * the caller at once. Waiting goes through the injected `sleep`, so tests
 * never wait for real. (GitHub's API is reached through Octokit, not this.)
 */

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface RetryPolicy {
  /** Total tries, the first included. */
  attempts: number;
  /** First backoff; doubled on each retry, with jitter, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Longest `Retry-After` honoured; a longer one ends the retries. */
  maxRetryAfterMs: number;
  /** Abort one try that takes longer than this. */
  requestTimeoutMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  attempts: 6,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 5 * 60_000,
  requestTimeoutMs: 60_000,
};

export interface HttpDeps {
  fetch: Fetch;
  sleep: Sleep;
  now: () => number;
  retry: RetryPolicy;
  /** Aborts the whole run (the job was cancelled). */
  signal?: AbortSignal | undefined;
  /** Told before each wait, for the log. */
  onRetry?: ((message: string) => void) | undefined;
}

const TRANSIENT = new Set([500, 502, 503, 504]);

/** `Retry-After` in milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function backoffMs(policy: RetryPolicy, retry: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/**
 * Sends the request, retrying as described above. `deadline` (epoch ms) stops
 * retrying when the next wait would end after it. Returns the last response
 * (which may be an error answer); throws `NetworkError` when no answer came.
 */
export async function requestWithRetry(
  deps: HttpDeps,
  url: string,
  init: RequestInit,
  description: string,
  deadline?: number,
): Promise<Response> {
  const { retry } = deps;
  for (let attempt = 1; ; attempt++) {
    let response: Response | undefined;
    let failure: unknown;
    try {
      const timeout = AbortSignal.timeout(retry.requestTimeoutMs);
      const signal = deps.signal ? AbortSignal.any([deps.signal, timeout]) : timeout;
      response = await deps.fetch(url, { ...init, redirect: 'manual', signal });
    } catch (error) {
      if (deps.signal?.aborted) throw error;
      failure = error;
    }
    if (response && isRedirect(response.status)) {
      await response.body?.cancel().catch(() => undefined);
      throw new RedirectError(response.status, locationOf(response, url), description);
    }
    if (response && response.status !== 429 && !TRANSIENT.has(response.status)) return response;

    const last = attempt >= retry.attempts;
    let waitMs = backoffMs(retry, attempt);
    let reason: string;
    if (response) {
      reason = `${response.status}${response.status === 429 ? ' (rate limited)' : ''}`;
      const asked = retryAfterMs(response.headers.get('retry-after'), deps.now());
      if (asked !== undefined) {
        if (asked > retry.maxRetryAfterMs) return response;
        waitMs = asked;
      }
    } else {
      reason = describeFailure(failure);
    }
    const pastDeadline = deadline !== undefined && deps.now() + waitMs > deadline;
    if (last || pastDeadline) {
      if (response) return response;
      throw new NetworkError(`${description} failed after ${attempt} attempt(s): ${reason}`, {
        cause: failure,
      });
    }
    // Free the connection of the answer we are not going to read.
    await response?.body?.cancel().catch(() => undefined);
    deps.onRetry?.(
      `${description}: ${reason}; retrying in ${formatWait(waitMs)} (attempt ${attempt + 1} of ${retry.attempts})`,
    );
    await deps.sleep(waitMs, deps.signal);
  }
}

/** 3xx answers that point elsewhere (304 Not Modified is an answer, but no request here is conditional). */
function isRedirect(status: number): boolean {
  return status >= 300 && status < 400;
}

/** The answer's `Location`, resolved against the request's URL (a relative one names the same host). */
function locationOf(response: Response, url: string): string | undefined {
  const location = response.headers.get('location');
  if (location === null || location.trim() === '') return undefined;
  try {
    return new URL(location, url).href;
  } catch {
    return location;
  }
}

/** An error and its cause in one line, for the log. */
export function describeFailure(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}

function formatWait(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10}s` : `${ms}ms`;
}

/** The HTTP dependencies of a run, from its injected fetch, clock and sleep; retries are told to `log`. */
export function httpDeps(
  deps: {
    fetch: Fetch;
    sleep: Sleep;
    now: () => number;
    retry?: RetryPolicy | undefined;
    signal?: AbortSignal | undefined;
  },
  log: (message: string) => void,
): HttpDeps {
  return {
    fetch: deps.fetch,
    sleep: deps.sleep,
    now: deps.now,
    retry: deps.retry ?? DEFAULT_RETRY,
    signal: deps.signal,
    onRetry: log,
  };
}
