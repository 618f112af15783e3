import type { ParseArgsConfig } from 'node:util';

/**
 * One group of `scanward-ci`'s options, declared once: its flags (as `parseArgs` reads them),
 * its lines of `--help`, and the inputs it spells otherwise than `--name` / `SCANWARD_NAME`.
 * command-line.ts composes the groups into the command line.
 */

/** The flags of a group, as `parseArgs` declares them. */
export type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig['options']>;
export type Env = Record<string, string | undefined>;
export type Values = Record<string, string | boolean | string[] | undefined>;

export interface OptionGroup {
  options: ParseArgsOptionsConfig;
  /** The group's lines of `--help`, in the order they are printed. */
  help: string;
  /**
   * The value of an input this group spells its own way (`--no-wait` is `wait: false`), or
   * undefined to read it as `--name`, else `SCANWARD_NAME`. `get` reads any other input.
   */
  input?: (name: string, values: Values, env: Env, get: (name: string) => string) => string | undefined;
}

/** String flags named as the Action's inputs. */
export function stringOptions(...names: string[]): ParseArgsOptionsConfig {
  return Object.fromEntries(names.map((name) => [name, { type: 'string' as const }]));
}

/** A secret read from the variable another option names (never a flag), '' when none is named. */
export function fromVariable(source: string, env: Env): string {
  return source ? (env[source] ?? '') : '';
}
