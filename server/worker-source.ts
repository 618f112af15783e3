/**
 * Starting worker threads from this source tree. The server runs from TypeScript through tsx;
 * on Node 20 a worker does not inherit tsx's loader hooks, so a worker whose code is TypeScript
 * starts from a small JavaScript entry that registers tsx (from the URL given here) first.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** tsx's ESM API (`register`), as a URL a worker can import from anywhere. */
export function tsxApiUrl(): string {
  // The package's `import` condition; resolved from this file, whatever the process's cwd.
  const required = createRequire(import.meta.url).resolve('tsx/esm/api');
  return pathToFileURL(required.replace(/index\.cjs$/, 'index.mjs')).href;
}

/** Whether `moduleUrl` (a module's `import.meta.url`) is TypeScript run from source. */
export function runsFromSource(moduleUrl: string): boolean {
  return moduleUrl.endsWith('.ts');
}

/**
 * A worker thread running the module at `moduleUrl` (TypeScript or JavaScript), through
 * `worker-entry.mjs`, which registers tsx first when the module is TypeScript.
 */
export function startModuleWorker(
  moduleUrl: URL,
  workerData: unknown = undefined,
  options: Pick<WorkerOptions, 'resourceLimits'> = {},
): Worker {
  return new Worker(new URL('./worker-entry.mjs', import.meta.url), {
    ...options,
    workerData: {
      moduleUrl: moduleUrl.href,
      tsxUrl: runsFromSource(moduleUrl.href) ? tsxApiUrl() : undefined,
      data: workerData,
    },
  });
}
