import { createReadStream, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import Router from '@koa/router';
import type { Context, Next } from 'koa';
import { resolvePrincipal } from '../auth/gatekeeper.ts';
import { buildOpenApiDocument, type DocumentationPage } from '../http/openapi.ts';
import { describeRequestRate } from '../ratelimit/request-rate.ts';
import type { Config } from '../config.ts';
import type { Services } from '../services.ts';
import { allRoutes, routeTags } from './index.ts';

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

/** The pages themselves, as the OpenAPI document describes them. */
export const documentationPages: DocumentationPage[] = [
  {
    path: '/openapi.json',
    operationId: 'getOpenApiDocument',
    summary: 'OpenAPI 3.1 description of this API',
    description: 'This document.',
    contentType: 'application/json',
  },
  {
    path: '/docs',
    operationId: 'getSwaggerUi',
    summary: 'Interactive API documentation (Swagger UI)',
    description: 'Swagger UI over /openapi.json, served from this server.',
    contentType: 'text/html',
  },
  {
    path: '/redoc',
    operationId: 'getRedoc',
    summary: 'API reference (ReDoc)',
    description: 'ReDoc over /openapi.json, served from this server.',
    contentType: 'text/html',
  },
];

const SWAGGER_ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/** Pages may load only what this server serves: no CDN, no fonts or images from elsewhere. */
export const PAGE_CSP =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; " +
  "worker-src 'self' blob:; connect-src 'self'; font-src 'self' data:; frame-ancestors 'none'";

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

/**
 * validatorUrl: null keeps Swagger UI from sending the document to validator.swagger.io.
 *
 * "Try it out" with a console session: the browser sends the session cookie by itself, but a
 * request that changes something also needs the session's CSRF token (docs/console.md). The
 * interceptor reads it once from GET /api/v1/auth/console/session (a same-origin read another
 * site cannot make) and adds X-CSRF-Token to every such request, unless the person authorized
 * Swagger UI with a token or an API key, which need none.
 */
const swaggerInit = `(function () {
  var csrf;
  function csrfToken() {
    csrf = csrf || fetch('/api/v1/auth/console/session', { credentials: 'same-origin' })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (body) { return (body && body.session && body.session.csrf_token) || ''; })
      .catch(function () { return ''; });
    return csrf;
  }
  function hasHeader(headers, name) {
    return Object.keys(headers || {}).some(function (k) { return k.toLowerCase() === name; });
  }
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout',
    requestInterceptor: function (request) {
      var method = (request.method || 'GET').toUpperCase();
      if (method === 'GET' || method === 'HEAD' || request.loadSpec) return request;
      request.headers = request.headers || {};
      if (hasHeader(request.headers, 'authorization') || hasHeader(request.headers, 'x-api-key')) return request;
      return csrfToken().then(function (token) {
        if (token) request.headers['X-CSRF-Token'] = token;
        return request;
      });
    },
  });
})();`;

const redocPage = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Scanward API reference</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
</head>
<body>
  <redoc spec-url="/openapi.json"></redoc>
  <script src="/redoc/assets/redoc.standalone.js"></script>
</body>
</html>`;

/** The OpenAPI document of every route and documentation page. */
export function openApiDocument(version: string) {
  return buildOpenApiDocument(allRoutes, version, documentationPages, [
    ...routeTags,
    { name: 'Documentation', description: 'This OpenAPI document, and the pages that render it.' },
  ]);
}

let documentCache: { version: string; json: string } | undefined;

/** The OpenAPI document as JSON; generated once per process. */
export function openApiJson(version: string): string {
  if (documentCache?.version !== version) {
    documentCache = { version, json: JSON.stringify(openApiDocument(version), null, 2) };
  }
  return documentCache.json;
}

/**
 * Credentials unless the server's configuration makes the page public; the 401 asks a
 * browser for a login (Basic).
 */
function requireCredentialsUnless(isPublic: (config: Config) => boolean) {
  return async (ctx: Context, next: Next) => {
    const services = ctx.state.services as Services;
    if (!isPublic(services.config)) {
      ctx.state.basicChallenge = true;
      const principal = await resolvePrincipal(ctx, { allowBasic: true });
      ctx.state.principal = principal;
      // Not counted, but described like every authenticated response.
      await describeRequestRate(services.db, ctx, principal);
    }
    await next();
  };
}

const requireDocsAccess = requireCredentialsUnless((config) => config.docsPublic);

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
  ctx.set('Content-Security-Policy', PAGE_CSP);
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
  ctx.set('Content-Security-Policy', PAGE_CSP);
  ctx.body = redocPage;
});
/**
 * ReDoc's bundle shows a Redocly logo from cdn.redoc.ly in its side menu, which the pages'
 * Content-Security-Policy refuses (a console error) and which would be a request to another
 * site: the bundle is served with that one address replaced by an empty inline image.
 */
const REDOC_CDN_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const EMPTY_IMAGE = 'data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22/%3E';
let redocSource: string | undefined;
docsRouter.get('/redoc/assets/redoc.standalone.js', (ctx) => {
  redocSource ??= readFileSync(redocBundle, 'utf8').replaceAll(REDOC_CDN_LOGO, EMPTY_IMAGE);
  ctx.type = 'text/javascript; charset=utf-8';
  ctx.set('Cache-Control', 'public, max-age=86400');
  ctx.body = redocSource;
});
