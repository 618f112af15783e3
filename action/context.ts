/**
 * What the Action knows about the workflow run, read from the variables the
 * runner sets (GITHUB_REPOSITORY, GITHUB_SHA, …). Everything is optional: the
 * Action also runs outside GitHub (locally, in tests), just without uploading.
 */
export interface GitHubContext {
  /** `owner/name`. */
  repository?: string | undefined;
  sha?: string | undefined;
  /** `refs/heads/main`, `refs/pull/42/merge`, … */
  ref?: string | undefined;
  runId?: string | undefined;
  runAttempt?: string | undefined;
  /** The job id (GITHUB_JOB) and the step's id (GITHUB_ACTION). */
  job?: string | undefined;
  step?: string | undefined;
  serverUrl: string;
  apiUrl: string;
}

export type Env = Record<string, string | undefined>;

const nonEmpty = (value: string | undefined) => (value && value.trim() !== '' ? value.trim() : undefined);

export function readGitHubContext(env: Env): GitHubContext {
  return {
    repository: nonEmpty(env.GITHUB_REPOSITORY),
    sha: nonEmpty(env.GITHUB_SHA),
    ref: nonEmpty(env.GITHUB_REF),
    runId: nonEmpty(env.GITHUB_RUN_ID),
    runAttempt: nonEmpty(env.GITHUB_RUN_ATTEMPT),
    job: nonEmpty(env.GITHUB_JOB),
    step: nonEmpty(env.GITHUB_ACTION),
    serverUrl: (nonEmpty(env.GITHUB_SERVER_URL) ?? 'https://github.com').replace(/\/+$/, ''),
    apiUrl: (nonEmpty(env.GITHUB_API_URL) ?? 'https://api.github.com').replace(/\/+$/, ''),
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
