import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { LocalEngine } from '../server/schemas/local-scan.ts';
import * as core from '@actions/core';
import { context } from '@actions/github';
import { fromActionsContext } from './github/context.ts';
import { run } from './github/run.ts';

/**
 * The Action's entry (dist/index.js after bundling): wires `@actions/core`,
 * `@actions/github`'s context and the process's globals into `run(deps)`
 * and nothing else. SIGINT/SIGTERM (the runner cancelling the job) abort the
 * run, which then cancels its scan.
 */

const aborter = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => aborter.abort(new Error(`received ${signal}`)));
}

await run({
  core,
  context: fromActionsContext(context, process.env),
  fetch: (input, init) => fetch(input, init),
  sleep: async (ms, signal) => {
    await delay(ms, undefined, { signal });
  },
  now: () => Date.now(),
  writeFile: (path, data) => writeFile(path, data, 'utf8'),
  readFile: (path) => readFile(path),
  mkdir: async (path) => {
    await mkdir(path, { recursive: true });
  },
  cwd: process.env.GITHUB_WORKSPACE || process.cwd(),
  signal: aborter.signal,
  idTokenAvailable: Boolean(process.env.ACTIONS_ID_TOKEN_REQUEST_URL),
  // The local engine (mode: local) is its own bundle beside this one, loaded only when asked for.
  loadEngine: async () =>
    (await import(
      /* webpackIgnore: true */ pathToFileURL(
        join(dirname(fileURLToPath(import.meta.url)), 'local', 'engine.mjs'),
      ).href
    )) as LocalEngine,
  sinceStart: () => performance.now(),
  cacheDir: process.env.RUNNER_TEMP ? join(process.env.RUNNER_TEMP, 'scanward-local') : undefined,
});
