import type { CompletedVerdict } from '../core/verdict.ts';
import { SEVERITY_TITLES, cell, code } from './markdown.ts';

/**
 * The sticky pull request comment's body: the gate result and what this scan found for the
 * first time or reopened; the job summary has the rest. It starts with a hidden marker per
 * target, by which the Action finds its comment again on every run and edits it in place
 * (github/pr-comment.ts), so re-runs and new pushes never add a second one.
 */

export interface CommentContext {
  /** The workflow run. */
  runUrl?: string | undefined;
  /** How many findings to list. */
  top?: number | undefined;
}

/** The hidden line that marks our comment for this target. */
export function commentMarker(target: string): string {
  return `<!-- scanward-action:pr-comment target=${encodeURIComponent(target)} -->`;
}

export function renderComment(verdict: CompletedVerdict, context: CommentContext = {}): string {
  const { scan, links, gate, newFindings } = verdict;
  const lines = [commentMarker(scan.target), `### Scanward: ${code(scan.target)}`, ''];
  lines.push(`${gate.failed ? '❌' : '✅'} ${cell(gate.message)}`, '');
  const top = newFindings.slice(0, context.top ?? 25);
  if (top.length === 0) {
    lines.push('No new findings in this scan.', '');
  } else {
    lines.push(`**${newFindings.length} new finding(s)** in this scan:`, '');
    lines.push('| Severity | Title | Component | |', '|---|---|---|---|');
    for (const f of top) {
      const label = f.change === 'reopened' ? ' (reopened)' : '';
      lines.push(
        `| ${SEVERITY_TITLES[f.severity]} | ${cell(f.title)}${label} | ${code(f.affected_component)} | [details](${links.findingUrl(f.id)}) |`,
      );
    }
    if (newFindings.length > top.length) lines.push('', `…and ${newFindings.length - top.length} more.`);
    lines.push('');
  }
  const footer = [`Scan [${code(scan.id)}](${links.scanUrl})`];
  if (context.runUrl) footer.push(`[workflow run](${context.runUrl})`);
  lines.push(
    `<sub>${footer.join(' · ')}. Updated on every run; the Scanward links need your Scanward credentials.</sub>`,
  );
  return lines.join('\n');
}
