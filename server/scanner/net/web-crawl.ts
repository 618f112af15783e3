/**
 * A bounded, same-origin crawl of a web service, run once per service and scan and shared
 * by the web checks: the home page, `robots.txt` and `sitemap.xml`, then the links (`<a>`,
 * `<area>`, `<link>`, frames) and GET forms of every HTML page found, breadth first, at most
 * MAX_DEPTH links away from the home page and at most MAX_PAGES requests per service.
 *
 * - Same origin only: a link is followed when it resolves to the service's own scheme,
 *   host (the scan target or the address) and port; everything else is dropped unseen.
 * - Every request goes through `httpGet`, so through the scan's scope guard and to the
 *   literal address the guard approved, bounded in bytes and time.
 * - GET only: forms with another method are not submitted, and links that read like a
 *   state change (`logout`, `delete`, …) are not followed.
 */
import { urlHost } from './target-address.ts';
import type { ServiceIdentification } from './services.ts';
import type { PhaseContext, ScanState } from '../types.ts';
import { isTlsService } from './http-exchange.ts';
import { hostTarget, sharedExchange } from './service-connect.ts';
import { getRoot, httpGet, type HttpExchange } from './http-get.ts';

export const MAX_PAGES = 50;
export const MAX_DEPTH = 2;
/** Requests of one crawl in flight at once. */
const CONCURRENCY = 4;
const MAX_PATH_LENGTH = 2048;
const UNSAFE_LINK = /(log-?out|sign-?out|delete|remove|destroy|shutdown|restart)/i;

export interface CrawledPage {
  /** Path and query, as requested. */
  path: string;
  /** Links away from the home page (robots.txt, sitemap.xml and what they list: 1). */
  depth: number;
  exchange: HttpExchange;
}

export interface Origin {
  scheme: 'http' | 'https';
  /** Host names that mean this service: the scan target and the address, lower case. */
  hosts: string[];
  port: number;
}

export function originOf(ctx: PhaseContext, service: ServiceIdentification): Origin {
  const hosts = [hostTarget(ctx, service), service.address].map((h) => urlHost(h).toLowerCase());
  return { scheme: isTlsService(service) ? 'https' : 'http', hosts: [...new Set(hosts)], port: service.port };
}

/** The path and query of `href` seen from `from` (a path), when it stays on the origin; undefined otherwise. */
export function sameOriginPath(href: string, from: string, origin: Origin): string | undefined {
  const base = `${origin.scheme}://${origin.hosts[0]}:${origin.port}${from.startsWith('/') ? from : '/'}`;
  let url: URL;
  try {
    url = new URL(href.trim().replace(/&amp;/g, '&'), base);
  } catch {
    return undefined;
  }
  if (url.protocol !== `${origin.scheme}:`) return undefined;
  if (!origin.hosts.includes(url.hostname.toLowerCase())) return undefined;
  const port = url.port === '' ? (origin.scheme === 'https' ? 443 : 80) : Number(url.port);
  if (port !== origin.port) return undefined;
  const path = `${url.pathname}${url.search}`;
  return path.length > MAX_PATH_LENGTH ? undefined : path;
}

const ATTRIBUTE = (name: string) => new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i');

function attribute(tag: string, name: string): string | undefined {
  const match = ATTRIBUTE(name).exec(tag);
  return match ? (match[1] ?? match[2] ?? match[3]) : undefined;
}

/** The link targets of an HTML page: hrefs, frame sources and the actions of GET forms. */
export function htmlLinks(html: string): string[] {
  const links: string[] = [];
  for (const [tag] of html.matchAll(/<(?:a|area|link)\b[^>]*>/gi)) {
    const href = attribute(tag, 'href');
    if (href !== undefined) links.push(href);
  }
  for (const [tag] of html.matchAll(/<(?:i?frame)\b[^>]*>/gi)) {
    const src = attribute(tag, 'src');
    if (src !== undefined) links.push(src);
  }
  for (const [tag] of html.matchAll(/<form\b[^>]*>/gi)) {
    const method = (attribute(tag, 'method') ?? 'get').toLowerCase();
    if (method === 'get') links.push(attribute(tag, 'action') ?? '');
  }
  return links;
}

/** Paths of `robots.txt` (`Allow`/`Disallow` without wildcards) and its `Sitemap` URLs. */
export function robotsLinks(text: string): string[] {
  const links: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*(allow|disallow|sitemap)\s*:\s*(\S+)/i.exec(line);
    if (!match) continue;
    const value = match[2] as string;
    if (match[1]!.toLowerCase() === 'sitemap' || !/[*$]/.test(value)) links.push(value);
  }
  return links;
}

/** The `<loc>` URLs of a sitemap. */
export function sitemapLinks(xml: string): string[] {
  return [...xml.matchAll(/<loc>\s*([^<\s]+)\s*<\/loc>/gi)].map((m) => m[1] as string);
}

function linksOf(page: CrawledPage): string[] {
  const response = page.exchange.response;
  if (!response) return [];
  const links: string[] = [];
  const location = response.headers.get('location');
  if (response.status >= 300 && response.status < 400 && location) links.push(location);
  if (response.status !== 200) return links;
  const body = response.body.toString('utf8');
  const type = response.headers.get('content-type') ?? '';
  if (page.path === '/robots.txt') return [...links, ...robotsLinks(body)];
  if (/xml/i.test(type) || page.path.endsWith('.xml')) return [...links, ...sitemapLinks(body)];
  if (/html/i.test(type) || /^\s*</.test(body.slice(0, 512))) return [...links, ...htmlLinks(body)];
  return links;
}

async function crawlService(ctx: PhaseContext, service: ServiceIdentification): Promise<CrawledPage[]> {
  const origin = originOf(ctx, service);
  const pages: CrawledPage[] = [];
  const seen = new Set<string>(['/', '/robots.txt', '/sitemap.xml']);
  const queue: { path: string; depth: number }[] = [
    { path: '/robots.txt', depth: 1 },
    { path: '/sitemap.xml', depth: 1 },
  ];
  let requests = 1;
  const enqueue = (page: CrawledPage): void => {
    if (page.depth >= MAX_DEPTH) return;
    for (const link of linksOf(page)) {
      const path = sameOriginPath(link, page.path, origin);
      if (path === undefined || seen.has(path) || UNSAFE_LINK.test(path)) continue;
      seen.add(path);
      queue.push({ path, depth: page.depth + 1 });
    }
  };
  const root: CrawledPage = { path: '/', depth: 0, exchange: await getRoot(ctx, service) };
  pages.push(root);
  enqueue(root);
  while (queue.length > 0 && requests < MAX_PAGES && !ctx.signal.aborted) {
    const batch = queue.splice(0, Math.min(CONCURRENCY, MAX_PAGES - requests));
    requests += batch.length;
    const fetched = await Promise.all(
      batch.map(async ({ path, depth }) => {
        try {
          return { path, depth, exchange: await httpGet(ctx, service, path) };
        } catch (err) {
          if (ctx.signal.aborted) throw err;
          return undefined;
        }
      }),
    );
    for (const page of fetched) {
      if (!page) continue;
      pages.push(page);
      enqueue(page);
    }
  }
  return pages;
}

const crawls = new WeakMap<ScanState, Map<string, Promise<CrawledPage[]>>>();

/** The crawl of a service, run once per scan and shared by every check that asks. */
export function crawl(ctx: PhaseContext, service: ServiceIdentification): Promise<CrawledPage[]> {
  return sharedExchange(crawls, ctx, `${service.address}|${service.port}`, () => crawlService(ctx, service));
}
