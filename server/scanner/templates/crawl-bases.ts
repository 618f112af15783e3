/**
 * Where templates run besides the service root: the crawl (net/web-crawl.ts) hands its pages
 * over, and HTTP templates addressed to `{{BaseURL}}` run again with `{{BaseURL}}` set to the
 * directories those pages live in (`/app/` for `/app/index.php`), as nuclei does for an input URL
 * with a path. Bounded: at most MAX_CRAWL_BASES directories per service (the first the crawl
 * reached, breadth first), and only templates cheap enough to repeat (every request under
 * `{{BaseURL}}`, at most MAX_REQUESTS_PER_CRAWL_BASE of them), so the extra requests per service
 * stay below MAX_CRAWL_BASES × MAX_REQUESTS_PER_CRAWL_BASE × the number of such templates.
 */
import type { LoadedTemplate } from './schema.ts';

/** Crawled directories a service's templates run under, besides `/`. */
export const MAX_CRAWL_BASES = 3;
/** Most requests of a template that is repeated under crawled directories. */
export const MAX_REQUESTS_PER_CRAWL_BASE = 2;

/** The directories of the crawled pages that answered 200, in crawl order, without `/`. */
export function crawlBases(pages: readonly { path: string; status: number | undefined }[]): string[] {
  const bases: string[] = [];
  for (const page of pages) {
    if (page.status !== 200) continue;
    const path = page.path.split(/[?#]/)[0] as string;
    if (/^\/(robots\.txt|sitemap\.xml)$/.test(path)) continue;
    const dir = path.slice(0, path.lastIndexOf('/') + 1);
    if (dir === '/' || dir === '' || bases.includes(dir)) continue;
    bases.push(dir);
    if (bases.length === MAX_CRAWL_BASES) break;
  }
  return bases;
}

/** Whether a template is repeated under crawled directories: all under `{{BaseURL}}`, and cheap. */
export function runsOnCrawledPages(template: LoadedTemplate): boolean {
  const items = template.requests.flatMap((r) => r.items);
  return (
    items.length > 0 &&
    items.length <= MAX_REQUESTS_PER_CRAWL_BASE &&
    items.every((item) => /^\{\{BaseURL\}\}/.test(item.path.trim()))
  );
}
