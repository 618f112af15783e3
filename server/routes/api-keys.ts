import { createApiKey, listApiKeys, revokeApiKey } from '../auth/api-keys.ts';
import { assertKeyWithinRole } from '../policies/api-keys.ts';
import type { Principal } from '../policies/principal.ts';
import { defineRoute } from '../http/contract.ts';
import { notFound, planUpgradeRequired } from '../errors.ts';
import { planAllows } from '../identity/plans.ts';
import { ApiKeyCreate, ApiKeyCreated, ApiKeyIdParams, ApiKeyList, Revoked } from '../schemas/auth.ts';
import { PaginationQuery } from '../schemas/common.ts';

/**
 * API keys, managed with a bearer token: an admin manages every key of the
 * organization, a member their own (the policy's ownership rule); a key never
 * exceeds its creator's role. Professional and enterprise plans only.
 */

const tags = ['API keys'];
const ACCESS = { bearerOnly: true, roles: ['admin', 'member'] } as const;
const ERRORS = ['INSUFFICIENT_PERMISSION', 'PLAN_UPGRADE_REQUIRED'] as const;

function assertPlan(principal: Principal): void {
  if (!planAllows(principal.org.plan, 'api_keys')) throw planUpgradeRequired('API keys');
}

export const postApiKey = defineRoute({
  method: 'post',
  path: '/api/v1/api-keys',
  operationId: 'createApiKey',
  summary: 'Create an API key',
  description:
    'The answer carries `key`, the secret, which is never shown again. The key acts as the user who ' +
    'created it, limited to its permissions.',
  tags,
  access: ACCESS,
  body: ApiKeyCreate,
  responses: { 201: { description: 'The key, with its secret', schema: ApiKeyCreated } },
  errors: [...ERRORS],
  handler: async ({ principal, body, services }) => {
    assertPlan(principal);
    assertKeyWithinRole(principal.user.role, body.permissions);
    const created = await createApiKey(
      services.db,
      { orgId: principal.org.id, userId: principal.user.id, email: principal.user.email },
      {
        name: body.name,
        permissions: body.permissions,
        expiresAt: body.expires_at ? new Date(body.expires_at) : null,
      },
    );
    return { status: 201, body: created };
  },
});

export const getApiKeys = defineRoute({
  method: 'get',
  path: '/api/v1/api-keys',
  operationId: 'listApiKeys',
  summary: "List the organization's API keys (never their secrets)",
  description:
    'An admin sees every key of the organization, a member their own. Revoked keys are not listed; expired ones are, with their `expires_at`.',
  tags,
  access: ACCESS,
  query: PaginationQuery,
  responses: { 200: { description: 'API keys, newest first', schema: ApiKeyList } },
  errors: [...ERRORS],
  handler: async ({ principal, query, services }) => {
    assertPlan(principal);
    return { body: await listApiKeys(services.db, principal, query.page, query.per_page) };
  },
});

export const deleteApiKey = defineRoute({
  method: 'delete',
  path: '/api/v1/api-keys/{key_id}',
  operationId: 'revokeApiKey',
  summary: 'Revoke an API key',
  description: 'The key stops working at once (INVALID_API_KEY).',
  tags,
  access: ACCESS,
  params: ApiKeyIdParams,
  responses: { 200: { description: 'The key is revoked', schema: Revoked } },
  errors: [...ERRORS, 'NOT_FOUND'],
  handler: async ({ principal, params, services }) => {
    assertPlan(principal);
    if (!(await revokeApiKey(services.db, principal, params.key_id))) throw notFound('API key');
    return { body: { id: params.key_id, revoked: true as const } };
  },
});

export const apiKeyRoutes = [postApiKey, getApiKeys, deleteApiKey];
