#!/usr/bin/env node
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { LocalEngine } from '../server/schemas/local-scan.ts';
import { runCi } from './ci/run.ts';

/**
 * The `scanward-ci` command's entry (dist/ci/index.js after bundling): wires
 * the process into `runCi(deps)` and turns its answer into the exit code.
 * SIGINT/SIGTERM (the CI cancelling the job) cancel the scan.
 */

const aborter = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => aborter.abort(new Error(`received ${signal}`)));
}

process.exitCode = await runCi({
  argv: process.argv.slice(2),
  env: process.env,
  stderr: (text) => process.stderr.write(text),
  stdout: (text) => process.stdout.write(text),
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
  cwd: process.cwd(),
  signal: aborter.signal,
  // The local engine (mode: local) is its own bundle beside this one, loaded only when asked for.
  loadEngine: async () =>
    (await import(
      /* webpackIgnore: true */ pathToFileURL(
        join(dirname(fileURLToPath(import.meta.url)), '..', 'local', 'engine.mjs'),
      ).href
    )) as LocalEngine,
  sinceStart: () => performance.now(),
});
