import { createReadStream, existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Router from '@koa/router';
import type { Context } from 'koa';
import { AppError } from '../errors.ts';
import { PAGE_CSP } from './docs.ts';

/**
 * The web console: the single-page application built from console/ into
 * console/dist (committed, checked by `npm run check:drift`), served at `/` under
 * the documentation pages' Content-Security-Policy. Every page path of the
 * console answers its index.html; the application routes in the browser. The
 * files are read from a fixed list made at start-up, so no request path ever
 * reaches the file system.
 */

const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../console/dist');

/** The console's own page paths (console/src/routes.ts), which all answer index.html. */
export const CONSOLE_PAGES = [
  '/',
  '/sign-in',
  '/overview',
  '/scans',
  '/scans/:id',
  '/import',
  '/findings',
  '/findings/:id',
  '/inventory',
  '/inventory/:id',
  '/compliance',
  '/compliance/:id',
  '/settings',
  '/settings/people',
  '/set-password',
  '/forgot-password',
  '/reset-password',
];

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

function assetsOf(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const assets = path.join(dir, 'assets');
  if (!existsSync(assets)) return files;
  for (const name of readdirSync(assets)) {
    if (TYPES[path.extname(name)]) files.set(name, path.join(assets, name));
  }
  return files;
}

/** Paths that are the API's (or its documents'): an unknown one answers the JSON error, never a page. */
const NOT_PAGES = /^\/(api|openapi\.json$|metrics$|health)/;

export interface ConsolePages {
  router: Router;
  /**
   * Answers an unknown path with the console's page and status 404, so a browser shows the
   * console's "Page not found" rather than the API's JSON; false (the caller answers the JSON
   * 404) for the API's paths, a method other than GET/HEAD, or a client that asks for JSON.
   */
  notFound(ctx: Context): boolean;
}

export function consolePages(dir = DIST): ConsolePages {
  const router = new Router();
  const index = path.join(dir, 'index.html');
  const assets = assetsOf(dir);

  const send = (ctx: Context) => {
    if (!existsSync(index)) {
      throw new AppError(503, 'SERVICE_UNAVAILABLE', 'the console is not built: run `npm run build:console`');
    }
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Content-Security-Policy', PAGE_CSP);
    ctx.body = createReadStream(index);
  };
  for (const pagePath of CONSOLE_PAGES) router.get(pagePath, send);

  const notFound = (ctx: Context) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return false;
    if (NOT_PAGES.test(ctx.path) || ctx.path.startsWith('/assets/') || !existsSync(index)) return false;
    if (ctx.accepts('html', 'json') !== 'html') return false;
    send(ctx);
    ctx.status = 404;
    return true;
  };

  router.get('/assets/:name', (ctx) => {
    const file = assets.get(ctx.params.name ?? '');
    const type = file && TYPES[path.extname(file)];
    if (!file || !type) throw new AppError(404, 'NOT_FOUND', 'route not found');
    ctx.type = type;
    // Built file names carry a content hash: a new build is a new name.
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.body = createReadStream(file);
  });
  return { router, notFound };
}
