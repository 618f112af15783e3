import { githubError, type GitHubClient, type Repository } from './api.ts';

/**
 * The sticky pull request comment on GitHub: one comment per pull request and target, found
 * again on every run by the hidden marker its body starts with (reports/comment.ts) and edited
 * in place, so re-runs and new pushes never add a second one.
 */

/** Creates the comment, or edits ours when it exists; answers which it did. */
export async function upsertComment(
  github: GitHubClient,
  repository: Repository,
  pullNumber: number,
  marker: string,
  body: string,
): Promise<{ action: 'created' | 'updated'; id: number; url: string }> {
  try {
    const comments = await github.paginate(github.rest.issues.listComments, {
      ...repository,
      issue_number: pullNumber,
      per_page: 100,
    });
    const ours = comments.find((c) => typeof c.body === 'string' && c.body.includes(marker));
    if (ours) {
      const { data } = await github.rest.issues.updateComment({ ...repository, comment_id: ours.id, body });
      return { action: 'updated', id: data.id, url: data.html_url };
    }
    const { data } = await github.rest.issues.createComment({
      ...repository,
      issue_number: pullNumber,
      body,
    });
    return { action: 'created', id: data.id, url: data.html_url };
  } catch (error) {
    throw githubError(error, 'write the pull request comment');
  }
}
