import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { ErrorResponse } from '../schemas/common.ts';
import { errorStatus, type AnyRoute, type ErrorCode } from './contract.ts';

/** Errors every authenticated route can answer with. */
const AUTHENTICATED_ERRORS: ErrorCode[] = [
  'AUTHENTICATION_REQUIRED',
  'TOKEN_EXPIRED',
  'INVALID_TOKEN',
  'INVALID_API_KEY',
  'INSUFFICIENT_PERMISSION',
  'RATE_LIMIT_EXCEEDED',
];

function errorsOf(route: AnyRoute): ErrorCode[] {
  const codes = new Set<ErrorCode>(route.errors ?? []);
  if (!route.access.public) for (const c of AUTHENTICATED_ERRORS) codes.add(c);
  if (route.params || route.query || route.body || route.headers) codes.add('VALIDATION_ERROR');
  if (route.body) for (const c of ['BAD_REQUEST', 'PAYLOAD_TOO_LARGE'] as const) codes.add(c);
  codes.add('INTERNAL_ERROR');
  return [...codes];
}

/** The OpenAPI 3.1 document of the given routes, generated from their declarations. */
export function buildOpenApiDocument(routes: AnyRoute[], version: string) {
  const registry = new OpenAPIRegistry();
  registry.register('Error', ErrorResponse);
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

  for (const route of routes) {
    const responses: Record<string, unknown> = {};
    for (const [status, spec] of Object.entries(route.responses)) {
      const content: Record<string, { schema: z.ZodType }> = {};
      if (spec.schema) content['application/json'] = { schema: spec.schema };
      for (const type of spec.contentTypes ?? []) content[type] = { schema: z.string() };
      responses[status] = {
        description: spec.description,
        ...(Object.keys(content).length ? { content } : {}),
      };
    }
    const byStatus = new Map<number, ErrorCode[]>();
    for (const code of errorsOf(route)) {
      const status = errorStatus[code];
      byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
    }
    for (const [status, codes] of byStatus) {
      if (responses[status]) continue;
      responses[status] = {
        description: `Error: ${codes.join(', ')}`,
        content: { 'application/json': { schema: ErrorResponse } },
      };
    }
    const security: Record<string, string[]>[] = route.access.public
      ? []
      : route.access.bearerOnly
        ? [{ bearerAuth: [] }]
        : [{ bearerAuth: [] }, { apiKeyAuth: [] }];
    const permissionNote =
      !route.access.public && route.access.permission
        ? `\n\nAPI key permission: \`${route.access.permission}\`.`
        : '';
    const bearerNote = route.access.bearerOnly ? '\n\nBearer tokens only (API keys are refused).' : '';
    const adminNote = route.access.admin ? '\n\nNeeds the admin role.' : '';
    registry.registerPath({
      method: route.method,
      path: route.path,
      operationId: route.operationId,
      summary: route.summary,
      description: `${route.description ?? ''}${permissionNote}${bearerNote}${adminNote}`.trim() || undefined,
      tags: route.tags,
      security,
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
      },
      responses: responses as never,
    });
  }

  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Scanward API',
      version,
      description:
        'Self-hosted vulnerability scanning and compliance. Every error has the shape `{detail, error_code, field?}`.',
    },
    servers: [{ url: '/', description: 'This server; business endpoints live under /api/v1' }],
  });
}
