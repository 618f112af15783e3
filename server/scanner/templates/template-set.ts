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
import { compileFuzzTemplate, UnsupportedFuzzing, type FuzzTemplate } from '../fuzzing-template.ts';

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

/**
 * An HTTP template with a `fuzzing:` section (nuclei's DAST templates), compiled by the same
 * compiler as the web assessment's default fuzzing set (../fuzzing-template.ts). The web
 * assessment runs these over every crawled parameter, only when a scan's `web.active` is true
 * (check-registry.ts hands them to it); the HTTP template check never runs them.
 */
export interface FuzzingTemplateFile {
  protocol: 'fuzzing';
  id: string;
  file: string;
  template: FuzzTemplate;
}

/** Anything a template file compiles to: a template of a protocol the engine runs, or a fuzzing template. */
export type CompiledTemplate = AnyTemplate | FuzzingTemplateFile;

/** The kind of a compiled template file. */
export function kindOf(template: CompiledTemplate): 'http' | 'network' | 'ssl' | 'fuzzing' {
  return 'protocol' in template ? template.protocol : 'http';
}

export interface TemplateSet {
  /** HTTP templates. */
  templates: LoadedTemplate[];
  /** `tcp:`/`network:` templates (network.ts). */
  network: NetworkTemplate[];
  /** `ssl:` templates (ssl.ts). */
  ssl: SslTemplate[];
  /** Templates with a `fuzzing:` section (run by the web assessment, only with `web.active`). */
  fuzzing: FuzzingTemplateFile[];
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

/**
 * Fuzzing templates never run although they compile: their payload makes the scanned
 * application fetch a URL on another host (the default fuzzing set leaves them out too).
 */
const FUZZING_LEFT_OUT = new Set(['generic-rfi']);

/** A template's text has a `fuzzing:` section (in an `http:` block). */
export const hasFuzzingSection = (text: string): boolean => /^\s+(-\s+)?fuzzing:/m.test(text);

/**
 * Compiles one template file: a fuzzing template (`fuzzing:` section) with the fuzzing
 * compiler, anything else with `compileAnyTemplate`. Throws UnsupportedTemplate with the reason
 * a file is skipped; a fuzzing template's reasons start with `fuzzing:` (`fuzzing:matcher-dsl`).
 */
export function compileTemplateFile(text: string, file = '<inline>'): CompiledTemplate {
  if (!hasFuzzingSection(text)) return compileAnyTemplate(text, file);
  let template: FuzzTemplate;
  try {
    template = compileFuzzTemplate(text);
  } catch (err) {
    if (err instanceof UnsupportedFuzzing)
      throw new UnsupportedTemplate(`fuzzing:${err.message.trim().replace(/\s+/g, '-')}`);
    throw new UnsupportedTemplate('invalid');
  }
  if (FUZZING_LEFT_OUT.has(template.id)) throw new UnsupportedTemplate('fuzzing:reaches-another-host');
  return { protocol: 'fuzzing', id: template.id, file, template };
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
    fuzzing: [],
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
    let template: CompiledTemplate | undefined;
    if (text == null) reason = 'unreadable';
    else {
      try {
        template = compileTemplateFile(text, file);
      } catch (err) {
        reason = err instanceof UnsupportedTemplate ? err.reason : 'invalid';
      }
    }
    if (template) {
      if (seen.has(template.id)) reason = 'duplicate-id';
      else {
        seen.add(template.id);
        addTemplate(set, template);
      }
    }
    if (reason) {
      set.skippedFiles.set(file, reason);
      set.stats.skippedByReason[reason] = (set.stats.skippedByReason[reason] ?? 0) + 1;
    }
  }
  set.stats.loaded = set.templates.length + set.network.length + set.ssl.length + set.fuzzing.length;
  set.stats.skipped = set.skippedFiles.size;
  set.stats.loadMs = Math.round(performance.now() - started);
  return set;
}

/** Adds a compiled template to its list in the set. */
export function addTemplate(set: TemplateSet, template: CompiledTemplate): void {
  const kind = kindOf(template);
  if (kind === 'network') set.network.push(template as NetworkTemplate);
  else if (kind === 'ssl') set.ssl.push(template as SslTemplate);
  else if (kind === 'fuzzing') set.fuzzing.push(template as FuzzingTemplateFile);
  else set.templates.push(template as LoadedTemplate);
}
