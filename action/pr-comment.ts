import { githubError, type GitHubClient, type Repository } from './github-api.ts';
import type { Finding, Severity } from './responses.ts';
import { cell, code, SEVERITY_TITLES } from './summary.ts';
import type { GateResult } from './threshold.ts';

/**
 * The sticky pull request comment: one comment per pull request and target,
 * found again on every run by a hidden marker and edited in place, so
 * re-runs and new pushes never add a second one. It lists what this scan
 * found for the first time or reopened; the job summary has the rest.
 */

export interface CommentInput {
  target: string;
  scanId: string;
  scanUrl: string;
  /** The findings this scan found first or reopened, at or above report-severity, most severe first. */
  newFindings: readonly Finding[];
  gate: GateResult;
  runUrl?: string | undefined;
  /** The finding's page in the Scanward API. */
  findingUrl: (id: string) => string;
  /** How many findings to list. */
  top?: number | undefined;
}

/** The hidden line that marks our comment for this target. */
export function commentMarker(target: string): string {
  return `<!-- scanward-action:pr-comment target=${encodeURIComponent(target)} -->`;
}

export function renderComment(input: CommentInput): string {
  const lines = [commentMarker(input.target), `### Scanward: ${code(input.target)}`, ''];
  lines.push(`${input.gate.failed ? '❌' : '✅'} ${cell(input.gate.message)}`, '');
  const top = input.newFindings.slice(0, input.top ?? 25);
  if (top.length === 0) {
    lines.push('No new findings in this scan.', '');
  } else {
    lines.push(`**${input.newFindings.length} new finding(s)** in this scan:`, '');
    lines.push('| Severity | Title | Component | |', '|---|---|---|---|');
    for (const f of top) {
      const label = f.change === 'reopened' ? ' (reopened)' : '';
      lines.push(
        `| ${SEVERITY_TITLES[f.severity as Severity]} | ${cell(f.title)}${label} | ${code(f.affected_component)} | [details](${input.findingUrl(f.id)}) |`,
      );
    }
    if (input.newFindings.length > top.length)
      lines.push('', `…and ${input.newFindings.length - top.length} more.`);
    lines.push('');
  }
  const links = [`Scan [${code(input.scanId)}](${input.scanUrl})`];
  if (input.runUrl) links.push(`[workflow run](${input.runUrl})`);
  lines.push(
    `<sub>${links.join(' · ')}. Updated on every run; the Scanward links need your Scanward credentials.</sub>`,
  );
  return lines.join('\n');
}

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
