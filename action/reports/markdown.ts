import type { Severity } from '../core/scan.ts';

/**
 * Markdown pieces shared by the job summary and the pull request comment. Every value from a
 * scan is data, not Markdown: it goes through `cell` or `code`.
 */

export const SEVERITY_TITLES: Record<Severity, string> = {
  critical: 'Critical',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
  info: 'Info',
};

/** Text safe inside a Markdown table cell: no pipes, line breaks or HTML. */
export function cell(text: string): string {
  return text
    .replace(/\r?\n|\r/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '\\|')
    .replace(/([*_[\]`])/g, '\\$1');
}

/** A code span, when the text allows one (no backticks, pipes or line breaks); escaped text otherwise. */
export function code(text: string): string {
  return /[`|\r\n]/.test(text) ? cell(text) : `\`${text}\``;
}
