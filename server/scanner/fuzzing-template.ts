/**
 * The compiler of nuclei's DAST templates (the `fuzzing:` section of an HTTP template): the
 * subset the web assessment runs (web/fuzzing.ts runs it; docs/web-testing.md lists it). Here,
 * one level above both, because two callers compile with it: the web assessment's default set
 * (web/fuzzing-default-set.ts, built by web/build-fuzzing-set.ts) and the template loader
 * (templates/template-set.ts), which compiles the fuzzing templates of the operator's template
 * directory or installed corpus. Pure: no I/O, no network.
 */
import { parse } from 'yaml';
import type { Severity } from '../scoring/severity.ts';

export interface FuzzMatcher {
  type: 'word' | 'regex' | 'status';
  part: 'body' | 'header' | 'all';
  words?: string[];
  regex?: string[];
  status?: number[];
  negative?: boolean;
  condition: 'and' | 'or';
  caseInsensitive?: boolean;
}

export interface FuzzRule {
  part: 'query' | 'body' | 'request';
  type: 'postfix' | 'prefix' | 'replace' | 'infix';
  fuzz: string[];
  keys?: string[];
  values?: string[];
}

export interface FuzzTemplate {
  id: string;
  name: string;
  severity: Severity;
  description: string;
  cweIds: string[];
  methods?: { allow?: string[]; deny?: string[] };
  variables: Record<string, string>;
  payloads: Record<string, string[]>;
  rules: FuzzRule[];
  matchers: FuzzMatcher[];
  matchersCondition: 'and' | 'or';
}

export class UnsupportedFuzzing extends Error {}

/** Payload values tried per rule and parameter (nuclei's long traversal lists end in rare encodings). */

const SEVERITIES: readonly string[] = ['info', 'low', 'medium', 'high', 'critical'];

function flatten(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  if (value && typeof value === 'object') return Object.values(value).flatMap(flatten);
  if (typeof value === 'string') throw new UnsupportedFuzzing('payload file');
  return [String(value)];
}

/** Compiles the fuzzing subset of a nuclei template; throws `UnsupportedFuzzing` otherwise. */
export function compileFuzzTemplate(text: string): FuzzTemplate {
  const doc = parse(text) as Record<string, unknown>;
  const info = (doc.info ?? {}) as Record<string, unknown>;
  const http = doc.http as Array<Record<string, unknown>> | undefined;
  if (typeof doc.id !== 'string' || !Array.isArray(http) || http.length !== 1)
    throw new UnsupportedFuzzing('shape');
  const block = http[0]!;
  if (!Array.isArray(block.fuzzing)) throw new UnsupportedFuzzing('no fuzzing');
  if (/interactsh|\{\{\s*(?!rand_int)[a-z_]+\(/i.test(text.replace(/^#.*$/gm, ''))) {
    // Out-of-band interaction and helper functions other than rand_int are not run.
    if (/interactsh/i.test(text)) throw new UnsupportedFuzzing('interactsh');
  }
  for (const key of Object.keys(block)) {
    if (key === 'method' && ['GET', 'POST'].includes(String(block.method).toUpperCase())) continue;
    if (
      key === 'path' &&
      Array.isArray(block.path) &&
      block.path.every((p) => String(p).trim() === '{{BaseURL}}')
    )
      continue;
    const known = [
      'pre-condition',
      'payloads',
      'fuzzing',
      'stop-at-first-match',
      'matchers-condition',
      'matchers',
      'attack',
      'extractors',
      'skip-variables-check',
    ];
    if (!known.includes(key)) throw new UnsupportedFuzzing(`key ${key}`);
  }
  const methods: { allow?: string[]; deny?: string[] } = {};
  for (const pre of (block['pre-condition'] ?? []) as Array<Record<string, unknown>>) {
    if (pre.type !== 'dsl') throw new UnsupportedFuzzing('pre-condition');
    for (const expression of (pre.dsl ?? []) as string[]) {
      const m = /^\s*method\s*(==|!=)\s*"(\w+)"\s*$/.exec(expression);
      if (!m) throw new UnsupportedFuzzing('pre-condition dsl');
      if (m[1] === '==') (methods.allow ??= []).push(m[2]!.toUpperCase());
      else (methods.deny ??= []).push(m[2]!.toUpperCase());
    }
  }
  const variables: Record<string, string> = {};
  for (const [name, value] of Object.entries((doc.variables ?? {}) as Record<string, unknown>)) {
    const v = String(value);
    if (!/^\{\{rand_int\(\d+,\s*\d+\)\}\}$/.test(v) && /\{\{/.test(v))
      throw new UnsupportedFuzzing('variable');
    variables[name] = v;
  }
  const payloads: Record<string, string[]> = {};
  for (const [name, value] of Object.entries((block.payloads ?? {}) as Record<string, unknown>))
    payloads[name] = flatten(value);
  const rules: FuzzRule[] = [];
  for (const rule of block.fuzzing as Array<Record<string, unknown>>) {
    const part = String(rule.part ?? 'query');
    if (!['query', 'body', 'request'].includes(part)) continue;
    const type = String(rule.type ?? 'replace');
    if (!['postfix', 'prefix', 'replace', 'infix'].includes(type)) continue;
    if (rule.fuzz === undefined || !Array.isArray(rule.fuzz)) continue;
    rules.push({
      part: part as FuzzRule['part'],
      type: type as FuzzRule['type'],
      fuzz: (rule.fuzz as unknown[]).map(String),
      ...(Array.isArray(rule.keys) && { keys: (rule.keys as unknown[]).map((k) => String(k).toLowerCase()) }),
      ...(Array.isArray(rule.values) && { values: (rule.values as unknown[]).map(String) }),
    });
  }
  if (rules.length === 0) throw new UnsupportedFuzzing('no supported rule');
  const matchers: FuzzMatcher[] = [];
  for (const m of (block.matchers ?? []) as Array<Record<string, unknown>>) {
    const type = String(m.type);
    if (!['word', 'regex', 'status'].includes(type)) throw new UnsupportedFuzzing(`matcher ${type}`);
    const part = String(m.part ?? 'body');
    if (!['body', 'header', 'all', 'response'].includes(part))
      throw new UnsupportedFuzzing(`matcher part ${part}`);
    matchers.push({
      type: type as FuzzMatcher['type'],
      part: part === 'response' ? 'all' : (part as FuzzMatcher['part']),
      ...(Array.isArray(m.words) && { words: (m.words as unknown[]).map(String) }),
      ...(Array.isArray(m.regex) && { regex: (m.regex as unknown[]).map(String) }),
      ...(Array.isArray(m.status) && { status: (m.status as unknown[]).map(Number) }),
      ...(m.negative === true && { negative: true }),
      ...(m['case-insensitive'] === true && { caseInsensitive: true }),
      condition: m.condition === 'and' ? 'and' : 'or',
    });
    for (const r of matchers.at(-1)!.regex ?? []) goRegExp(r, false);
  }
  if (matchers.length === 0) throw new UnsupportedFuzzing('no matcher');
  const severity = String(info.severity ?? 'medium').toLowerCase();
  const classification = (info.classification ?? {}) as Record<string, unknown>;
  const cwe = classification['cwe-id'];
  return {
    id: doc.id,
    name: String(info.name ?? doc.id),
    severity: (SEVERITIES.includes(severity) ? severity : 'medium') as Severity,
    description: String(info.description ?? info.name ?? doc.id).trim(),
    cweIds: (Array.isArray(cwe) ? cwe : cwe ? [cwe] : [])
      .map((c) => String(c).toUpperCase())
      .filter((c) => /^CWE-\d+$/.test(c)),
    ...((methods.allow || methods.deny) && { methods }),
    variables,
    payloads,
    rules,
    matchers,
    matchersCondition: block['matchers-condition'] === 'and' ? 'and' : 'or',
  };
}

/** A Go regular expression as JavaScript's: leading inline flags become flags. */
export function goRegExp(source: string, caseInsensitive: boolean): RegExp {
  let flags = caseInsensitive ? 'i' : '';
  let body = source;
  const inline = /^\(\?([imsU]+)\)/.exec(body);
  if (inline) {
    body = body.slice(inline[0].length);
    for (const f of inline[1]!) if ('ims'.includes(f) && !flags.includes(f)) flags += f;
  }
  try {
    return new RegExp(body, flags);
  } catch {
    throw new UnsupportedFuzzing('regex');
  }
}
