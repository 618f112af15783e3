/**
 * What every input group's parser is handed: a reader of the inputs and the two lists the
 * composer (../inputs.ts) reports at the end, so every problem is listed at once.
 */

/** Reads one input: the trimmed value, or '' when unset (as `@actions/core` getInput does). */
export type GetInput = (name: string) => string;

export interface InputReader {
  /** The input, trimmed. */
  read: (name: string) => string;
  /** The input as given (a password may begin or end with a space). */
  raw: GetInput;
  /** Each names the input and what a right value looks like. */
  problems: string[];
  /** Things that work but deserve a word in the log. */
  warnings: string[];
}

export function inputReader(getInput: GetInput): InputReader {
  return { read: (name) => getInput(name).trim(), raw: getInput, problems: [], warnings: [] };
}

/** `name`'s value lower-cased (or `fallback` when unset) if it is one of `allowed`, else a problem. */
export function parseChoice<T extends string>(
  { read, problems }: InputReader,
  name: string,
  fallback: string,
  allowed: readonly T[],
  help: (raw: string) => string,
): T | undefined {
  const raw = (read(name) || fallback).toLowerCase();
  if ((allowed as readonly string[]).includes(raw)) return raw as T;
  problems.push(help(raw));
  return undefined;
}

export function parseNumber(
  name: string,
  raw: string,
  problems: string[],
  range: { min: number; max: number; exclusiveMin?: boolean },
): number | undefined {
  const value = /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : NaN;
  const tooSmall = range.exclusiveMin ? value <= range.min : value < range.min;
  if (Number.isNaN(value) || tooSmall || value > range.max) {
    const lower = range.exclusiveMin ? `more than ${range.min}` : `at least ${range.min}`;
    problems.push(`\`${name}\` is "${raw}"; use a number ${lower} and at most ${range.max}.`);
    return undefined;
  }
  return value;
}

/** YAML 1.2 core booleans, as `@actions/core` getBooleanInput reads them. */
export function parseBoolean(name: string, raw: string, problems: string[]): boolean | undefined {
  if (['true', 'True', 'TRUE'].includes(raw)) return true;
  if (['false', 'False', 'FALSE'].includes(raw)) return false;
  problems.push(`\`${name}\` is "${raw}"; use true or false.`);
  return undefined;
}
