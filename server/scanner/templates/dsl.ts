/**
 * A small, closed expression language for nuclei `dsl` matchers: literals, variables of the
 * response (`body`, `status_code`, header names, …), a fixed table of pure string and number
 * functions, comparisons, arithmetic, `!`, `&&` and `||`. Expressions are parsed once, when a
 * template loads, into a tree that is walked to evaluate; nothing is ever handed to `eval` or
 * `Function`, and an identifier can only name a response variable or a function of the
 * table, so a template cannot reach anything of the process.
 */
import { createHash } from 'node:crypto';
import PQueue from 'p-queue';
import { compileGoRegex } from './regex.ts';
import { sandboxedRegexTest } from './regex-sandbox.ts';

export type DslValue = string | number | boolean;

export type DslNode =
  | { kind: 'literal'; value: DslValue }
  | { kind: 'variable'; name: string }
  | { kind: 'call'; name: string; args: DslNode[] }
  | { kind: 'unary'; op: '!' | '-'; operand: DslNode }
  | { kind: 'binary'; op: string; left: DslNode; right: DslNode };

export class DslError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DslError';
  }
}

// ---------------------------------------------------------------------------------------
// Tokens

type Token =
  | { type: 'number'; value: number }
  | { type: 'string'; value: string }
  | { type: 'ident'; value: string }
  | { type: 'op'; value: string };

const OPERATORS = ['&&', '||', '==', '!=', '<=', '>=', '<', '>', '!', '(', ')', ',', '+', '-', '*', '/', '%'];

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i] as string;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') {
      let value = '';
      i++;
      for (;;) {
        if (i >= source.length) throw new DslError('unterminated string');
        const ch = source[i] as string;
        if (ch === c) break;
        if (ch === '\\' && c !== '`' && i + 1 < source.length) {
          const next = source[i + 1] as string;
          value += next === 'n' ? '\n' : next === 'r' ? '\r' : next === 't' ? '\t' : next;
          i += 2;
          continue;
        }
        value += ch;
        i++;
      }
      i++;
      tokens.push({ type: 'string', value });
      continue;
    }
    const number = /^\d+(\.\d+)?/.exec(source.slice(i));
    if (number) {
      tokens.push({ type: 'number', value: Number(number[0]) });
      i += number[0].length;
      continue;
    }
    const ident = /^[A-Za-z_][A-Za-z0-9_]*/.exec(source.slice(i));
    if (ident) {
      tokens.push({ type: 'ident', value: ident[0] });
      i += ident[0].length;
      continue;
    }
    const op = OPERATORS.find((o) => source.startsWith(o, i));
    if (!op) throw new DslError(`unexpected character "${c}"`);
    tokens.push({ type: 'op', value: op });
    i += op.length;
  }
  return tokens;
}

// ---------------------------------------------------------------------------------------
// Parser (precedence climbing)

const BINARY_LEVELS: string[][] = [
  ['||'],
  ['&&'],
  ['==', '!='],
  ['<', '<=', '>', '>='],
  ['+', '-'],
  ['*', '/', '%'],
];

/** Deepest expression a template may hold (the corpus's deepest is far below). */
const MAX_DEPTH = 64;

function depth(node: DslNode): number {
  if (node.kind === 'call') return 1 + Math.max(0, ...node.args.map(depth));
  if (node.kind === 'unary') return 1 + depth(node.operand);
  if (node.kind === 'binary') return 1 + Math.max(depth(node.left), depth(node.right));
  return 1;
}

/** Parses an expression; throws DslError on syntax it does not know or a function outside the table. */
export function parseDsl(source: string): DslNode {
  const tokens = tokenize(source);
  let pos = 0;
  const peek = (): Token | undefined => tokens[pos];
  const isOp = (value: string): boolean => {
    const t = peek();
    return t?.type === 'op' && t.value === value;
  };
  const expect = (value: string): void => {
    if (!isOp(value)) throw new DslError(`expected "${value}"`);
    pos++;
  };

  const binary = (level: number): DslNode => {
    if (level === BINARY_LEVELS.length) return unary();
    let left = binary(level + 1);
    for (;;) {
      const t = peek();
      if (t?.type !== 'op' || !(BINARY_LEVELS[level] as string[]).includes(t.value)) return left;
      pos++;
      left = { kind: 'binary', op: t.value, left, right: binary(level + 1) };
    }
  };
  const unary = (): DslNode => {
    if (isOp('!') || isOp('-')) {
      const op = (peek() as Token).value as '!' | '-';
      pos++;
      return { kind: 'unary', op, operand: unary() };
    }
    return primary();
  };
  const primary = (): DslNode => {
    const t = peek();
    if (!t) throw new DslError('unexpected end of expression');
    pos++;
    if (t.type === 'number' || t.type === 'string') return { kind: 'literal', value: t.value };
    if (t.type === 'op') {
      if (t.value !== '(') throw new DslError(`unexpected "${t.value}"`);
      const inner = binary(0);
      expect(')');
      return inner;
    }
    if (t.value === 'true' || t.value === 'false') return { kind: 'literal', value: t.value === 'true' };
    if (isOp('(')) {
      pos++;
      const name = t.value.toLowerCase();
      if (!Object.hasOwn(FUNCTIONS, name)) throw new DslError(`unsupported function "${t.value}"`);
      const args: DslNode[] = [];
      if (!isOp(')')) {
        for (;;) {
          args.push(binary(0));
          if (isOp(')')) break;
          expect(',');
        }
      }
      expect(')');
      return { kind: 'call', name, args };
    }
    return { kind: 'variable', name: t.value.toLowerCase() };
  };

  const tree = binary(0);
  if (pos !== tokens.length) throw new DslError('unexpected input after the expression');
  if (depth(tree) > MAX_DEPTH) throw new DslError(`expression nested deeper than ${MAX_DEPTH}`);
  return tree;
}

/** Every variable an expression reads, to reject at load time what the engine cannot provide. */
export function dslVariables(node: DslNode, into = new Set<string>()): Set<string> {
  if (node.kind === 'variable') into.add(node.name);
  else if (node.kind === 'call') for (const arg of node.args) dslVariables(arg, into);
  else if (node.kind === 'unary') dslVariables(node.operand, into);
  else if (node.kind === 'binary') {
    dslVariables(node.left, into);
    dslVariables(node.right, into);
  }
  return into;
}

// ---------------------------------------------------------------------------------------
// Bounds
//
// A template's expression is hostile input: `replace(replace(body, 'a', body), 'a', body)` on a
// 256 KiB page would build gigabytes on the thread that also answers the API. So every string
// a function (or `+`) builds is capped, and so is the work of one evaluation: checked before
// the string is built wherever its size can be known first (concat, replace, repeat, the
// encoders), right after it otherwise (case mapping, at most three times its input). Past a
// bound the evaluation stops with DslTooCostly: the matcher does not match and the scan
// reports the template once (too-costly.ts). An evaluation yields to the event loop after
// every YIELD_EVERY characters of work, and at most CONCURRENT_EVALUATIONS run at once, so
// the memory they hold together stays bounded too.

/** Longest string one function (or `+`) may build, in characters: 4 × the largest response read. */
export const MAX_DSL_STRING = 1 << 20;
/** Characters one evaluation may build in all (what it can hold in memory). */
export const MAX_DSL_BUILT = 8 << 20;
/** Characters one evaluation may read and build in all (what it can cost in time). */
export const MAX_DSL_WORK = 32 << 20;
/** Nodes one evaluation may visit. */
export const MAX_DSL_STEPS = 10_000;
/** Longest pattern `regex()` compiles, and longest version `compare_versions()` reads. */
const MAX_REGEX_PATTERN = 16 * 1024;
const MAX_VERSION = 256;
/** Work between two yields to the event loop: one pass over the largest response read (256 KiB). */
const YIELD_EVERY = 256 * 1024;
/** Evaluations running at once in the process (each holds at most MAX_DSL_BUILT characters). */
const CONCURRENT_EVALUATIONS = 4;

const count = (n: number): string => n.toLocaleString('en-US');

/** An evaluation went past one of the bounds above: the expression is too costly to evaluate. */
export class DslTooCostly extends DslError {
  constructor(message: string) {
    super(message);
    this.name = 'DslTooCostly';
  }
}

/** What one evaluation has spent so far; throws DslTooCostly past a bound. */
export class DslBudget {
  steps = 0;
  work = 0;
  built = 0;
  private sinceYield = 0;

  step(): void {
    if (++this.steps > MAX_DSL_STEPS) throw new DslTooCostly(`more than ${count(MAX_DSL_STEPS)} steps`);
  }

  /** Characters read (scanned, compared, hashed, copied). */
  read(chars: number): void {
    this.work += chars;
    this.sinceYield += chars;
    if (this.work > MAX_DSL_WORK)
      throw new DslTooCostly(`more than ${count(MAX_DSL_WORK)} characters of work in one evaluation`);
  }

  /** A string of `chars` characters that `what` is about to build (or has just built). */
  build(what: string, chars: number): void {
    if (chars > MAX_DSL_STRING)
      throw new DslTooCostly(
        `${what} would build ${count(chars)} characters (limit ${count(MAX_DSL_STRING)})`,
      );
    this.built += chars;
    if (this.built > MAX_DSL_BUILT)
      throw new DslTooCostly(`more than ${count(MAX_DSL_BUILT)} characters built in one evaluation`);
    this.read(chars);
  }

  /** Lets the event loop run when enough work was done since it last did. */
  async pause(): Promise<void> {
    if (this.sinceYield < YIELD_EVERY) return;
    this.sinceYield = 0;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

// ---------------------------------------------------------------------------------------
// Evaluation

const str = (v: DslValue): string => (typeof v === 'string' ? v : String(v));
const num = (v: DslValue): number => {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  const n = Number(v.trim());
  if (v.trim() === '' || Number.isNaN(n)) throw new DslError(`"${v.slice(0, 40)}" is not a number`);
  return n;
};
const truthy = (v: DslValue): boolean =>
  typeof v === 'boolean' ? v : typeof v === 'number' ? v !== 0 : v !== '';

function arity(name: string, args: DslValue[], min: number, max = min): void {
  if (args.length < min || args.length > max) throw new DslError(`${name}() takes ${min}–${max} arguments`);
}

/** Compares dotted versions numerically (`1.10.0` > `1.9`); non-numeric parts compare as text. */
function compareVersions(a: string, b: string): number {
  if (a.length > MAX_VERSION || b.length > MAX_VERSION) throw new DslError('not a version');
  const pa = a
    .trim()
    .replace(/^v/i, '')
    .split(/[.\-+]/);
  const pb = b
    .trim()
    .replace(/^v/i, '')
    .split(/[.\-+]/);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? '0';
    const y = pb[i] ?? '0';
    const nx = Number(x);
    const ny = Number(y);
    const c = !Number.isNaN(nx) && !Number.isNaN(ny) ? nx - ny : x.localeCompare(y);
    if (c !== 0) return Math.sign(c);
  }
  return 0;
}

function satisfies(version: string, constraint: string): boolean {
  if (constraint.length > MAX_VERSION) throw new DslError('not a version constraint');
  const m = /^\s*(<=|>=|==|!=|=|<|>)?\s*(\S+)\s*$/.exec(constraint);
  if (!m) throw new DslError(`bad version constraint "${constraint}"`);
  const c = compareVersions(version, m[2] as string);
  switch (m[1] ?? '=') {
    case '<':
      return c < 0;
    case '<=':
      return c <= 0;
    case '>':
      return c > 0;
    case '>=':
      return c >= 0;
    case '!=':
      return c !== 0;
    default:
      return c === 0;
  }
}

const regexCache = new Map<string, RegExp>();
/** Patterns longer than this are compiled each time instead of kept. */
const CACHED_PATTERN = 1024;
function cachedRegex(pattern: string): RegExp {
  // Not a pattern a template writes (`regex(body, "…")`, arguments swapped): no match.
  if (pattern.length > MAX_REGEX_PATTERN)
    throw new DslError(`regex() pattern longer than ${count(MAX_REGEX_PATTERN)} characters`);
  let re = regexCache.get(pattern);
  if (!re) {
    re = compileGoRegex(pattern);
    if (pattern.length > CACHED_PATTERN) return re;
    if (regexCache.size > 5000) regexCache.clear();
    regexCache.set(pattern, re);
  }
  return re;
}

/**
 * The bytes a string stands for. Response bodies that are not UTF-8 (a favicon) are decoded as
 * latin1, one character per byte, and registered here, so hashing them hashes the bytes
 * received, as nuclei does; any other string is UTF-8.
 */
const rawStrings = new WeakMap<object, Map<string, Buffer>>();
type Bytes = (v: DslValue) => Buffer;
const bytesFor =
  (raw: Map<string, Buffer> | undefined, budget: DslBudget): Bytes =>
  (v) => {
    const s = str(v);
    const bytes = raw?.get(s) ?? Buffer.from(s, 'utf8');
    budget.read(bytes.length);
    return bytes;
  };

/** MurmurHash3 x86 32-bit, seed 0, as a signed integer (the favicon hash of Shodan and nuclei). */
export function mmh3(data: Buffer): number {
  let h = 0;
  const c1 = 0xcc9e2d51;
  const c2 = 0x1b873593;
  const blocks = data.length >>> 2;
  for (let i = 0; i < blocks; i++) {
    let k = data.readUInt32LE(i * 4);
    k = Math.imul(k, c1);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, c2);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  let k = 0;
  const tail = blocks * 4;
  const rest = data.length & 3;
  if (rest > 0) {
    if (rest === 3) k ^= (data[tail + 2] as number) << 16;
    if (rest >= 2) k ^= (data[tail + 1] as number) << 8;
    k ^= data[tail] as number;
    k = Math.imul(k, c1);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, c2);
    h ^= k;
  }
  h ^= data.length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}

/** Python's `base64.encodebytes`: lines of 76 characters, each ending in a newline. */
function base64Py(data: Buffer): string {
  const b64 = data.toString('base64');
  let out = '';
  for (let i = 0; i < b64.length; i += 76) out += `${b64.slice(i, i + 76)}\n`;
  return out;
}

const base64Length = (bytes: number): number => 4 * Math.ceil(bytes / 3);

/** ASCII characters `encodeURIComponent` leaves as they are. */
const UNRESERVED = new Uint8Array(128);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()")
  UNRESERVED[c.charCodeAt(0)] = 1;

/** Characters `encodeURIComponent` makes of `s` (throws on a lone surrogate, as it would). */
function urlEncodedLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += UNRESERVED[c] ? 1 : 3;
    else if (c < 0x800) n += 6;
    else if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) throw new DslError('url_encode() of a lone surrogate');
      n += 12;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) throw new DslError('url_encode() of a lone surrogate');
    else n += 9;
  }
  return n;
}

/** Matches (or code points) a replace() handles between two looks at the budget. */
const REPLACE_CHUNK = 4096;
/** What one match costs besides its characters: a slice and a slot (measured: ~16 characters' worth). */
const MATCH_COST = 16;

/**
 * Go's strings.ReplaceAll (with an empty `old`, `by` goes before every code point and after the
 * last). Built a chunk of matches at a time, giving the event loop its turn between chunks, and
 * refused as soon as the result is known to pass MAX_DSL_STRING: a page of matches costs what
 * it costs, never more than the cap.
 */
async function replaceAll(s: string, old: string, by: string, budget: DslBudget): Promise<string> {
  const segments: string[] = [];
  let parts: string[] = [];
  let size = 0;
  const grows = by.length > old.length;
  const flush = async (): Promise<void> => {
    budget.read(parts.length * MATCH_COST);
    segments.push(parts.join(''));
    parts = [];
    await budget.pause();
  };
  /** Adds a piece and `by` after it; true when the chunk is full. */
  const add = (piece: string, rest: number): boolean => {
    parts.push(piece, by);
    size += piece.length + by.length;
    // What is left can only add to the result when `by` is the longer: refuse early then.
    if (grows && size + rest > MAX_DSL_STRING) budget.build('replace()', size + rest);
    return parts.length >= 2 * REPLACE_CHUNK;
  };
  let from = 0;
  if (old === '') {
    parts.push(by);
    size = by.length;
    for (const point of s) {
      from += point.length;
      if (add(point, s.length - from)) await flush();
    }
  } else {
    for (let i = s.indexOf(old); i !== -1; i = s.indexOf(old, from)) {
      const piece = s.slice(from, i);
      from = i + old.length;
      if (add(piece, s.length - from)) await flush();
    }
    parts.push(s.slice(from));
    size += s.length - from;
  }
  budget.build('replace()', size);
  await flush();
  return segments.length === 1 ? (segments[0] as string) : segments.join('');
}

const digest = (algorithm: string) => (a: DslValue[], ctx: CallContext) => (
  arity(algorithm, a, 1),
  createHash(algorithm).update(ctx.bytes(a[0]!)).digest('hex')
);

/** Every string argument is read again for each needle looked for in it. */
const search =
  (name: string, test: (haystack: string, needles: string[]) => boolean) =>
  (a: DslValue[], ctx: CallContext): boolean => {
    arity(name, a, 2, 64);
    const haystack = str(a[0]!);
    const needles = a.slice(1).map(str);
    ctx.budget.read(haystack.length * (needles.length - 1));
    return test(haystack, needles);
  };

interface CallContext {
  bytes: Bytes;
  budget: DslBudget;
}

/** A function whose result is only measured once built (case mapping: at most 3 × its input). */
const measured = (what: string, s: string, ctx: CallContext): string => (ctx.budget.build(what, s.length), s);

/** The whole function table: pure functions of their arguments, nothing else is callable. */
type DslFunction = (args: DslValue[], ctx: CallContext) => DslValue | Promise<DslValue>;
const FUNCTIONS: Record<string, DslFunction> = {
  contains: (a) => (arity('contains', a, 2), str(a[0]!).includes(str(a[1]!))),
  contains_all: search('contains_all', (h, needles) => needles.every((n) => h.includes(n))),
  contains_any: search('contains_any', (h, needles) => needles.some((n) => h.includes(n))),
  starts_with: search('starts_with', (h, needles) => needles.some((n) => h.startsWith(n))),
  ends_with: search('ends_with', (h, needles) => needles.some((n) => h.endsWith(n))),
  to_lower: (a, ctx) => (arity('to_lower', a, 1), measured('to_lower()', str(a[0]!).toLowerCase(), ctx)),
  tolower: (a, ctx) => (arity('tolower', a, 1), measured('tolower()', str(a[0]!).toLowerCase(), ctx)),
  to_upper: (a, ctx) => (arity('to_upper', a, 1), measured('to_upper()', str(a[0]!).toUpperCase(), ctx)),
  toupper: (a, ctx) => (arity('toupper', a, 1), measured('toupper()', str(a[0]!).toUpperCase(), ctx)),
  trim_space: (a) => (arity('trim_space', a, 1), str(a[0]!).trim()),
  len: (a) => (arity('len', a, 1), str(a[0]!).length),
  concat: (a, ctx) => {
    const parts = a.map(str);
    ctx.budget.build(
      'concat()',
      parts.reduce((n, p) => n + p.length, 0),
    );
    return parts.join('');
  },
  replace: (a, ctx) => (arity('replace', a, 3), replaceAll(str(a[0]!), str(a[1]!), str(a[2]!), ctx.budget)),
  repeat: (a, ctx) => {
    arity('repeat', a, 2);
    const s = str(a[0]!);
    const times = num(a[1]!);
    if (!Number.isInteger(times) || times < 0) throw new DslError('repeat() wants a count of 0 or more');
    ctx.budget.build('repeat()', s.length * times);
    return s.repeat(times);
  },
  to_number: (a) => (arity('to_number', a, 1), num(a[0]!)),
  to_string: (a) => (arity('to_string', a, 1), str(a[0]!)),
  // Off the event loop and time-limited: see regex-sandbox.ts.
  regex: (a) => (arity('regex', a, 2), sandboxedRegexTest([cachedRegex(str(a[0]!))], str(a[1]!))),
  mmh3: (a, ctx) => (arity('mmh3', a, 1), String(mmh3(ctx.bytes(a[0]!)))),
  base64_py: (a, ctx) => {
    arity('base64_py', a, 1);
    const bytes = ctx.bytes(a[0]!);
    const b64 = base64Length(bytes.length);
    ctx.budget.build('base64_py()', b64 + Math.ceil(b64 / 76));
    return base64Py(bytes);
  },
  base64: (a, ctx) => {
    arity('base64', a, 1);
    const bytes = ctx.bytes(a[0]!);
    ctx.budget.build('base64()', base64Length(bytes.length));
    return bytes.toString('base64');
  },
  base64_decode: (a, ctx) => (
    arity('base64_decode', a, 1),
    measured('base64_decode()', Buffer.from(str(a[0]!), 'base64').toString('utf8'), ctx)
  ),
  hex_encode: (a, ctx) => {
    arity('hex_encode', a, 1);
    const bytes = ctx.bytes(a[0]!);
    ctx.budget.build('hex_encode()', bytes.length * 2);
    return bytes.toString('hex');
  },
  hex_decode: (a, ctx) => (
    arity('hex_decode', a, 1),
    measured('hex_decode()', Buffer.from(str(a[0]!), 'hex').toString('utf8'), ctx)
  ),
  url_encode: (a, ctx) => {
    arity('url_encode', a, 1);
    const s = str(a[0]!);
    ctx.budget.build('url_encode()', urlEncodedLength(s));
    return encodeURIComponent(s);
  },
  url_decode: (a, ctx) => (
    arity('url_decode', a, 1),
    measured('url_decode()', decodeURIComponent(str(a[0]!)), ctx)
  ),
  md5: digest('md5'),
  sha1: digest('sha1'),
  sha256: digest('sha256'),
  compare_versions: (a) => (
    arity('compare_versions', a, 2, 16),
    a.slice(1).every((constraint) =>
      str(constraint)
        .split(',')
        .every((part) => satisfies(str(a[0]!), part)),
    )
  ),
};

export type DslVariables = ReadonlyMap<string, DslValue>;

/** Declares that `text`, a variable's value, stands for `raw` bytes (see `bytes`). */
export function registerRawString(vars: DslVariables, text: string, raw: Buffer): void {
  let map = rawStrings.get(vars);
  if (!map) rawStrings.set(vars, (map = new Map()));
  map.set(text, raw);
}

const chars = (v: DslValue): number => (typeof v === 'string' ? v.length : 0);

async function evaluate(node: DslNode, vars: DslVariables, ctx: CallContext): Promise<DslValue> {
  const { budget } = ctx;
  budget.step();
  switch (node.kind) {
    case 'literal':
      return node.value;
    case 'variable': {
      const value = vars.get(node.name);
      if (value === undefined) throw new DslError(`unknown variable "${node.name}"`);
      return value;
    }
    case 'call': {
      const args: DslValue[] = [];
      for (const arg of node.args) args.push(await evaluate(arg, vars, ctx));
      budget.read(args.reduce<number>((n, v) => n + chars(v), 0));
      const result = await (FUNCTIONS[node.name] as DslFunction)(args, ctx);
      // Every growing function checked its result above; this holds the table to it.
      if (typeof result === 'string' && result.length > MAX_DSL_STRING)
        throw new DslTooCostly(`${node.name}() built ${count(result.length)} characters`);
      await budget.pause();
      return result;
    }
    case 'unary': {
      const v = await evaluate(node.operand, vars, ctx);
      return node.op === '!' ? !truthy(v) : -num(v);
    }
    case 'binary': {
      if (node.op === '&&')
        return truthy(await evaluate(node.left, vars, ctx)) && truthy(await evaluate(node.right, vars, ctx));
      if (node.op === '||')
        return truthy(await evaluate(node.left, vars, ctx)) || truthy(await evaluate(node.right, vars, ctx));
      const l = await evaluate(node.left, vars, ctx);
      const r = await evaluate(node.right, vars, ctx);
      budget.read(chars(l) + chars(r));
      switch (node.op) {
        case '==':
        case '!=': {
          const same =
            typeof l === 'number' || typeof r === 'number'
              ? safeNumber(l) === safeNumber(r)
              : typeof l === 'boolean' || typeof r === 'boolean'
                ? truthy(l) === truthy(r)
                : l === r;
          return node.op === '==' ? same : !same;
        }
        case '<':
          return num(l) < num(r);
        case '<=':
          return num(l) <= num(r);
        case '>':
          return num(l) > num(r);
        case '>=':
          return num(l) >= num(r);
        case '+': {
          if (typeof l === 'number' && typeof r === 'number') return l + r;
          const [a, b] = [str(l), str(r)];
          budget.build('+', a.length + b.length);
          return a + b;
        }
        case '-':
          return num(l) - num(r);
        case '*':
          return num(l) * num(r);
        case '/':
          return num(l) / num(r);
        case '%':
          return num(l) % num(r);
      }
      throw new DslError(`unknown operator "${node.op}"`);
    }
  }
}

function safeNumber(v: DslValue): number | string {
  try {
    return num(v);
  } catch {
    return str(v);
  }
}

const evaluations = new PQueue({ concurrency: CONCURRENT_EVALUATIONS });

/**
 * Evaluates a parsed expression within the bounds above (a fresh budget unless one is given).
 * An unknown variable or a type error throws DslError; going past a bound throws DslTooCostly.
 */
export async function evaluateDsl(
  node: DslNode,
  vars: DslVariables,
  budget: DslBudget = new DslBudget(),
): Promise<DslValue> {
  const ctx: CallContext = { budget, bytes: bytesFor(rawStrings.get(vars), budget) };
  return (await evaluations.add(() => evaluate(node, vars, ctx))) as DslValue;
}

/**
 * True when the expression holds for these variables; an error counts as "does not match",
 * except DslTooCostly, which is thrown on for the caller to report.
 */
export async function dslMatches(node: DslNode, vars: DslVariables): Promise<boolean> {
  try {
    return truthy(await evaluateDsl(node, vars));
  } catch (err) {
    if (err instanceof DslTooCostly) throw err;
    return false;
  }
}
