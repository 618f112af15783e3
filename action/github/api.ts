import { getOctokit } from '@actions/github';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { ApiError } from '../core/errors.ts';

/**
 * GitHub's REST API through `@actions/github`'s Octokit, with the retry
 * plugin (transient 5xx answers and network failures) and the throttling
 * plugin (primary and secondary rate limits, waiting what GitHub asks):
 * the client and its errors, used by the code scanning upload
 * (code-scanning.ts) and the sticky pull request comment (pr-comment.ts).
 */

export type GitHubClient = ReturnType<typeof getOctokit>;

export interface GitHubClientOptions {
  token: string;
  /** `https://api.github.com`, or a GHES `https://host/api/v3` (GITHUB_API_URL). */
  apiUrl: string;
  userAgent: string;
  log: (message: string) => void;
  /** Milliseconds per unit of the retry plugin's quadratic backoff (1000 on a runner; tests shorten it). */
  retryBaseMs?: number | undefined;
  /** false turns off the throttling plugin (and its one-second spacing of writes): tests only. */
  throttle?: boolean | undefined;
  /** Rate-limit waits longer than this are not waited for. */
  maxRateLimitWaitSeconds?: number | undefined;
}

export function createGitHubClient(options: GitHubClientOptions): GitHubClient {
  const maxWait = options.maxRateLimitWaitSeconds ?? 300;
  return getOctokit(
    options.token,
    {
      baseUrl: options.apiUrl,
      userAgent: options.userAgent,
      retry: { retryAfterBaseValue: options.retryBaseMs ?? 1000 },
      throttle: {
        enabled: options.throttle ?? true,
        onRateLimit: (
          retryAfter: number,
          request: { method: string; url: string },
          _o: unknown,
          count: number,
        ) => {
          options.log(
            `GitHub rate limit hit on ${request.method} ${request.url}; retrying in ${retryAfter}s.`,
          );
          return count < 2 && retryAfter <= maxWait;
        },
        onSecondaryRateLimit: (
          retryAfter: number,
          request: { method: string; url: string },
          _o: unknown,
          count: number,
        ) => {
          options.log(
            `GitHub secondary rate limit on ${request.method} ${request.url}; retrying in ${retryAfter}s.`,
          );
          return count < 2 && retryAfter <= maxWait;
        },
      },
    },
    retry,
    throttling,
  );
}

export interface Repository {
  owner: string;
  repo: string;
}
export function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

/** An Octokit failure as an `ApiError` with what the user can do about it. */
export function githubError(error: unknown, what: string): Error {
  if (error instanceof ApiError) return error;
  const status = statusOf(error);
  if (status === undefined) return error instanceof Error ? error : new Error(String(error));
  const data = (error as { response?: { data?: { message?: unknown } } }).response?.data;
  const message =
    typeof data?.message === 'string' ? data.message : error instanceof Error ? error.message : String(error);
  return new ApiError(
    'GitHub',
    status,
    `HTTP_${status}`,
    `could not ${what}: ${message}`,
    undefined,
    hint(status, message, what),
  );
}

function hint(status: number, message: string, what: string): string | undefined {
  const comment = what.includes('comment');
  if (status === 403 && /not accessible by integration|permission/i.test(message)) {
    return comment
      ? 'Give the job `permissions: pull-requests: write`, or set comment: false'
      : 'Give the job `permissions: security-events: write` (and `contents: read`), or set upload-sarif: false';
  }
  if (comment) return undefined;
  if (status === 403 || status === 404) {
    return 'Code scanning must be available for the repository (public, or GitHub Code Security enabled) and github-token must be able to see it; otherwise set upload-sarif: false';
  }
  if (status === 401) return 'github-token is not valid; leave it at its default, ${{ github.token }}';
  if (status === 413) return 'The SARIF file is too large for GitHub';
  if (status === 422)
    return 'GitHub refused the SARIF file or the commit/ref; check that the step runs in a workflow for this repository';
  return undefined;
}
