import { ciAudienceOf, publishedCiAudience } from '../auth/ci-audience.ts';
import { createCiTrustPolicy, listCiTrust, removeCiTrustPolicy } from '../auth/ci-trust.ts';
import { resolvePrincipal } from '../auth/gatekeeper.ts';
import { notFound, planUpgradeRequired } from '../errors.ts';
import { defineRoute } from '../http/contract.ts';
import type { Principal } from '../policies/principal.ts';
import { planAllows } from '../identity/plans.ts';
import { Revoked } from '../schemas/auth.ts';
import {
  CiAudience,
  CiAudienceQuery,
  CiTrustPolicy,
  CiTrustPolicyCreate,
  CiTrustPolicyIdParams,
  CiTrustPolicyList,
} from '../schemas/ci-trust.ts';
import { PaginationQuery } from '../schemas/common.ts';

/**
 * Keyless CI sign-in (docs/ci-trust.md): an admin's trust policies, and the exchange of a CI
 * provider's ID token for a short-lived access token. Policies are managed with a bearer token
 * only: no API key or CI token can grant itself new trust. Professional and enterprise plans,
 * as API keys.
 */

const tags = ['CI trust'];
const ACCESS = { admin: true, bearerOnly: true } as const;
const ERRORS = ['INSUFFICIENT_PERMISSION', 'PLAN_UPGRADE_REQUIRED'] as const;

function assertPlan(principal: Principal): void {
  if (!planAllows(principal.org.plan, 'api_keys')) throw planUpgradeRequired('CI trust policies');
}

export const postCiTrust = defineRoute({
  method: 'post',
  path: '/api/v1/ci-trust',
  operationId: 'createCiTrustPolicy',
  summary: 'Trust a CI identity: create a trust policy',
  description:
    'ID tokens of `issuer` carrying `audience` whose claims meet every condition can be exchanged ' +
    '(POST /api/v1/auth/ci-token) for an access token with `permissions`, acting as the admin who ' +
    'created the policy.',
  tags,
  access: ACCESS,
  body: CiTrustPolicyCreate,
  responses: { 201: { description: 'The policy', schema: CiTrustPolicy } },
  errors: [...ERRORS],
  handler: async ({ principal, body, services, ctx }) => {
    assertPlan(principal);
    return {
      status: 201,
      body: await createCiTrustPolicy(
        services.db,
        services.config,
        principal,
        body,
        `${ctx.protocol}://${ctx.host}`,
        ctx.ip,
      ),
    };
  },
});

export const getCiTrust = defineRoute({
  method: 'get',
  path: '/api/v1/ci-trust',
  operationId: 'listCiTrustPolicies',
  summary: "List the organization's trust policies",
  tags,
  access: ACCESS,
  query: PaginationQuery,
  responses: { 200: { description: 'Trust policies, newest first', schema: CiTrustPolicyList } },
  errors: [...ERRORS],
  handler: async ({ principal, query, services }) => {
    assertPlan(principal);
    return { body: await listCiTrust(services.db, principal.org.id, query.page, query.per_page) };
  },
});

export const deleteCiTrust = defineRoute({
  method: 'delete',
  path: '/api/v1/ci-trust/{policy_id}',
  operationId: 'deleteCiTrustPolicy',
  summary: 'Delete a trust policy',
  description: 'Access tokens exchanged under it stop working at once (INVALID_TOKEN).',
  tags,
  access: ACCESS,
  params: CiTrustPolicyIdParams,
  responses: { 200: { description: 'The policy is deleted', schema: Revoked } },
  errors: [...ERRORS, 'NOT_FOUND'],
  handler: async ({ principal, params, services, ctx }) => {
    assertPlan(principal);
    if (!(await removeCiTrustPolicy(services.db, principal, params.policy_id, ctx.ip)))
      throw notFound('trust policy');
    return { body: { id: params.policy_id, revoked: true as const } };
  },
});

export const getCiAudience = defineRoute({
  method: 'get',
  path: '/api/v1/ci-trust/audience',
  operationId: 'getCiAudience',
  summary: "The organization's audience: the `aud` its CI jobs' ID tokens must carry",
  description:
    'Every organization has one audience, minted by the service (`<SCANWARD_PUBLIC_URL>/ci/<organization id>`); ' +
    'its trust policies carry it, and an ID token addressed to it is matched against its policies only. With ' +
    "credentials, the caller's organization. With `organization_id` and no credentials needed, any " +
    "organization's (an audience is not a secret): how the GitHub Action and `scanward-ci` learn it before " +
    'they have a token. An unknown id answers the audience such an organization would have.',
  tags,
  access: { public: true },
  query: CiAudienceQuery,
  responses: { 200: { description: 'The audience', schema: CiAudience } },
  errors: ['AUTHENTICATION_REQUIRED', 'INVALID_TOKEN', 'INVALID_API_KEY'],
  handler: async ({ query, services, ctx }) => {
    const origin = `${ctx.protocol}://${ctx.host}`;
    if (query.organization_id !== undefined) {
      return {
        body: {
          audience: await publishedCiAudience(services.db, services.config, query.organization_id, origin),
        },
      };
    }
    const principal = await resolvePrincipal(ctx, { allowBasic: false });
    return { body: { audience: await ciAudienceOf(services.db, services.config, principal.org.id, origin) } };
  },
});

export const ciTrustRoutes = [getCiAudience, postCiTrust, getCiTrust, deleteCiTrust];
