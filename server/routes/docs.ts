import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import Router from '@koa/router';
import type { Context, Next } from 'koa';
import { resolvePrincipal } from '../auth/gatekeeper.ts';
import { buildOpenApiDocument } from '../http/openapi.ts';
import type { Services } from '../services.ts';
import { allRoutes } from './index.ts';

/**
 * /openapi.json, Swagger UI at /docs and ReDoc at /redoc, served from the
 * installed packages (no CDN, so they work offline). The pages and the document
 * need credentials unless SCANWARD_DOCS_PUBLIC=true; HTTP Basic is accepted so
 * a browser simply asks for a login. Library assets are public static files.
 */

const require = createRequire(import.meta.url);
const swaggerDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const redocBundle = path.join(
  path.dirname(require.resolve('redoc/package.json')),
  'bundles',
  'redoc.standalone.js',
);

const SWAGGER_ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const CSP =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; worker-src 'self' blob:";

const swaggerPage = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Scanward API</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
  <script src="/docs/assets/init.js"></script>
</body>
</html>`;

const swaggerInit = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
});`;

const redocPage = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Scanward API reference</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
</head>
<body>
  <redoc spec-url="/openapi.json"></redoc>
  <script src="/redoc/assets/redoc.standalone.js"></script>
</body>
</html>`;

let documentCache: { version: string; json: string } | undefined;

/** The OpenAPI document as JSON; generated once per process. */
export function openApiJson(version: string): string {
  if (documentCache?.version !== version) {
    documentCache = { version, json: JSON.stringify(buildOpenApiDocument(allRoutes, version), null, 2) };
  }
  return documentCache.json;
}

async function requireDocsAccess(ctx: Context, next: Next) {
  const services = ctx.state.services as Services;
  if (!services.config.docsPublic) {
    ctx.state.basicChallenge = true;
    ctx.state.principal = await resolvePrincipal(ctx, { allowBasic: true });
  }
  await next();
}

function staticFile(file: string, type: string) {
  return (ctx: Context) => {
    ctx.type = type;
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = createReadStream(file);
  };
}

export const docsRouter = new Router();

docsRouter.get('/openapi.json', requireDocsAccess, (ctx) => {
  ctx.type = 'application/json';
  ctx.body = openApiJson((ctx.state.services as Services).version);
});
docsRouter.get('/docs', requireDocsAccess, (ctx) => {
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Content-Security-Policy', CSP);
  ctx.body = swaggerPage;
});
docsRouter.get('/docs/assets/init.js', (ctx) => {
  ctx.type = 'text/javascript; charset=utf-8';
  ctx.body = swaggerInit;
});
for (const [name, type] of Object.entries(SWAGGER_ASSETS)) {
  docsRouter.get(`/docs/assets/${name}`, staticFile(path.join(swaggerDir, name), type));
}
docsRouter.get('/redoc', requireDocsAccess, (ctx) => {
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Content-Security-Policy', CSP);
  ctx.body = redocPage;
});
docsRouter.get(
  '/redoc/assets/redoc.standalone.js',
  staticFile(redocBundle, 'text/javascript; charset=utf-8'),
);
