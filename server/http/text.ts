/**
 * Text PostgreSQL cannot store as sent: the NUL character (U+0000), which it
 * refuses in `text`, and lone UTF-16 surrogates, which have no UTF-8 encoding
 * and would be stored as U+FFFD (silently changed). PGlite is PostgreSQL, so
 * the rule is the same on both engines; it is applied to every input the
 * contract reads, before any of it reaches a query.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `text` cannot be stored, or undefined when it can. */
export function unstorableText(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain the NUL character (U+0000)';
  if (LONE_SURROGATE.test(text)) return 'must not contain unpaired UTF-16 surrogates';
  return undefined;
}

export interface UnstorableValue {
  /** Object keys from the root to the value (array positions left out, like validation errors). */
  path: string[];
  problem: string;
}

/**
 * The first string (or object key) in `value` that cannot be stored. Walks
 * values the contract has already validated, so their depth is bounded by the
 * schema, not by the client.
 */
export function findUnstorable(value: unknown, path: string[] = []): UnstorableValue | undefined {
  if (typeof value === 'string') {
    const problem = unstorableText(value);
    return problem ? { path, problem } : undefined;
  }
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = findUnstorable(item, path);
      if (found) return found;
    }
    return undefined;
  }
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    for (const [key, item] of Object.entries(value)) {
      const keyProblem = unstorableText(key);
      if (keyProblem) return { path, problem: `keys ${keyProblem}` };
      const found = findUnstorable(item, [...path, key]);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * The length of the well-formed UTF-8 sequence starting at `i` (RFC 3629 §4:
 * no overlong forms, no surrogates, nothing past U+10FFFF), or 0 when the
 * bytes there are not one.
 */
function utf8SequenceLength(bytes: Uint8Array, i: number): number {
  const b0 = bytes[i]!;
  if (b0 < 0x80) return 1;
  const cont = (at: number, low = 0x80, high = 0xbf) =>
    at < bytes.length && bytes[at]! >= low && bytes[at]! <= high;
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(i + 1) ? 2 : 0;
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const [low, high] = b0 === 0xe0 ? [0xa0, 0xbf] : b0 === 0xed ? [0x80, 0x9f] : [0x80, 0xbf];
    return cont(i + 1, low, high) && cont(i + 2) ? 3 : 0;
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const [low, high] = b0 === 0xf0 ? [0x90, 0xbf] : b0 === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
    return cont(i + 1, low, high) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  }
  return 0;
}

/**
 * Decodes UTF-8, writing `marker` for every byte that is not part of a
 * well-formed sequence (where a lenient decoder writes U+FFFD, which a
 * client may also have sent on purpose). Decoding the same bytes with two
 * different markers and comparing the results tells exactly which parts held
 * broken bytes.
 */
export function decodeUtf8Marking(bytes: Buffer, marker: string): string {
  let out = '';
  let runStart = 0;
  let i = 0;
  while (i < bytes.length) {
    const length = utf8SequenceLength(bytes, i);
    if (length > 0) {
      i += length;
      continue;
    }
    out += bytes.toString('utf8', runStart, i) + marker;
    i += 1;
    runStart = i;
  }
  return out + bytes.toString('utf8', runStart, i);
}

export interface BrokenText {
  /** Object keys from the root to the string (array positions left out, like validation errors). */
  path: string[];
  /** Whether the broken bytes are in an object key (then `path` names the object) rather than a value. */
  inKey: boolean;
}

/**
 * The first place two parses of one document differ, when `a` and `b` came from
 * the same bytes decoded with different markers (`decodeUtf8Marking`): that is
 * where the bytes were not UTF-8. Undefined when they are equal.
 */
export function firstDifference(a: unknown, b: unknown, path: string[] = []): BrokenText | undefined {
  if (typeof a === 'string' || typeof b === 'string') {
    return a === b ? undefined : { path, inKey: false };
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const found = firstDifference(a[i], b[i], path);
      if (found) return found;
    }
    return undefined;
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keysA = Object.keys(a);
    const keysB = Object.keys(b);
    // Broken keys may merge with each other under one marker and not under the other.
    if (keysA.length !== keysB.length) return { path, inKey: true };
    for (let i = 0; i < keysA.length; i++) {
      const key = keysA[i]!;
      if (key !== keysB[i]) return { path, inKey: true };
      const found = firstDifference(
        (a as Record<string, unknown>)[key],
        (b as Record<string, unknown>)[key],
        [...path, key],
      );
      if (found) return found;
    }
  }
  return undefined;
}
