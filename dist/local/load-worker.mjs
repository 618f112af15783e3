// Worker thread of corpus.ts: loads a template tree for the scan's thread, which never parses
// a template. Plain JavaScript, so the worker starts without a TypeScript loader: an unchanged
// tree is read, hashed and answered from the compiled-template cache alone; only files the cache
// does not know bring the compiler in (compile.ts, through tsx when the server runs from source).
//
// The cache (`workerData.cacheFile`, in the data directory) maps the SHA-1 of each file's text to
// what compiling it came to: the template's id, protocol and V8 serialization, or why it is
// skipped. It is written back (a temporary file renamed into place) when something was compiled
// or some entries went unused, keeping only this tree's entries.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { deserialize, serialize } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';

/** Templates per message: each chunk is deserialized on the scan's thread in a few milliseconds. */
const CHUNK = 100;

const { directory, cacheFile, compilerUrl, tsxUrl } = workerData;
const port = parentPort;

/** Every `*.yaml`/`*.yml` under the root, outside dot-directories, sorted (loader.ts's order). */
function yamlFiles(root) {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.ya?ml$/i.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .filter(
      (path) =>
        !relative(root, path)
          .split(sep)
          .some((part) => part.startsWith('.')),
    )
    .sort();
}

function readCache() {
  if (!cacheFile) return new Map();
  try {
    const stored = deserialize(readFileSync(cacheFile));
    return stored.entries instanceof Map ? stored.entries : new Map();
  } catch {
    return new Map(); // no cache yet, or a damaged one: compile and write it afresh
  }
}

function writeCache(entries) {
  mkdirSync(dirname(cacheFile), { recursive: true });
  const temporary = `${cacheFile}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(temporary, serialize({ entries }));
  renameSync(temporary, cacheFile);
}

async function load() {
  const started = performance.now();
  const paths = yamlFiles(directory);
  const cache = readCache();
  const used = new Map();
  const outcomes = [];
  const misses = [];
  for (const path of paths) {
    const file = relative(directory, path);
    let text;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      outcomes.push({ file, skip: 'unreadable' });
      continue;
    }
    const hash = createHash('sha1').update(text).digest('base64url');
    const hit = cache.get(hash);
    const outcome = { file, ...hit };
    outcomes.push(outcome);
    if (hit) used.set(hash, hit);
    else misses.push({ outcome, hash, text });
  }
  if (misses.length > 0) {
    if (tsxUrl) (await import(tsxUrl)).register();
    const { compileOutcome } = await import(compilerUrl);
    for (const { outcome, hash, text } of misses) {
      const compiled = compileOutcome(text, outcome.file);
      Object.assign(outcome, compiled);
      used.set(hash, compiled);
    }
  }
  if (cacheFile && (misses.length > 0 || used.size !== cache.size)) {
    try {
      writeCache(used);
    } catch {
      // A read-only data directory only costs the next start its speed.
    }
  }

  const seen = new Set();
  const chosen = [];
  const skippedFiles = [];
  const skippedByReason = {};
  for (const outcome of outcomes) {
    let reason = outcome.skip;
    if (!reason && seen.has(outcome.id)) reason = 'duplicate-id';
    if (reason) {
      skippedFiles.push([outcome.file, reason]);
      skippedByReason[reason] = (skippedByReason[reason] ?? 0) + 1;
      continue;
    }
    seen.add(outcome.id);
    chosen.push({ file: outcome.file, bytes: outcome.bytes });
  }
  for (let i = 0; i < chosen.length; i += CHUNK) {
    port.postMessage({ kind: 'templates', templates: chosen.slice(i, i + CHUNK) });
  }
  port.postMessage({
    kind: 'done',
    skippedFiles,
    stats: {
      directory,
      files: paths.length,
      loaded: chosen.length,
      skipped: skippedFiles.length,
      skippedByReason,
      loadMs: Math.round(performance.now() - started),
      cached: paths.length - misses.length,
    },
  });
}

load().catch((err) => port.postMessage({ kind: 'error', message: err?.message ?? String(err) }));
