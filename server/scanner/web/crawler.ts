/**
 * The crawl of the web assessment: what a signed-in user reaches, breadth first from the
 * home page (and the page the sign-in landed on), `robots.txt` and `sitemap.xml`:
 *
 * - links, frames, meta refreshes, redirects, the URLs of same-origin scripts, and forms:
 *   GET and POST forms are submitted once with every field given a sensible value (a
 *   password field gets the scan's own password, so a change-password form changes nothing;
 *   a form with a file field, or whose button or action reads like a deletion or a reset, is
 *   never submitted);
 * - same origin only (scheme, host, port); never the log-out link (nor any link that reads
 *   like a deletion), never the log-in form's page or action once signed in, never a path of
 *   `exclude_paths`;
 * - bounded: MAX_PAGES pages, MAX_DEPTH links deep, CRAWL_TIME_MS in all.
 *
 * Every request with parameters becomes an `AttackTarget` (parameters.ts).
 */
import type { WebClient, WebRequest, WebResponse } from './client.ts';
import { looksLikeHtml, parsePage } from './html.ts';
import { robotsLinks, sitemapLinks } from '../net/web-crawl.ts';
import { targetFromForm, targetFromLink, targetKey, buildRequest, type AttackTarget } from './parameters.ts';
import type { Resolve } from './session.ts';

export const MAX_PAGES = 300;
export const MAX_DEPTH = 6;
export const CRAWL_TIME_MS = 120_000;
const CONCURRENCY = 6;

/** Links never followed: log-out and anything that reads like a deletion or a shutdown. */
export const UNSAFE_LINK =
  /log-?out|sign-?out|log-?off|sign-?off|delete|remove|destroy|drop|purge|shutdown|restart|reset|unsubscribe/i;
/** Links that flip a setting (`?phpids=on`, `?debug=disable`): following them changes the application's state. */
export const TOGGLE_LINK = /[?&][^=&]+=(?:on|off|enable|disable|enabled|disabled)(?:&|$)/i;
/** Forms never submitted: a button or an action that reads like a deletion, a reset or a log-out. */
const UNSAFE_FORM =
  /log-?\s?out|sign-?\s?out|delete|remove|destroy|drop|purge|erase|wipe|truncate|reset|uninstall/i;

export interface CrawledWebPage {
  path: string;
  depth: number;
  status: number;
  html: boolean;
  body: string;
}

export interface Surface {
  pages: CrawledWebPage[];
  targets: AttackTarget[];
  /** Paths the crawl declined: another origin, excluded, unsafe (for the scan's notes and tests). */
  declined: number;
}

export interface CrawlOptions {
  resolve: Resolve;
  /** Paths never requested (the log-in form's page and action once signed in). */
  avoid: (path: string) => boolean;
  password: string | undefined;
  /** Whether forms may be submitted at all (a form with a password field only when the password is known). */
  start: string[];
  signal: AbortSignal;
}

export async function crawlApplication(client: WebClient, options: CrawlOptions): Promise<Surface> {
  const deadline = performance.now() + CRAWL_TIME_MS;
  const pages: CrawledWebPage[] = [];
  const targets = new Map<string, AttackTarget>();
  const seen = new Set<string>();
  let declined = 0;
  const queue: Array<{ request: WebRequest; depth: number; from: string }> = [];

  const consider = (path: string | undefined, depth: number): void => {
    if (path === undefined) {
      declined += 1;
      return;
    }
    const clean = path.split('#')[0] as string;
    if (seen.has(clean)) return;
    seen.add(clean);
    if (
      !client.allowed(clean) ||
      options.avoid(clean) ||
      UNSAFE_LINK.test(clean) ||
      TOGGLE_LINK.test(clean)
    ) {
      declined += 1;
      return;
    }
    const target = targetFromLink(clean);
    if (target && !targets.has(targetKey(target))) targets.set(targetKey(target), target);
    if (depth <= MAX_DEPTH) queue.push({ request: { method: 'GET', path: clean }, depth, from: clean });
  };

  const submitForm = (target: AttackTarget, depth: number, from: string): void => {
    const key = targetKey(target);
    if (targets.has(key)) return;
    targets.set(key, target);
    if (depth > MAX_DEPTH) return;
    const request = buildRequest(target, undefined, '');
    const id = `${request.method} ${request.path} ${request.body ?? ''}`;
    if (seen.has(id)) return;
    seen.add(id);
    queue.push({ request, depth, from });
  };

  const learn = (path: string, depth: number, response: WebResponse, get: boolean): void => {
    if (response.status >= 300 && response.status < 400 && response.location) {
      consider(options.resolve(response.location, path), depth);
      return;
    }
    const body = response.body;
    const type = response.headers.get('content-type') ?? '';
    const html = looksLikeHtml(type, body);
    if (get && (response.status < 400 || html))
      pages.push({ path, depth, status: response.status, html, body });
    const pathname = path.split('?')[0] as string;
    if (pathname === '/robots.txt' && response.status === 200) {
      for (const link of robotsLinks(body)) consider(options.resolve(link, path), depth + 1);
      return;
    }
    if ((/xml/i.test(type) || pathname.endsWith('.xml')) && response.status === 200) {
      for (const link of sitemapLinks(body)) consider(options.resolve(link, path), depth + 1);
      return;
    }
    if (/javascript/i.test(type)) {
      for (const link of parsePage(`<script>${body}</script>`).scripts)
        consider(options.resolve(link, path), depth + 1);
      return;
    }
    if (!html) return;
    const parsed = parsePage(body);
    for (const link of [...parsed.links, ...parsed.scripts]) {
      if (/^\s*(javascript|mailto|tel|data):/i.test(link)) continue;
      consider(options.resolve(link, path), depth + 1);
    }
    for (const form of parsed.forms) {
      const action = options.resolve(form.action, path);
      if (action === undefined) {
        declined += 1;
        continue;
      }
      const actionPath = action.split('#')[0] as string;
      if (!client.allowed(actionPath) || options.avoid(actionPath)) {
        declined += 1;
        continue;
      }
      const buttons = form.fields.filter((f) => f.type === 'submit').map((f) => `${f.name} ${f.value}`);
      const unsafe =
        form.fields.some((f) => f.type === 'file') ||
        UNSAFE_FORM.test(actionPath) ||
        buttons.some((b) => UNSAFE_FORM.test(b)) ||
        (options.password === undefined && form.fields.some((f) => f.type === 'password'));
      if (unsafe) {
        declined += 1;
        continue;
      }
      submitForm(targetFromForm(form, path, actionPath, options.password), depth + 1, path);
    }
  };

  for (const start of ['/robots.txt', '/sitemap.xml', ...options.start])
    consider(start, start.endsWith('.xml') || start.endsWith('.txt') ? 1 : 0);
  while (
    queue.length > 0 &&
    pages.length < MAX_PAGES &&
    performance.now() < deadline &&
    !options.signal.aborted
  ) {
    const batch = queue.splice(0, Math.min(CONCURRENCY, MAX_PAGES - pages.length));
    const answers = await Promise.all(
      batch.map(async (item) => {
        try {
          return { item, exchange: await client.send(item.request) };
        } catch (err) {
          if (options.signal.aborted) throw err;
          return undefined;
        }
      }),
    );
    for (const answer of answers) {
      if (!answer?.exchange.response) continue;
      const { item, exchange } = answer;
      learn(item.request.path, item.depth, exchange.response!, item.request.method === 'GET');
    }
  }
  return { pages, targets: [...targets.values()], declined };
}
