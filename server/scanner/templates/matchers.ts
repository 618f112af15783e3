/**
 * Matcher semantics of nuclei, for one response: a matcher's values combine with its
 * `condition` (default `or`), `negative` inverts the matcher's result, and a request's
 * matchers combine with `matchers-condition` (default `or`).
 */
import { dslMatches, DslTooCostly, registerRawString, type DslValue } from './dsl.ts';
import { sandboxedRegexTest } from './regex-sandbox.ts';
import type { CompiledMatcher, CompiledRequest } from './schema.ts';
import type { TemplateResponse } from './http-client.ts';

/** What matchers read of a response, computed once per response. */
export class ResponseView {
  readonly body: string;
  readonly header: string;
  /** Set when a DSL matcher went past the evaluation bounds (dsl.ts) on this response. */
  tooCostly: DslTooCostly | undefined;
  private vars: Map<string, DslValue> | undefined;

  constructor(
    readonly response: TemplateResponse,
    private readonly templateVariables: ReadonlyMap<string, string> = new Map(),
  ) {
    this.body = decodeBody(response.body);
    this.header = response.head;
  }

  part(part: string): string {
    switch (part) {
      case 'body':
        return this.body;
      case 'header':
        return this.header;
      case 'all':
        return `${this.header}\r\n\r\n${this.body}`;
      case 'status_code':
        return String(this.response.status);
      case 'content_length':
        return String(this.contentLength());
      case 'content_type':
        return this.response.headers.get('content-type') ?? '';
      default:
        return part.startsWith('header:') ? (this.headerVar(part.slice('header:'.length)) ?? '') : '';
    }
  }

  private contentLength(): number {
    const declared = Number(this.response.headers.get('content-length'));
    return Number.isInteger(declared) && declared >= 0 ? declared : this.response.body.length;
  }

  private headerVar(name: string): string | undefined {
    return this.response.headers.get(name.replace(/_/g, '-'));
  }

  /** Variables of the DSL: response fields, every header by its `snake_case` name, template variables. */
  variables(): Map<string, DslValue> {
    if (this.vars) return this.vars;
    const vars = new Map<string, DslValue>();
    for (const [name, value] of this.response.headers) vars.set(name.replace(/-/g, '_'), value);
    for (const [name, value] of this.templateVariables) vars.set(name.toLowerCase(), value);
    vars.set('body', this.body);
    registerRawString(vars, this.body, this.response.body);
    vars.set('header', this.header);
    vars.set('all_headers', this.header);
    vars.set('status_code', this.response.status);
    vars.set('content_length', this.contentLength());
    vars.set('content_type', this.response.headers.get('content-type') ?? '');
    const all = this.part('all');
    vars.set('response', all);
    vars.set('raw', all);
    vars.set('all', all);
    this.vars = vars;
    return vars;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** UTF-8 when the body is UTF-8; otherwise latin1, one character per byte received. */
function decodeBody(body: Buffer): string {
  try {
    return utf8.decode(body);
  } catch {
    return body.toString('latin1');
  }
}

function combine<T>(values: readonly T[], condition: 'and' | 'or', test: (v: T) => boolean): boolean {
  return condition === 'and' ? values.every(test) : values.some(test);
}

async function combineAsync<T>(
  values: readonly T[],
  condition: 'and' | 'or',
  test: (v: T) => Promise<boolean>,
): Promise<boolean> {
  for (const value of values) {
    const ok = await test(value);
    if (condition === 'and' && !ok) return false;
    if (condition === 'or' && ok) return true;
  }
  return condition === 'and';
}

/**
 * One matcher's verdict, `negative` applied. A DSL matcher whose evaluation went past the
 * bounds (dsl.ts) does not match, `negative` or not, and leaves the reason on the view.
 */
export async function matcherMatches(matcher: CompiledMatcher, view: ResponseView): Promise<boolean> {
  let result: boolean;
  switch (matcher.type) {
    case 'status':
      result = matcher.statuses.includes(view.response.status);
      break;
    case 'size':
      result = matcher.sizes.includes(view.response.body.length);
      break;
    case 'word': {
      const text = matcher.caseInsensitive ? view.part(matcher.part).toLowerCase() : view.part(matcher.part);
      result = combine(matcher.words, matcher.condition, (w) => text.includes(w));
      break;
    }
    case 'regex': {
      const text = view.part(matcher.part);
      // Off the event loop and time-limited: see regex-sandbox.ts.
      result = await sandboxedRegexTest(matcher.regexes, text, matcher.condition === 'and');
      break;
    }
    case 'binary': {
      const bytes =
        matcher.part === 'body' ? view.response.body : Buffer.from(view.part(matcher.part), 'utf8');
      result = combine(matcher.binaries, matcher.condition, (b) => bytes.includes(b));
      break;
    }
    case 'dsl': {
      const vars = view.variables();
      try {
        result = await combineAsync(matcher.dsl, matcher.condition, (node) => dslMatches(node, vars));
      } catch (err) {
        if (!(err instanceof DslTooCostly)) throw err;
        view.tooCostly ??= err;
        return false;
      }
      break;
    }
  }
  return matcher.negative ? !result : result;
}

/** The request block's verdict for one response. */
export function requestMatches(
  request: Pick<CompiledRequest, 'matchers' | 'matchersCondition'>,
  view: ResponseView,
): Promise<boolean> {
  // Cheap matchers first: a status or word that fails an `and` spares the regex worker.
  const order = { status: 0, size: 0, word: 1, binary: 1, dsl: 2, regex: 3 } as const;
  const matchers = [...request.matchers].sort((a, b) => order[a.type] - order[b.type]);
  return combineAsync(matchers, request.matchersCondition, (m) => matcherMatches(m, view));
}
