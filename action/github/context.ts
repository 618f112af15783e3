import type { context as actionsContext } from '@actions/github';
import type { JobIdentity } from '../core/inputs.ts';

type Context = typeof actionsContext;

/**
 * What the Action knows about the workflow run. On a runner it is read from
 * `@actions/github`'s context (the GITHUB_* variables and the event payload
 * at GITHUB_EVENT_PATH); tests hand in a plain object. Everything is optional:
 * the Action still runs outside GitHub (local runs), just without uploading
 * or commenting.
 */
export interface GitHubContext extends JobIdentity {
  /** `push`, `pull_request`, `merge_group`, `schedule`, … */
  eventName?: string | undefined;
  /** `owner/name`. */
  repository?: string | undefined;
  sha?: string | undefined;
  /** `refs/heads/main`, `refs/pull/42/merge`, `refs/heads/gh-readonly-queue/main/pr-42-…`, … */
  ref?: string | undefined;
  runId?: string | undefined;
  runAttempt?: string | undefined;
  /** The job id (GITHUB_JOB) and the step's id (GITHUB_ACTION). */
  job?: string | undefined;
  step?: string | undefined;
  serverUrl: string;
  /** The REST API base: `https://api.github.com`, or a GHES `https://host/api/v3` (GITHUB_API_URL). */
  apiUrl: string;
  /** The pull request of a `pull_request` or `pull_request_target` event. */
  pullRequest?: { number: number; url?: string | undefined } | undefined;
}

const nonEmpty = (value: string | number | undefined | null) => {
  const text = value === undefined || value === null ? '' : String(value).trim();
  return text !== '' && text !== '0' && text !== 'NaN' ? text : undefined;
};

const PULL_REQUEST_EVENTS = new Set(['pull_request', 'pull_request_target']);

/** The Action's view of `@actions/github`'s context (and GITHUB_REPOSITORY, GITHUB_ACTION, which it reads lazily). */
export function fromActionsContext(context: Context, env: Record<string, string | undefined>): GitHubContext {
  const pull = context.payload.pull_request;
  return {
    eventName: nonEmpty(context.eventName),
    repository: nonEmpty(env.GITHUB_REPOSITORY),
    sha: nonEmpty(context.sha),
    ref: nonEmpty(context.ref),
    runId: nonEmpty(context.runId),
    runAttempt: nonEmpty(context.runAttempt),
    job: nonEmpty(context.job),
    step: nonEmpty(context.action),
    serverUrl: (nonEmpty(context.serverUrl) ?? 'https://github.com').replace(/\/+$/, ''),
    apiUrl: (nonEmpty(context.apiUrl) ?? 'https://api.github.com').replace(/\/+$/, ''),
    pullRequest:
      PULL_REQUEST_EVENTS.has(context.eventName) && pull && typeof pull.number === 'number'
        ? { number: pull.number, url: typeof pull.html_url === 'string' ? pull.html_url : undefined }
        : undefined,
  };
}

/** `owner` and `repo` of `owner/repo`, or undefined. */
export function splitRepository(repository: string | undefined): { owner: string; repo: string } | undefined {
  const match = repository ? /^([^/\s]+)\/([^/\s]+)$/.exec(repository) : null;
  return match ? { owner: match[1]!, repo: match[2]! } : undefined;
}

/** The link to this workflow run, for the summary. */
export function runUrl(context: GitHubContext): string | undefined {
  if (!context.repository || !context.runId) return undefined;
  return `${context.serverUrl}/${context.repository}/actions/runs/${context.runId}`;
}
