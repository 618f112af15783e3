/**
 * A small, closed expression language for nuclei `dsl` matchers: literals, variables of the
 * response (`body`, `status_code`, header names, …), a fixed table of pure string and number
 * functions, comparisons, arithmetic, `!`, `&&` and `||`. Expressions are parsed once, when a
 * template loads, into a tree that is walked to evaluate; nothing is ever handed to `eval` or
 * `Function`, and an identifier can only name a response variable or a function of the
 * table, so a template cannot reach anything of the process.
 */
import { createHash } from 'node:crypto';
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
function cachedRegex(pattern: string): RegExp {
  let re = regexCache.get(pattern);
  if (!re) {
    re = compileGoRegex(pattern);
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
  (raw: Map<string, Buffer> | undefined): Bytes =>
  (v) => {
    const s = str(v);
    return raw?.get(s) ?? Buffer.from(s, 'utf8');
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

const digest = (algorithm: string) => (a: DslValue[], bytes: Bytes) => (
  arity(algorithm, a, 1),
  createHash(algorithm).update(bytes(a[0]!)).digest('hex')
);

/** The whole function table: pure functions of their arguments, nothing else is callable. */
type DslFunction = (args: DslValue[], bytes: Bytes) => DslValue | Promise<DslValue>;
const FUNCTIONS: Record<string, DslFunction> = {
  contains: (a) => (arity('contains', a, 2), str(a[0]!).includes(str(a[1]!))),
  contains_all: (a) => (
    arity('contains_all', a, 2, 64),
    a.slice(1).every((n) => str(a[0]!).includes(str(n)))
  ),
  contains_any: (a) => (arity('contains_any', a, 2, 64), a.slice(1).some((n) => str(a[0]!).includes(str(n)))),
  starts_with: (a) => (arity('starts_with', a, 2, 64), a.slice(1).some((n) => str(a[0]!).startsWith(str(n)))),
  ends_with: (a) => (arity('ends_with', a, 2, 64), a.slice(1).some((n) => str(a[0]!).endsWith(str(n)))),
  to_lower: (a) => (arity('to_lower', a, 1), str(a[0]!).toLowerCase()),
  tolower: (a) => (arity('tolower', a, 1), str(a[0]!).toLowerCase()),
  to_upper: (a) => (arity('to_upper', a, 1), str(a[0]!).toUpperCase()),
  toupper: (a) => (arity('toupper', a, 1), str(a[0]!).toUpperCase()),
  trim_space: (a) => (arity('trim_space', a, 1), str(a[0]!).trim()),
  len: (a) => (arity('len', a, 1), str(a[0]!).length),
  concat: (a) => a.map(str).join(''),
  replace: (a) => (arity('replace', a, 3), str(a[0]!).split(str(a[1]!)).join(str(a[2]!))),
  to_number: (a) => (arity('to_number', a, 1), num(a[0]!)),
  to_string: (a) => (arity('to_string', a, 1), str(a[0]!)),
  // Off the event loop and time-limited: see regex-sandbox.ts.
  regex: (a) => (arity('regex', a, 2), sandboxedRegexTest([cachedRegex(str(a[0]!))], str(a[1]!))),
  mmh3: (a, bytes) => (arity('mmh3', a, 1), String(mmh3(bytes(a[0]!)))),
  base64_py: (a, bytes) => (arity('base64_py', a, 1), base64Py(bytes(a[0]!))),
  base64: (a, bytes) => (arity('base64', a, 1), bytes(a[0]!).toString('base64')),
  base64_decode: (a) => (arity('base64_decode', a, 1), Buffer.from(str(a[0]!), 'base64').toString('utf8')),
  hex_encode: (a, bytes) => (arity('hex_encode', a, 1), bytes(a[0]!).toString('hex')),
  hex_decode: (a) => (arity('hex_decode', a, 1), Buffer.from(str(a[0]!), 'hex').toString('utf8')),
  url_encode: (a) => (arity('url_encode', a, 1), encodeURIComponent(str(a[0]!))),
  url_decode: (a) => (arity('url_decode', a, 1), decodeURIComponent(str(a[0]!))),
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

/** Evaluates a parsed expression; an unknown variable or a type error throws DslError (the matcher fails). */
export async function evaluateDsl(
  node: DslNode,
  vars: DslVariables,
  bytes: Bytes = bytesFor(rawStrings.get(vars)),
): Promise<DslValue> {
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
      for (const arg of node.args) args.push(await evaluateDsl(arg, vars, bytes));
      return (FUNCTIONS[node.name] as DslFunction)(args, bytes);
    }
    case 'unary': {
      const v = await evaluateDsl(node.operand, vars, bytes);
      return node.op === '!' ? !truthy(v) : -num(v);
    }
    case 'binary': {
      if (node.op === '&&')
        return (
          truthy(await evaluateDsl(node.left, vars, bytes)) &&
          truthy(await evaluateDsl(node.right, vars, bytes))
        );
      if (node.op === '||')
        return (
          truthy(await evaluateDsl(node.left, vars, bytes)) ||
          truthy(await evaluateDsl(node.right, vars, bytes))
        );
      const l = await evaluateDsl(node.left, vars, bytes);
      const r = await evaluateDsl(node.right, vars, bytes);
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
        case '+':
          return typeof l === 'number' && typeof r === 'number' ? l + r : str(l) + str(r);
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

/** True when the expression holds for these variables; errors count as "does not match". */
export async function dslMatches(node: DslNode, vars: DslVariables): Promise<boolean> {
  try {
    return truthy(await evaluateDsl(node, vars));
  } catch {
    return false;
  }
}
