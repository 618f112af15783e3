/** Text as SARIF messages and GitHub's rule help want it. */

/** Text placed in Markdown: no raw HTML. */
export function markdownText(text: string): string {
  return text.replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function unique(values: string[]): string[] {
  return [...new Set(values.filter((v) => v.trim() !== ''))];
}

export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

export function stripPeriod(text: string): string {
  return text.trim().replace(/[.\s]+$/, '');
}

/** Ends the text with a period, as SARIF messages should. */
export function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?…]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
