import { ReportError } from './report.ts';

/**
 * JSON reports (nuclei's array or JSON Lines, ZAP's JSON report, Scanward's own) are
 * hostile input too: nesting is bounded before JSON.parse sees the text (MAX_DEPTH), and
 * errors name the line.
 */

/** Deepest array/object nesting accepted; real reports nest under 10 levels. */
export const MAX_DEPTH = 64;

function lineOf(source: string, index: number): number {
  let line = 1;
  for (let i = source.indexOf('\n'); i !== -1 && i < index; i = source.indexOf('\n', i + 1)) line++;
  return line;
}

/** Throws, naming the line, when arrays and objects nest deeper than MAX_DEPTH (strings skipped). */
export function refuseDeepJson(source: string, firstLine = 1): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_DEPTH)
        throw new ReportError(
          `line ${lineOf(source, i) + firstLine - 1}: arrays and objects nest deeper than ${MAX_DEPTH} levels`,
        );
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
}

/** JSON.parse with the error's line (Node names a position or a line and column). */
export function parseJson(source: string, firstLine = 1): unknown {
  refuseDeepJson(source, firstLine);
  try {
    return JSON.parse(source, (key, value: unknown) => (key === '__proto__' ? undefined : value));
  } catch (err) {
    const message = (err as Error).message;
    const lineCol = /line (\d+) column (\d+)/.exec(message);
    const position = /position (\d+)/.exec(message);
    const line = lineCol ? Number(lineCol[1]) : position ? lineOf(source, Number(position[1])) : 1;
    throw new ReportError(
      `line ${line + firstLine - 1}: not valid JSON (${message.replace(/\s*\(line.*$/, '')})`,
    );
  }
}

/** Each non-blank line of a JSON Lines text, parsed; errors name the line. */
export function parseJsonLines(source: string): unknown[] {
  const out: unknown[] = [];
  const lines = source.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line) out.push(parseJson(line, i + 1));
  }
  return out;
}
