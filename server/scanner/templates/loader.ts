/**
 * Loads a directory tree of nuclei templates once per process: every `*.yaml` file is parsed,
 * checked against the supported subset (schema.ts) and compiled (regexes, DSL expressions);
 * what cannot be run faithfully is skipped and counted by reason, never half-run.
 */
import { load as loadYaml, CORE_SCHEMA } from 'js-yaml';
import { parse as parseYaml } from 'yaml';
import { dslVariables, parseDsl } from './dsl.ts';
import { compileGoRegex } from './regex.ts';
import {
  httpRequestSchema,
  templateSchema,
  type CompiledMatcher,
  type CompiledRequest,
  type LoadedTemplate,
  type RequestItem,
  type RawMatcher,
  type RawRequest,
  type Severity,
  type TemplateInfo,
} from './schema.ts';

/** A template the engine cannot run as written; `reason` is a short stable key. */
export class UnsupportedTemplate extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'UnsupportedTemplate';
  }
}

/** Variables the engine fills in for every request. */
export const BUILTIN_VARIABLES = ['BaseURL', 'RootURL', 'Hostname', 'Host', 'Port', 'Scheme', 'Path'];
/** Most requests one template may expand to (paths × payload values). */
export const MAX_REQUESTS_PER_TEMPLATE = 32;

/** Variables a matcher or DSL expression may read of a response, besides its header names. */
const RESPONSE_VARIABLES = new Set([
  'body',
  'header',
  'all_headers',
  'status_code',
  'content_length',
  'content_type',
  'response',
  'raw',
  'all',
]);

export const PROTOCOLS = [
  'dns',
  'file',
  'network',
  'tcp',
  'ssl',
  'websocket',
  'whois',
  'headless',
  'code',
  'javascript',
];
const SEVERITIES = new Set<Severity>(['critical', 'high', 'medium', 'low', 'info']);
const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;

export const list = (v: string | string[] | null | undefined): string[] =>
  v == null
    ? []
    : (Array.isArray(v) ? v : [v])
        .flatMap((s) => s.split(','))
        .map((s) => s.trim())
        .filter(Boolean);

/**
 * Templates that report what is not there, so they are never run: `waf-detect`'s
 * `apachegeneric` and `nginxgeneric` matchers match the word "apache" or "nginx" anywhere in
 * a response, so every Apache or nginx server "has a web application firewall".
 */
const UNRELIABLE = new Set(['waf-detect']);

/** A YAML anchor (`&name`) outside quotes and comments, roughly: only such texts can hold aliases. */
const ANCHOR = /(^|[\s[{,:-])&[A-Za-z0-9_-]+(?=[\s,\]}]|$)/m;

/**
 * YAML of a template: js-yaml (several times faster, YAML 1.2 core schema, the same reading
 * as the `yaml` package for templates) for the texts without anchors, which are nearly all;
 * the `yaml` package with its alias-expansion limit for the others, so a document of nested
 * aliases cannot make the schema check walk an exponential tree.
 */
export function parseTemplateYaml(text: string): unknown {
  if (ANCHOR.test(text)) return parseYaml(text, { maxAliasCount: 100 });
  return loadYaml(text, { schema: CORE_SCHEMA });
}

/** A template's YAML as a mapping; throws UnsupportedTemplate (`yaml-error`, `invalid`) otherwise. */
export function parseTemplateDocument(text: string): Record<string, unknown> {
  let doc: unknown;
  try {
    doc = parseTemplateYaml(text);
  } catch {
    throw new UnsupportedTemplate('yaml-error');
  }
  if (typeof doc !== 'object' || doc === null) throw new UnsupportedTemplate('invalid');
  return doc as Record<string, unknown>;
}

/** Parses and compiles one template's text; throws UnsupportedTemplate with the reason it is skipped. */
export function compileTemplate(text: string, file = '<inline>'): LoadedTemplate {
  if (/\{\{interactsh-url\}\}|interactsh_(protocol|request|response)/.test(text)) {
    throw new UnsupportedTemplate('out-of-band');
  }
  // Cheap tests on the text first: a quarter of a template tree is rejected without parsing YAML.
  if (/^flow:/m.test(text)) throw new UnsupportedTemplate('flow');
  if (/^self-contained:\s*true/m.test(text)) throw new UnsupportedTemplate('self-contained');
  if (!/^(http|requests):/m.test(text)) {
    const protocol = /^(dns|file|network|tcp|ssl|websocket|whois|headless|code|javascript):/m.exec(text);
    if (protocol) throw new UnsupportedTemplate(`protocol:${protocol[1]}`);
  }
  if (/^\s+(-\s+)?fuzzing:/m.test(text)) throw new UnsupportedTemplate('fuzzing');
  const raw = parseTemplateDocument(text);
  if ('flow' in raw) throw new UnsupportedTemplate('flow');
  if ('self-contained' in raw && raw['self-contained']) throw new UnsupportedTemplate('self-contained');
  if ('signature' in raw) throw new UnsupportedTemplate('signature');
  const protocol = PROTOCOLS.find((p) => p in raw);
  const blocks = raw.http ?? raw.requests;
  if (blocks === undefined) throw new UnsupportedTemplate(protocol ? `protocol:${protocol}` : 'no-requests');
  if (protocol) throw new UnsupportedTemplate('multi-protocol');
  const parsed = templateSchema.safeParse(raw);
  if (!parsed.success) throw new UnsupportedTemplate('invalid');
  const template = parsed.data;
  if (UNRELIABLE.has(template.id)) throw new UnsupportedTemplate('unreliable');
  if (!Array.isArray(blocks) || blocks.length === 0) throw new UnsupportedTemplate('invalid');

  const variables = new Map<string, string>();
  for (const [name, value] of Object.entries(template.variables ?? {})) {
    if (value.includes('{{')) throw new UnsupportedTemplate('dynamic-variables');
    variables.set(name, value);
  }
  const requests = blocks.map((block: unknown) => compileRequest(block, variables));
  const total = requests.reduce((n, r) => n + r.items.length, 0);
  if (total > MAX_REQUESTS_PER_TEMPLATE) throw new UnsupportedTemplate('too-many-requests');
  return { id: template.id, file, info: compileInfo(template.info), variables, requests };
}

export function compileInfo(info: {
  name: string;
  severity?: string | undefined;
  description?: string | undefined;
  impact?: string | undefined;
  tags?: string[] | undefined;
  classification?:
    | { 'cve-id'?: string[] | null; 'cwe-id'?: string[] | null; 'cvss-metrics'?: string | null }
    | null
    | undefined;
}): TemplateInfo {
  const severity = (info.severity ?? 'info').trim().toLowerCase() as Severity;
  const c = info.classification ?? {};
  const vector = c['cvss-metrics']?.trim();
  return {
    name: info.name.trim(),
    severity: SEVERITIES.has(severity) ? severity : 'info',
    description: (info.description ?? info.name).trim(),
    impact: (info.impact ?? '').trim(),
    cveIds: list(c['cve-id'])
      .map((s) => s.toUpperCase())
      .filter((s) => /^CVE-\d{4}-\d+$/.test(s)),
    cweIds: list(c['cwe-id'])
      .map((s) => s.toUpperCase())
      .filter((s) => /^CWE-\d+$/.test(s)),
    cvssVector: vector && /^CVSS:[34]\.\d\//.test(vector) ? vector : null,
    tags: list(info.tags),
  };
}

function compileRequest(block: unknown, variables: Map<string, string>): CompiledRequest {
  if (typeof block !== 'object' || block === null) throw new UnsupportedTemplate('invalid');
  const b = block as Record<string, unknown>;
  if ('fuzzing' in b) throw new UnsupportedTemplate('fuzzing');
  if (b['req-condition']) throw new UnsupportedTemplate('multi-step');
  if (b['cookie-reuse']) throw new UnsupportedTemplate('cookie-reuse');
  if ('race' in b || 'race_count' in b) throw new UnsupportedTemplate('race');
  if ('pipeline' in b || 'unsafe' in b) throw new UnsupportedTemplate('unsafe');
  if ('headless' in b || 'steps' in b) throw new UnsupportedTemplate('headless');
  if (!('matchers' in b)) throw new UnsupportedTemplate('no-matchers');
  const parsed = httpRequestSchema.safeParse(block);
  if (!parsed.success) {
    const unknownKey = parsed.error.issues.find((i) => i.code === 'unrecognized_keys');
    throw new UnsupportedTemplate(unknownKey ? `unsupported-key:${unknownKey.keys[0]}` : 'invalid');
  }
  const req: RawRequest = parsed.data;
  if (req.extractors?.some((e) => e.internal)) throw new UnsupportedTemplate('multi-step');

  const payloadValues = expandPayloads(req);
  const known = new Set([
    ...BUILTIN_VARIABLES,
    ...variables.keys(),
    ...(payloadValues ? [payloadValues.name] : []),
  ]);
  const checkPlaceholders = (text: string): void => {
    for (const m of text.matchAll(PLACEHOLDER)) {
      if (!known.has((m[1] as string).trim())) throw new UnsupportedTemplate('unsupported-variable');
    }
  };
  const fill = (text: string, extra?: [string, string]): string =>
    text.replace(PLACEHOLDER, (whole, name: string) => {
      const key = name.trim();
      if (extra && key === extra[0]) return extra[1];
      return variables.get(key) ?? whole;
    });

  const expand = (text: string): string[] =>
    payloadValues && text.includes(`{{${payloadValues.name}}}`)
      ? payloadValues.values.map((v) => fill(text, [payloadValues.name, v]))
      : [fill(text)];
  // Payload values that need variables the engine does not have (`{{DN}}`) are left out, not guessed.
  const resolvable = (text: string): boolean =>
    [...text.matchAll(PLACEHOLDER)].every((m) => BUILTIN_VARIABLES.includes((m[1] as string).trim()));

  let items: RequestItem[];
  if (req.raw) {
    if (req.path) throw new UnsupportedTemplate('invalid');
    items = req.raw.flatMap(expand).filter(resolvable).map(parseRawRequest);
  } else {
    if (!req.path) throw new UnsupportedTemplate('invalid');
    const headers = Object.entries(req.headers ?? {}).map(([k, v]) => [k, fill(v)] as [string, string]);
    const body = req.body === undefined ? undefined : fill(req.body);
    items = req.path
      .flatMap(expand)
      .filter(resolvable)
      .map((path) => ({ method: req.method, path, headers, body }));
  }
  if (items.length === 0) throw new UnsupportedTemplate('unsupported-variable');
  for (const item of items) {
    checkPlaceholders(item.path);
    if (!/^\{\{(BaseURL|RootURL)\}\}/.test(item.path.trim()))
      throw new UnsupportedTemplate('path-not-on-target');
    for (const [name, value] of item.headers) {
      checkPlaceholders(value);
      if (/[\r\n]/.test(name + value)) throw new UnsupportedTemplate('invalid');
    }
    if (item.body !== undefined) checkPlaceholders(item.body);
  }

  const extractorNames = new Set(
    (req.extractors ?? [])
      .map((e) => (typeof e.name === 'string' ? e.name.toLowerCase() : ''))
      .filter(Boolean),
  );
  const dslKnown = new Set([...variables.keys()].map((k) => k.toLowerCase()));
  return {
    items,
    redirects: req.redirects === true,
    maxRedirects: Math.min(req['max-redirects'] ?? 3, 3),
    stopAtFirstMatch: req['stop-at-first-match'] === true,
    matchersCondition: req['matchers-condition'] ?? 'or',
    matchers: req.matchers.map((m) => compileMatcher(m, extractorNames, dslKnown)),
  };
}

/**
 * A raw request (`GET /path HTTP/1.1`, headers, blank line, body) as a request item whose path
 * is `{{RootURL}}` + the request target; `Host` is always the engine's own.
 */
export function parseRawRequest(raw: string): RequestItem {
  const text = raw.replace(/^\s+/, '').replace(/\r\n/g, '\n');
  const blank = text.indexOf('\n\n');
  const head = blank === -1 ? text.trimEnd() : text.slice(0, blank);
  const body = blank === -1 ? '' : text.slice(blank + 2);
  const [requestLine = '', ...headerLines] = head.split('\n');
  const m = /^([A-Z]+) (\S+)(?: HTTP\/\d(?:\.\d)?)?\s*$/.exec(requestLine);
  if (!m) throw new UnsupportedTemplate('raw-request');
  const target = m[2] as string;
  let path: string;
  if (target.startsWith('/')) path = `{{RootURL}}${target}`;
  else if (/^\{\{(BaseURL|RootURL)\}\}/.test(target)) path = target;
  else throw new UnsupportedTemplate('raw-request');
  const headers: Array<[string, string]> = [];
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new UnsupportedTemplate('raw-request');
    const name = line.slice(0, colon).trim();
    if (/^(host|content-length|connection|transfer-encoding)$/i.test(name)) continue;
    headers.push([name, line.slice(colon + 1).trim()]);
  }
  return { method: m[1] as string, path, headers, body: body === '' ? undefined : body };
}

/** Inline payload lists of one variable (sniper/batteringram are then the same thing). */
function expandPayloads(req: RawRequest): { name: string; values: string[] } | undefined {
  if (!req.payloads) {
    if (req.attack) throw new UnsupportedTemplate('payloads');
    return undefined;
  }
  const entries = Object.entries(req.payloads);
  if (entries.length !== 1 || (req.attack && !['sniper', 'batteringram'].includes(req.attack))) {
    throw new UnsupportedTemplate('payloads');
  }
  const [name, values] = entries[0] as [string, unknown];
  if (!Array.isArray(values) || !values.every((v) => ['string', 'number'].includes(typeof v))) {
    throw new UnsupportedTemplate('payloads');
  }
  return { name, values: values.map(String) };
}

/** A matcher part as the engine names it; throws for parts of other requests or out-of-band data. */
export function normalisePart(part: string | undefined): string {
  const p = (part ?? 'body').trim().toLowerCase();
  if (p.startsWith('interactsh')) throw new UnsupportedTemplate('out-of-band');
  if (/_\d+$/.test(p)) throw new UnsupportedTemplate('multi-step');
  if (p === 'headers' || p === 'all_headers') return 'header';
  if (p === 'response' || p === 'raw') return 'all';
  if (RESPONSE_VARIABLES.has(p)) return p;
  if (/^[a-z][a-z0-9_-]*$/.test(p) && !['request', 'host', 'matched', 'duration'].includes(p)) {
    return `header:${p.replace(/-/g, '_')}`;
  }
  throw new UnsupportedTemplate(`unsupported-part:${p}`);
}

export function compileMatcher(
  m: RawMatcher,
  extractorNames: Set<string>,
  dslKnown: Set<string>,
  protocol: {
    /** How the protocol names a matcher's part (default: HTTP's). */
    partOf?: (part: string | undefined) => string;
    /** When set, the only variables a DSL expression may read (besides the template's own). */
    variables?: ReadonlySet<string>;
  } = {},
): CompiledMatcher {
  const partOf = protocol.partOf ?? normalisePart;
  const type = m.type.trim().toLowerCase();
  if (!['word', 'status', 'regex', 'dsl', 'size', 'binary'].includes(type)) {
    throw new UnsupportedTemplate(`matcher:${type}`);
  }
  if (m.encoding && m.encoding !== 'hex') throw new UnsupportedTemplate('matcher-encoding');
  const caseInsensitive = m['case-insensitive'] === true;
  const matcher: CompiledMatcher = {
    type: type as CompiledMatcher['type'],
    part: type === 'dsl' || type === 'status' ? 'all' : partOf(m.part),
    condition: m.condition ?? 'or',
    negative: m.negative === true,
    caseInsensitive,
    words: [],
    regexes: [],
    statuses: m.status ?? [],
    sizes: m.size ?? [],
    binaries: [],
    dsl: [],
  };
  if (type === 'word') {
    const words = m.words ?? [];
    if (words.length === 0) throw new UnsupportedTemplate('invalid');
    if (words.some((w) => w.includes('{{'))) throw new UnsupportedTemplate('unsupported-variable');
    matcher.words =
      m.encoding === 'hex'
        ? words.map((w) => Buffer.from(w, 'hex').toString('latin1'))
        : words.map((w) => (caseInsensitive ? w.toLowerCase() : w));
  } else if (type === 'regex') {
    if (!m.regex?.length) throw new UnsupportedTemplate('invalid');
    try {
      matcher.regexes = m.regex.map((r) => compileGoRegex(r, caseInsensitive ? 'i' : ''));
    } catch {
      throw new UnsupportedTemplate('regex-does-not-compile');
    }
  } else if (type === 'binary') {
    if (!m.binary?.length || m.binary.some((h) => !/^([0-9a-f]{2})+$/i.test(h)))
      throw new UnsupportedTemplate('invalid');
    matcher.binaries = m.binary.map((h) => Buffer.from(h, 'hex'));
  } else if (type === 'status') {
    if (matcher.statuses.length === 0) throw new UnsupportedTemplate('invalid');
  } else if (type === 'size') {
    if (matcher.sizes.length === 0) throw new UnsupportedTemplate('invalid');
  } else {
    if (!m.dsl?.length) throw new UnsupportedTemplate('invalid');
    for (const source of m.dsl) {
      let node;
      try {
        node = parseDsl(source);
      } catch {
        throw new UnsupportedTemplate('unsupported-dsl');
      }
      for (const name of dslVariables(node)) {
        if (name.startsWith('interactsh')) throw new UnsupportedTemplate('out-of-band');
        if (/_\d+$/.test(name) || extractorNames.has(name)) throw new UnsupportedTemplate('multi-step');
        if (protocol.variables) {
          if (protocol.variables.has(name) || dslKnown.has(name)) continue;
          throw new UnsupportedTemplate('unsupported-dsl');
        }
        if (RESPONSE_VARIABLES.has(name) || dslKnown.has(name)) continue;
        if (['duration', 'host', 'matched', 'ip', 'request', 'template_path'].includes(name)) {
          throw new UnsupportedTemplate('unsupported-dsl');
        }
      }
      matcher.dsl.push(node);
    }
  }
  return matcher;
}
