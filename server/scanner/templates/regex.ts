/**
 * Nuclei templates carry Go (RE2) regular expressions. Most compile unchanged in JavaScript;
 * the differences that matter are handled here: a leading inline flag group such as `(?i)`
 * or `(?mi)` becomes JavaScript flags, `(?P<name>` becomes `(?<name>`, `\A` and `\z` become
 * anchors. Anything else JavaScript rejects (mid-pattern flag groups, POSIX classes) makes
 * the template unsupported rather than silently different.
 */

/** Go flags that have a JavaScript equivalent; `U` (ungreedy) has none. */
const FLAG_MAP: Record<string, string> = { i: 'i', m: 'm', s: 's' };

/** Compiles a Go regular expression as JavaScript; throws when it cannot be expressed faithfully. */
export function compileGoRegex(source: string, extraFlags = ''): RegExp {
  let pattern = source;
  const flags = new Set(extraFlags.split('').filter(Boolean));
  for (;;) {
    const leading = /^\(\?([a-zA-Z]+)\)/.exec(pattern);
    if (!leading) break;
    for (const flag of leading[1] as string) {
      const js = FLAG_MAP[flag];
      if (!js) throw new Error(`regex flag "${flag}" has no JavaScript equivalent`);
      flags.add(js);
    }
    pattern = pattern.slice(leading[0].length);
  }
  if (/\[\[:[a-z]+:\]\]/.test(pattern)) throw new Error('POSIX character classes are not supported');
  pattern = pattern
    .replace(/\(\?P</g, '(?<')
    .replace(/(^|[^\\])\\A/g, '$1^')
    .replace(/(^|[^\\])\\z/g, '$1$(?![\\s\\S])');
  // `\z` inside a multiline pattern must still mean "end of input", which `$(?![\s\S])` keeps.
  return new RegExp(pattern, [...flags].sort().join(''));
}
