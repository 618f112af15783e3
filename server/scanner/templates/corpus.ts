/**
 * Template trees as scans use them: loaded once per process and directory in a worker thread
 * (load-worker.mjs), so a process that also serves the API (`SCANWARD_ROLE=all`) keeps answering
 * while a corpus of ten thousand files is read and compiled. The worker answers an unchanged tree
 * from the compiled-template cache in the data directory (`<data dir>/templates/cache/`, keyed by
 * the hash of each file's text and by the engine version), which is what makes a reload fast;
 * templates arrive in chunks of V8-serialized bytes, each chunk deserialized in a few milliseconds.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { addTemplate, type CompiledTemplate, type TemplateSet, type TemplateStats } from './template-set.ts';
import { runsFromSource, tsxApiUrl } from '../../worker-source.ts';

type WorkerMessage =
  | { kind: 'templates'; templates: { file: string; bytes: Uint8Array }[] }
  | { kind: 'done'; stats: TemplateStats; skippedFiles: [string, string][] }
  | { kind: 'error'; message: string };

/** Bump to drop every cache when the cached shape changes in a way the sources below do not show. */
const FORMAT = 1;
/** The sources whose change changes what a template compiles to. */
const COMPILER_SOURCES = [
  'loader.ts',
  'schema.ts',
  'dsl.ts',
  'regex.ts',
  'network.ts',
  'ssl.ts',
  'compile.ts',
  'template-set.ts',
  '../fuzzing-template.ts',
];

let engine: string | undefined;

/** The engine version the cache is kept under: the compiler's source and V8's serialization format. */
export function engineVersion(): string {
  if (engine) return engine;
  const hash = createHash('sha1').update(`format ${FORMAT} v8 ${process.versions.v8}\n`);
  for (const name of COMPILER_SOURCES) {
    try {
      hash.update(readFileSync(new URL(`./${name}`, import.meta.url)));
    } catch {
      hash.update(`(no ${name})`);
    }
  }
  return (engine = hash.digest('hex').slice(0, 16));
}

/** Where the compiled forms of templates are kept: `<data dir>/templates/cache/`. */
export function templateCacheDir(dataDir: string): string {
  return join(dataDir, 'templates', 'cache');
}

function startWorker(directory: string, cacheDir: string | undefined): Worker {
  const fromSource = runsFromSource(import.meta.url);
  return new Worker(new URL('./load-worker.mjs', import.meta.url), {
    workerData: {
      directory,
      cacheFile: cacheDir ? join(cacheDir, `compiled-${engineVersion()}.v8`) : undefined,
      compilerUrl: new URL(`./compile.${fromSource ? 'ts' : 'js'}`, import.meta.url).href,
      // Workers do not inherit tsx's loader hooks on Node 20: the worker registers them itself.
      tsxUrl: fromSource ? tsxApiUrl() : undefined,
    },
  });
}

/** Loads and compiles a tree off the calling thread; `cacheDir` keeps compiled forms across restarts. */
export function loadTemplatesInWorker(
  directory: string,
  options: { cacheDir?: string | undefined } = {},
): Promise<TemplateSet> {
  const set: TemplateSet = {
    templates: [],
    network: [],
    ssl: [],
    fuzzing: [],
    skippedFiles: new Map(),
    stats: { directory, files: 0, loaded: 0, skipped: 0, skippedByReason: {}, loadMs: 0, cached: 0 },
  };
  return new Promise<TemplateSet>((resolve, reject) => {
    const worker = startWorker(directory, options.cacheDir);
    let settled = false;
    const settle = (error?: Error): void => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      if (error) reject(error);
      else resolve(set);
    };
    worker.on('message', (message: WorkerMessage) => {
      if (message.kind === 'templates') {
        for (const { file, bytes } of message.templates) {
          const template = deserialize(bytes) as CompiledTemplate;
          template.file = file;
          restoreBuffers(template);
          addTemplate(set, template);
        }
      } else if (message.kind === 'done') {
        set.stats = message.stats;
        set.skippedFiles = new Map(message.skippedFiles);
        settle();
      } else settle(new Error(`templates in ${directory} could not be loaded: ${message.message}`));
    });
    worker.once('error', (err) => settle(err));
    worker.once('exit', (code) => settle(new Error(`the template loader stopped (exit ${code})`)));
  });
}

/** Binary matchers compare Buffers; make sure deserialized byte arrays are Buffers again. */
function restoreBuffers(template: CompiledTemplate): void {
  if (!('requests' in template)) return;
  for (const request of template.requests) {
    for (const matcher of request.matchers) {
      if (matcher.binaries.length === 0) continue;
      matcher.binaries = matcher.binaries.map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength));
    }
  }
}

const loaded = new Map<string, Promise<TemplateSet>>();

/**
 * The templates of a directory, loaded once per process (in a worker thread) and cache
 * directory: a process serving a second data directory (the tests run many apps in one
 * process) writes that directory's cache too.
 */
export function templatesIn(
  directory: string,
  options: { cacheDir?: string | undefined } = {},
): Promise<TemplateSet> {
  const key = JSON.stringify([directory, options.cacheDir ?? null]);
  let pending = loaded.get(key);
  if (!pending) {
    pending = loadTemplatesInWorker(directory, options);
    loaded.set(key, pending);
    // A failed load (directory missing) is retried by the next scan instead of being remembered.
    pending.catch(() => loaded.delete(key));
  }
  return pending;
}
