/**
 * The UTF-8 rules of the HTTP toolkit: decoding a body with its broken sequences marked, and
 * finding where a value changed in a round trip. What PostgreSQL cannot store is
 * schemas/text.ts (auth/ checks it too).
 */

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
