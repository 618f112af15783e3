/**
 * `exclude_paths`: paths the web assessment never requests. An entry without `*` is a prefix
 * of the path (`/admin` excludes `/admin`, `/admin/users` and `/admin?x=1`); an entry with `*`
 * is a glob over the whole path (`*` within one segment, `**` across segments), with or
 * without the query.
 */
const compiled = new Map<string, RegExp>();

function globRegExp(glob: string): RegExp {
  let re = compiled.get(glob);
  if (!re) {
    const body = glob
      .split(/(\*\*|\*)/)
      .map((part) =>
        part === '**' ? '.*' : part === '*' ? '[^/?]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'),
      )
      .join('');
    re = new RegExp(`^${body}(?:\\?.*)?$`);
    compiled.set(glob, re);
  }
  return re;
}

export function excluded(path: string, patterns: readonly string[]): boolean {
  const pathname = path.split(/[?#]/)[0] as string;
  return patterns.some((pattern) => {
    if (pattern.includes('*')) return globRegExp(pattern).test(path) || globRegExp(pattern).test(pathname);
    return pathname.startsWith(pattern) || path.startsWith(pattern);
  });
}
