import type { CompletedVerdict } from '../core/verdict.ts';
import { commentMarker, renderComment } from '../reports/comment.ts';
import type { UploadState } from '../reports/summary.ts';
import type { ActionInputs } from '../core/inputs.ts';
import { USER_AGENT, type ActionDeps } from './action-deps.ts';
import type { GitHubClient } from './api.ts';
import { runUrl, splitRepository } from './context.ts';

/**
 * The steps of a run that write to GitHub: the SARIF upload to code scanning and the sticky
 * pull request comment. A failure of either is collected in `problems` (the step fails after
 * everything else was written).
 */

const DEFAULT_SARIF_PROCESSING = { attempts: 12, intervalMs: 5000 };

/**
 * The GitHub client, made on first use. Octokit is loaded only then, after the scan: it is
 * most of the bundle, and the first request to Scanward should not wait for it
 * (docs/performance.md, "The Action's cold start").
 */
export function lazyGitHubClient(deps: ActionDeps, token: string | undefined): () => Promise<GitHubClient> {
  let client: Promise<GitHubClient> | undefined;
  return () =>
    (client ??= import('./api.ts').then(({ createGitHubClient }) =>
      createGitHubClient({
        token: token!,
        apiUrl: deps.context.apiUrl,
        userAgent: USER_AGENT,
        log: (m) => deps.core.info(m),
        retryBaseMs: deps.githubRetryBaseMs,
        throttle: deps.githubThrottle,
      }),
    ));
}

export async function uploadStep(
  deps: ActionDeps,
  inputs: ActionInputs,
  github: () => Promise<GitHubClient>,
  sarif: string,
  verdict: CompletedVerdict,
  problems: unknown[],
): Promise<{ state: UploadState; id?: string }> {
  const { core, context } = deps;
  if (!inputs.github.uploadSarif) return { state: 'disabled' };
  const repository = splitRepository(context.repository);
  if (!repository || !context.sha || !context.ref) {
    core.warning(
      'Not uploading SARIF: GITHUB_REPOSITORY, GITHUB_SHA or GITHUB_REF is not set (not running in GitHub Actions?).',
    );
    return { state: 'no-repository' };
  }
  const { sha, ref } = context;
  try {
    return await core.group('Upload to GitHub code scanning', async () => {
      const { uploadAndWatch } = await import('./code-scanning.ts');
      const { attempts, intervalMs } = deps.sarifProcessing ?? DEFAULT_SARIF_PROCESSING;
      return uploadAndWatch(
        await github(),
        repository,
        { sarif, commitSha: sha, ref, startedAt: verdict.scan.started_at },
        { attempts, intervalMs, sleep: deps.sleep, signal: deps.signal, log: (m) => core.info(m) },
      );
    });
  } catch (error) {
    problems.push(error);
    return { state: 'failed' };
  }
}

export async function commentStep(
  deps: ActionDeps,
  inputs: ActionInputs,
  github: () => Promise<GitHubClient>,
  verdict: CompletedVerdict,
  problems: unknown[],
): Promise<'created' | 'updated' | undefined> {
  const { core, context } = deps;
  if (!inputs.github.comment) return undefined;
  const repository = splitRepository(context.repository);
  if (!context.pullRequest || !repository) {
    core.info('comment is true, but this is not a pull_request event: no pull request comment.');
    return undefined;
  }
  try {
    const { upsertComment } = await import('./pr-comment.ts');
    const written = await upsertComment(
      await github(),
      repository,
      context.pullRequest.number,
      commentMarker(verdict.scan.target),
      renderComment(verdict, { runUrl: runUrl(context) }),
    );
    core.setOutput('comment-url', written.url);
    core.info(`Pull request comment ${written.action}: ${written.url}`);
    return written.action;
  } catch (error) {
    problems.push(error);
    return undefined;
  }
}
