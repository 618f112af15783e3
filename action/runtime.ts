import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { EOL } from 'node:os';
import type { Env } from './context.ts';

/**
 * What the Action needs from the GitHub Actions runner: inputs, outputs, log
 * commands, masking, failure and the job summary. `run(deps)` takes it as a
 * port so tests hand in a recording fake; `createRunnerCore` speaks the
 * runner's documented protocol (INPUT_* variables, the GITHUB_OUTPUT and
 * GITHUB_STEP_SUMMARY files, `::command::` lines on stdout), the same
 * protocol `@actions/core` implements, which this project does not install.
 */
export interface ActionCore {
  /** The trimmed input, '' when unset. */
  getInput(name: string): string;
  setOutput(name: string, value: string): void;
  /** Masks the value in every later log line. */
  setSecret(secret: string): void;
  info(message: string): void;
  warning(message: string): void;
  error(message: string): void;
  debug(message: string): void;
  /** Logs the message as an error and makes the step fail. */
  setFailed(message: string): void;
  appendSummary(markdown: string): Promise<void>;
}

export interface RunnerCoreOptions {
  env: Env;
  /** Where log lines go (stdout on the runner). */
  write: (text: string) => void;
  /** Called once when the step must fail (the entry sets the exit code). */
  onFailed: () => void;
}

export function createRunnerCore(options: RunnerCoreOptions): ActionCore {
  const { env, write } = options;
  const command = (name: string, message: string) => write(`::${name}::${escapeData(message)}${EOL}`);
  return {
    getInput: (name) => (env[inputVariable(name)] ?? '').trim(),
    setOutput(name, value) {
      const file = env.GITHUB_OUTPUT;
      if (file) appendFileSync(file, fileCommand(name, value), 'utf8');
      else write(`${name}=${value}${EOL}`);
    },
    setSecret: (secret) => {
      if (secret) command('add-mask', secret);
    },
    info: (message) => write(`${message}${EOL}`),
    warning: (message) => command('warning', message),
    error: (message) => command('error', message),
    debug: (message) => command('debug', message),
    setFailed(message) {
      options.onFailed();
      command('error', message);
    },
    async appendSummary(markdown) {
      const file = env.GITHUB_STEP_SUMMARY;
      if (file) appendFileSync(file, `${markdown}${EOL}`, 'utf8');
    },
  };
}

/** `api-url` → `INPUT_API-URL`: the runner upper-cases the name and turns spaces into underscores. */
export function inputVariable(name: string): string {
  return `INPUT_${name.replace(/ /g, '_').toUpperCase()}`;
}

/** A `name<<delimiter` block for the GITHUB_OUTPUT file; the random delimiter cannot occur in the value. */
export function fileCommand(name: string, value: string): string {
  let delimiter = `ghadelimiter_${randomUUID()}`;
  while (value.includes(delimiter) || name.includes(delimiter)) delimiter = `ghadelimiter_${randomUUID()}`;
  return `${name}<<${delimiter}${EOL}${value}${EOL}${delimiter}${EOL}`;
}

/** Escapes a workflow command's message so a newline or `%` in it cannot end or forge the command. */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
