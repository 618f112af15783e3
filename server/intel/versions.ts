/**
 * Version comparison for the software the scanner names, by scheme. Versions are read as
 * runs of digits and runs of letters (separators `.`, `-`, `_`, `+`, `~`, `(`, `)` only
 * split them): `2.4.49` → 2 4 49, `9.0.0.M1` → 9 0 0 m 1, `9.1R9.1` → 9 1 r 9 1,
 * `9.8(4)48` → 9 8 4 48, `2.3m` → 2 3 m.
 *
 * - Trailing zeros do not count: `2.4` equals `2.4.0` (a branch label such as the KEV
 *   records' `introduced: "2.4"` is the branch's first release).
 * - A letter run is a pre-release marker when the scheme says so (`alpha`, `beta`, `rc`,
 *   `dev`, `pre`, `snapshot` always; Tomcat's milestones `M1` too) and sorts before the
 *   release (`9.0.0.M1` < `9.0.0.RC1` < `9.0.0`); any other letter run is a later release
 *   (`8.9p1` > `8.9`, `9.1R9` > `9.1`, `2.3m` > `2.3l` > `2.3`).
 * - A product prefix the scheme names is dropped first (`OTP-27.3.3` → `27.3.3`).
 *
 * A string that does not start with a digit (after the prefix) is not a version: `parse`
 * returns undefined and nothing is compared, so an unreadable version is never matched.
 */

export type VersionScheme = 'dotted' | 'tomcat' | 'erlang-otp';

type Token =
  { kind: 'number'; value: number } | { kind: 'pre'; rank: number } | { kind: 'post'; text: string };

const PRE_RELEASE: Record<VersionScheme, Record<string, number>> = {
  dotted: { dev: 0, snapshot: 0, alpha: 1, beta: 2, pre: 3, rc: 4 },
  // Tomcat: 9.0.0.M1 … 9.0.0.M27, then 9.0.0 (8.0.0.RC1 … RC10 before 8.0.0).
  tomcat: { dev: 0, snapshot: 0, alpha: 1, beta: 2, m: 3, rc: 4 },
  'erlang-otp': { dev: 0, alpha: 1, beta: 2, rc: 4 },
};

const PREFIX: Partial<Record<VersionScheme, RegExp>> = { 'erlang-otp': /^otp[-_ ]?/i };

/** The tokens of `version` under `scheme`, or undefined when it is not a version. */
export function parseVersion(version: string, scheme: VersionScheme = 'dotted'): Token[] | undefined {
  let text = version.trim().toLowerCase();
  const prefix = PREFIX[scheme];
  if (prefix) text = text.replace(prefix, '');
  text = text.replace(/^v(?=\d)/, '');
  if (!/^\d/.test(text) || text.length > 64) return undefined;
  const tokens: Token[] = [];
  for (const [run] of text.matchAll(/\d+|[a-z]+/g)) {
    if (/^\d/.test(run)) tokens.push({ kind: 'number', value: Number(run) });
    else {
      const rank = PRE_RELEASE[scheme][run];
      tokens.push(rank === undefined ? { kind: 'post', text: run } : { kind: 'pre', rank });
    }
  }
  return tokens;
}

/** How a missing token compares: a pre-release marker is below the release, anything else above. */
function weight(token: Token | undefined): number {
  if (token === undefined) return 0;
  if (token.kind === 'pre') return -1;
  if (token.kind === 'number' && token.value === 0) return 0;
  return 1;
}

function compareTokens(a: Token[], b: Token[]): number {
  const length = Math.max(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === undefined || y === undefined) {
      // One side ran out: trailing zeros are equal; the rest decides by its first token.
      const rest = (x === undefined ? b : a).slice(i);
      const first = rest.find((t) => !(t.kind === 'number' && t.value === 0));
      const sign = x === undefined ? -1 : 1;
      return first === undefined ? 0 : sign * weight(first);
    }
    const order = compareToken(x, y);
    if (order !== 0) return order;
  }
  return 0;
}

const KIND_ORDER = { pre: 0, post: 1, number: 2 } as const;

function compareToken(x: Token, y: Token): number {
  if (x.kind === 'number' && y.kind === 'number') return Math.sign(x.value - y.value);
  if (x.kind === 'pre' && y.kind === 'pre') return Math.sign(x.rank - y.rank);
  if (x.kind === 'post' && y.kind === 'post') {
    // Longer letter runs after shorter ones (`z` < `aa`), then alphabetically.
    return x.text.length !== y.text.length
      ? Math.sign(x.text.length - y.text.length)
      : x.text < y.text
        ? -1
        : x.text > y.text
          ? 1
          : 0;
  }
  return Math.sign(KIND_ORDER[x.kind] - KIND_ORDER[y.kind]);
}

/** -1, 0 or 1; undefined when either side is not a version under the scheme. */
export function compareVersions(a: string, b: string, scheme: VersionScheme = 'dotted'): number | undefined {
  const x = parseVersion(a, scheme);
  const y = parseVersion(b, scheme);
  if (!x || !y) return undefined;
  return compareTokens(x, y);
}

/** A range of affected versions as the KEV snapshot states it (normalized CVE record data). */
export interface VersionRange {
  /** Lowest affected version; `"0"` when the record states no lower bound. */
  introduced?: string;
  /** First fixed version (excluded); null when no fix is stated. */
  fixed?: string | null;
  /** Highest affected version (included). */
  last_affected?: string;
  /** The one affected version. */
  exact?: string;
}

/**
 * `version` ≥ the lower bound `introduced`. A purely numeric bound names where a line starts,
 * so it is compared on its own length: `9.0.0.M1` is in the line that starts at `9` (a
 * branch label in the records), and `2.4.0-rc1` at `2.4.0`.
 */
export function atLeast(
  version: string,
  introduced: string,
  scheme: VersionScheme = 'dotted',
): boolean | undefined {
  const v = parseVersion(version, scheme);
  const bound = parseVersion(introduced, scheme);
  if (!v || !bound) return undefined;
  if (bound.every((t) => t.kind === 'number')) {
    const head = v.slice(0, bound.length);
    if (head.every((t) => t.kind === 'number')) return compareTokens(head, bound) >= 0;
  }
  return compareTokens(v, bound) >= 0;
}

/** Whether `version` is inside `range`; undefined when it cannot be told (a bound or the version unreadable). */
export function inRange(
  version: string,
  range: VersionRange,
  scheme: VersionScheme = 'dotted',
): boolean | undefined {
  const compare = (bound: string): number | undefined => compareVersions(version, bound, scheme);
  if (range.exact !== undefined) {
    const order = compare(range.exact);
    return order === undefined ? undefined : order === 0;
  }
  if (range.introduced === undefined) return undefined;
  if (range.introduced !== '0') {
    const lower = atLeast(version, range.introduced, scheme);
    if (lower === undefined) return undefined;
    if (!lower) return false;
  } else if (parseVersion(version, scheme) === undefined) return undefined;
  if (range.last_affected !== undefined) {
    const upper = compare(range.last_affected);
    return upper === undefined ? undefined : upper <= 0;
  }
  if (range.fixed === null || range.fixed === undefined) return range.fixed === null ? true : undefined;
  const upper = compare(range.fixed);
  return upper === undefined ? undefined : upper < 0;
}
