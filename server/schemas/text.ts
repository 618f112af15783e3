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
