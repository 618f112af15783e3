/**
 * Templates of every protocol the engine runs, together: compiling one (`tcp:`/`network:` in
 * network.ts, `ssl:` in ssl.ts, HTTP in loader.ts), and a directory's set. Scans load their set
 * through corpus.ts (a worker thread and a cache); `loadTemplates` is the plain path for tests
 * and tools.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import PQueue from 'p-queue';
import { compileTemplate, parseTemplateDocument, PROTOCOLS, UnsupportedTemplate } from './loader.ts';
import { compileNetworkTemplate } from './network.ts';
import { compileSslTemplate } from './ssl.ts';
import { templateSchema, type LoadedTemplate, type NetworkTemplate, type SslTemplate } from './schema.ts';

export interface TemplateStats {
  directory: string;
  files: number;
  loaded: number;
  skipped: number;
  /** Skipped templates by reason, e.g. `{ payloads: 120, 'protocol:network': 277 }`. */
  skippedByReason: Record<string, number>;
  loadMs: number;
  /** Files whose compiled form came from the content-hash cache (load-worker.mjs); 0 without one. */
  cached: number;
}

/** A template of any protocol the engine runs. */
export type AnyTemplate = LoadedTemplate | NetworkTemplate | SslTemplate;

/** The protocol of a compiled template (HTTP templates carry none). */
export function protocolOf(template: AnyTemplate): 'http' | 'network' | 'ssl' {
  return 'protocol' in template ? template.protocol : 'http';
}

export interface TemplateSet {
  /** HTTP templates. */
  templates: LoadedTemplate[];
  /** `tcp:`/`network:` templates (network.ts). */
  network: NetworkTemplate[];
  /** `ssl:` templates (ssl.ts). */
  ssl: SslTemplate[];
  stats: TemplateStats;
  /** Per skipped file (relative path): why. */
  skippedFiles: Map<string, string>;
}

/**
 * Compiles one template of any protocol the engine runs: `tcp:`/`network:` (network.ts),
 * `ssl:` (ssl.ts), else HTTP (`compileTemplate`).
 */
export function compileAnyTemplate(text: string, file = '<inline>'): AnyTemplate {
  if (!/^(http|requests):/m.test(text)) {
    if (/^(tcp|network):/m.test(text) || /^ssl:/m.test(text)) {
      if (/\{\{interactsh-url\}\}|interactsh_(protocol|request|response)/.test(text))
        throw new UnsupportedTemplate('out-of-band');
      if (/^flow:/m.test(text)) throw new UnsupportedTemplate('flow');
      const raw = parseTemplateDocument(text);
      const protocols = PROTOCOLS.filter((p) => p in raw);
      if (protocols.length !== 1 || 'http' in raw || 'requests' in raw)
        throw new UnsupportedTemplate('multi-protocol');
      const parsed = templateSchema.safeParse(raw);
      if (!parsed.success) throw new UnsupportedTemplate('invalid');
      return protocols[0] === 'ssl'
        ? compileSslTemplate(parsed.data, raw.ssl, file)
        : compileNetworkTemplate(parsed.data, raw[protocols[0] as string], file);
    }
  }
  return compileTemplate(text, file);
}

async function yamlFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
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

/** Templates compiled between two yields to the event loop (a few milliseconds of work). */
const YIELD_EVERY = 25;

/**
 * Reads, parses and compiles every template under `directory`, on the calling thread and without
 * a cache: for tests and tools. Scans load through corpus.ts (a worker thread and a cache).
 */
export async function loadTemplates(directory: string): Promise<TemplateSet> {
  const started = performance.now();
  const files = await yamlFiles(directory);
  const set: TemplateSet = {
    templates: [],
    network: [],
    ssl: [],
    skippedFiles: new Map(),
    stats: {
      directory,
      files: files.length,
      loaded: 0,
      skipped: 0,
      skippedByReason: {},
      loadMs: 0,
      cached: 0,
    },
  };
  const seen = new Set<string>();
  const queue = new PQueue({ concurrency: 64 });
  const texts = await Promise.all(
    files.map((file) => queue.add(() => readFile(file, 'utf8').catch(() => null)) as Promise<string | null>),
  );
  for (const [i, path] of files.entries()) {
    // Compiling is CPU work: yield to the event loop every few files, so a caller on a busy
    // loop keeps answering.
    if (i % YIELD_EVERY === YIELD_EVERY - 1) await new Promise<void>((resolve) => setImmediate(resolve));
    const file = relative(directory, path);
    const text = texts[i];
    let reason: string | undefined;
    let template: AnyTemplate | undefined;
    if (text == null) reason = 'unreadable';
    else {
      try {
        template = compileAnyTemplate(text, file);
      } catch (err) {
        reason = err instanceof UnsupportedTemplate ? err.reason : 'invalid';
      }
    }
    if (template) {
      if (seen.has(template.id)) reason = 'duplicate-id';
      else {
        seen.add(template.id);
        const protocol = protocolOf(template);
        if (protocol === 'network') set.network.push(template as NetworkTemplate);
        else if (protocol === 'ssl') set.ssl.push(template as SslTemplate);
        else set.templates.push(template as LoadedTemplate);
      }
    }
    if (reason) {
      set.skippedFiles.set(file, reason);
      set.stats.skippedByReason[reason] = (set.stats.skippedByReason[reason] ?? 0) + 1;
    }
  }
  set.stats.loaded = set.templates.length + set.network.length + set.ssl.length;
  set.stats.skipped = set.skippedFiles.size;
  set.stats.loadMs = Math.round(performance.now() - started);
  return set;
}
