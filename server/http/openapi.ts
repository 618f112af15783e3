import {
  OpenAPIRegistry,
  OpenApiGeneratorV31,
  type ResponseConfig,
  type RouteConfig,
} from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { ErrorResponse } from '../schemas/common.ts';
import { errorStatus, type AnyRoute, type ErrorCode } from './contract.ts';
import { routeRoles } from '../policies/roles.ts';

/**
 * The OpenAPI 3.1 document, generated from the route declarations (and the
 * documentation pages), so it cannot drift from what the server does.
 */

/** A page served beside the API (the documentation itself): described, but not a contract route. */
export interface DocumentationPage {
  path: string;
  operationId: string;
  summary: string;
  description: string;
  /** Media type of the 200 answer. */
  contentType: 'text/html' | 'application/json';
}

/** Errors every authenticated route can answer with. */
const AUTHENTICATED_ERRORS: ErrorCode[] = [
  'AUTHENTICATION_REQUIRED',
  'TOKEN_EXPIRED',
  'INVALID_TOKEN',
  'INVALID_API_KEY',
  'INSUFFICIENT_PERMISSION',
  'RATE_LIMIT_EXCEEDED',
];

/** An API key of an organization whose plan lost API keys answers this before anything else. */
const API_KEY_ERRORS: ErrorCode[] = ['PLAN_UPGRADE_REQUIRED'];

/**
 * Codes only authentication answers. It runs before the request is counted against the
 * organization's rate (routeMiddleware: caller → count → access → validate → handler), so
 * these answers never carry `X-RateLimit-*`; every other answer of a counted route may.
 */
const BEFORE_THE_COUNT: ReadonlySet<ErrorCode> = new Set([
  'AUTHENTICATION_REQUIRED',
  'TOKEN_EXPIRED',
  'INVALID_TOKEN',
  'INVALID_API_KEY',
]);

/** Response headers, defined once under components/headers and referenced. */
const HEADER_COMPONENTS = {
  'X-RateLimit-Limit': {
    description:
      "Requests allowed in the organization's window (hour or day) closest to running out; on the log-in routes, failed log-ins allowed per client address in 15 minutes (50)",
    schema: { type: 'integer' as const },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests (on the log-in routes: failed log-ins) left in that window',
    schema: { type: 'integer' as const },
  },
  'X-RateLimit-Reset': {
    description:
      "When that window resets, in Unix seconds (on the log-in routes: when the address's counted failures have all left the window)",
    schema: { type: 'integer' as const },
  },
  'Retry-After': {
    description: 'Seconds until a request can succeed again',
    schema: { type: 'integer' as const },
  },
  Allow: { description: 'The methods the path accepts', schema: { type: 'string' as const } },
};

const headerRefs = (...names: Array<keyof typeof HEADER_COMPONENTS>) =>
  Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));

const RATE_HEADERS = headerRefs('X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset');
const RETRY_AFTER = headerRefs('Retry-After');
const ALLOW_HEADER = headerRefs('Allow');

function errorsOf(route: AnyRoute): ErrorCode[] {
  const codes = new Set<ErrorCode>(route.errors ?? []);
  if (!route.access.public) {
    for (const c of AUTHENTICATED_ERRORS) codes.add(c);
    if (!route.access.bearerOnly) for (const c of API_KEY_ERRORS) codes.add(c);
  }
  if (route.params || route.query || route.body || route.headers) codes.add('VALIDATION_ERROR');
  if (route.body || route.upload) for (const c of ['BAD_REQUEST', 'PAYLOAD_TOO_LARGE'] as const) codes.add(c);
  codes.add('INTERNAL_ERROR');
  return [...codes];
}

/**
 * The statuses of a route's answers that carry `X-RateLimit-*`: on a counted route, every
 * success, and every error status one of whose codes can be answered after the count (a
 * 403 for a missing permission, a 422, a 404 …). Not a 401 of failed authentication, which
 * comes before the count; a 401 the handler answers (a wrong MFA code) comes after it. The
 * headers are declared optional: a status shared by codes of both kinds (a 403 of a
 * console request without its CSRF token, a 413 announced by `Content-Length` and refused
 * before routing) may come without them.
 */
export function rateHeaderStatuses(route: AnyRoute): Set<number> {
  const statuses = new Set<number>();
  if (route.answerHeaders) {
    // The log-in routes: every answer carries the per-address limit.
    for (const status of Object.keys(route.responses)) statuses.add(Number(status));
    for (const code of errorsOf(route)) statuses.add(errorStatus[code]);
    return statuses;
  }
  if (route.access.public || route.rateLimited === false) return statuses;
  for (const status of Object.keys(route.responses)) if (status.startsWith('2')) statuses.add(Number(status));
  for (const code of errorsOf(route)) if (!BEFORE_THE_COUNT.has(code)) statuses.add(errorStatus[code]);
  return statuses;
}

/** Error responses of the given codes, one per status, each with the Error schema. */
function errorResponses(
  codes: ErrorCode[],
  rateHeaders: ReadonlySet<number>,
): Record<string, ResponseConfig> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = errorStatus[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<string, ResponseConfig> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const headers = {
      ...(rateHeaders.has(status) ? RATE_HEADERS : {}),
      ...(status === 429 || status === 503 ? RETRY_AFTER : {}),
      ...(status === 405 ? ALLOW_HEADER : {}),
    };
    out[status] = {
      description: `Error: ${list.join(', ')}`,
      ...(Object.keys(headers).length ? { headers } : {}),
      content: { 'application/json': { schema: ErrorResponse } },
    };
  }
  return out;
}

const BEARER_OR_KEY: Record<string, string[]>[] = [{ bearerAuth: [] }, { apiKeyAuth: [] }];

function routeOperation(route: AnyRoute): RouteConfig {
  const rateHeaders = rateHeaderStatuses(route);
  const responses: Record<string, ResponseConfig> = {};
  for (const [status, spec] of Object.entries(route.responses)) {
    const content: Record<string, { schema: z.ZodType }> = {};
    if (spec.schema) content['application/json'] = { schema: spec.schema };
    for (const type of spec.contentTypes ?? []) content[type] = { schema: z.string() };
    responses[status] = {
      description: spec.description,
      ...(rateHeaders.has(Number(status)) ? { headers: RATE_HEADERS } : {}),
      ...(Object.keys(content).length ? { content } : {}),
    };
  }
  for (const [status, response] of Object.entries(errorResponses(errorsOf(route), rateHeaders))) {
    responses[status] ??= response;
  }
  const notes = [
    route.description ?? '',
    !route.access.public && route.access.permission
      ? `API key permission: \`${route.access.permission}\`.`
      : '',
    route.access.bearerOnly ? 'Bearer tokens only (API keys are refused).' : '',
    route.access.public ? '' : `Roles: ${routeRoles(route.access).join(', ')}.`,
  ].filter(Boolean);
  return {
    method: route.method,
    path: route.path,
    operationId: route.operationId,
    summary: route.summary,
    ...(notes.length ? { description: notes.join('\n\n') } : {}),
    tags: route.tags,
    // The roles the policy allows (policies/roles.ts), machine-readable beside the sentence above.
    ...(route.access.public ? {} : { 'x-scanward-roles': [...routeRoles(route.access)] }),
    security: route.access.public ? [] : route.access.bearerOnly ? [{ bearerAuth: [] }] : BEARER_OR_KEY,
    request: {
      ...(route.params ? { params: route.params } : {}),
      ...(route.query ? { query: route.query } : {}),
      ...(route.headers ? { headers: route.headers } : {}),
      ...(route.body
        ? {
            body: {
              required: true,
              content: {
                [route.bodyType === 'form' ? 'application/x-www-form-urlencoded' : 'application/json']: {
                  schema: route.body,
                },
              },
            },
          }
        : {}),
      ...(route.upload
        ? {
            body: {
              required: true,
              content: {
                'multipart/form-data': { schema: route.upload },
                'application/octet-stream': { schema: { type: 'string' as const, format: 'binary' } },
              },
            },
          }
        : {}),
    },
    responses,
  };
}

function pageOperation(page: DocumentationPage): RouteConfig {
  const schema =
    page.contentType === 'application/json' ? { type: 'object' as const } : { type: 'string' as const };
  return {
    method: 'get',
    path: page.path,
    operationId: page.operationId,
    summary: page.summary,
    description:
      `${page.description}\n\nNeeds credentials (a bearer token, an API key, or HTTP Basic with an e-mail and ` +
      'password or any user name and an API key) unless the server runs with `SCANWARD_DOCS_PUBLIC=true`. ' +
      'Not counted against the request rate, but an answer to a caller with credentials describes it ' +
      '(`X-RateLimit-*`).',
    tags: ['Documentation'],
    security: [...BEARER_OR_KEY, { basicAuth: [] }],
    responses: {
      200: {
        description: page.summary,
        // Present when the caller sent credentials (not with SCANWARD_DOCS_PUBLIC=true and none).
        headers: RATE_HEADERS,
        content: { [page.contentType]: { schema } },
      },
      ...errorResponses(
        [
          'AUTHENTICATION_REQUIRED',
          'INVALID_CREDENTIALS',
          'INVALID_TOKEN',
          'TOKEN_EXPIRED',
          'INVALID_API_KEY',
          'PLAN_UPGRADE_REQUIRED',
          'RATE_LIMIT_EXCEEDED',
          'INTERNAL_ERROR',
        ],
        new Set(),
      ),
    },
  };
}

/** A tag of the document's operations, with what it groups. */
export interface TagDescription {
  name: string;
  description: string;
}

/** The document's top-level tags: every tag an operation uses, each described, in the given order. */
function tagList(routes: AnyRoute[], pages: DocumentationPage[], tags: TagDescription[]): TagDescription[] {
  const used = new Set([...routes.flatMap((r) => r.tags), ...(pages.length > 0 ? ['Documentation'] : [])]);
  const undescribed = [...used].filter((name) => !tags.some((t) => t.name === name));
  if (undescribed.length > 0) {
    throw new Error(
      `OpenAPI tags without a description: ${undescribed.join(', ')} (describe them beside allRoutes)`,
    );
  }
  return tags.filter((t) => used.has(t.name));
}

/** The OpenAPI 3.1 document of the given routes and documentation pages. */
export function buildOpenApiDocument(
  routes: AnyRoute[],
  version: string,
  pages: DocumentationPage[] = [],
  tags: TagDescription[] = [],
) {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'Access token from POST /api/v1/auth/token (lifetime 3600 s).',
  });
  registry.registerComponent('securitySchemes', 'apiKeyAuth', {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description: 'API key (professional and enterprise plans), limited to its permissions.',
  });
  for (const [name, header] of Object.entries(HEADER_COMPONENTS)) {
    registry.registerComponent('headers', name, header);
  }
  if (pages.length > 0) {
    registry.registerComponent('securitySchemes', 'basicAuth', {
      type: 'http',
      scheme: 'basic',
      description:
        'Documentation pages only: an e-mail and password, or any user name with an API key as the password.',
    });
  }
  for (const route of routes) registry.registerPath(routeOperation(route));
  for (const page of pages) registry.registerPath(pageOperation(page));

  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Scanward API',
      version,
      license: { name: 'MIT', identifier: 'MIT' },
      // Self-hosted: whoever runs the installation answers for its access, limits and data.
      contact: { name: 'The operator of this Scanward installation' },
      description:
        'Self-hosted vulnerability scanning and compliance. Every error has the shape `{detail, error_code, field?}` ' +
        'with `Content-Type: application/json`. Every answer to a request counted against the organization ' +
        'rate carries `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset`: successes, and errors ' +
        'after authentication (403, 404, 409, 422, 429 …); a 401 of failed authentication comes before the count ' +
        'and carries none. Access, limits and data are a matter for the operator of this installation.',
    },
    tags: tagList(routes, pages, tags),
    servers: [{ url: '/', description: 'This server; business endpoints live under /api/v1' }],
  });
}
