import type { Db } from '../db/index.ts';
import { AppError } from '../errors.ts';
import { recordAuditEvent } from '../identity/audit.ts';
import { newId } from '../identity/ids.ts';
import { ciAudienceOf } from './ci-audience.ts';
import type { Principal } from '../policies/principal.ts';
import type { Config } from '../config.ts';
import { Permission, pageOf, type PageOf } from '../schemas/common.ts';
import {
  CI_CLAIMS,
  GITHUB_ACTIONS_ISSUER,
  type CiClaim,
  type CiTrustPolicy,
  type CiTrustPolicyCreate,
} from '../schemas/ci-trust.ts';
import {
  countCiTrustPolicies,
  deleteCiTrustPolicy,
  findCiTrustPolicy,
  insertCiTrustPolicy,
  listCiTrustPolicies,
  type CiTrustPolicyRow,
  type CiTrustPolicyWithCreator,
} from './ci-trust-policies.repository.ts';

/**
 * Trust policies of keyless CI sign-in (docs/ci-trust.md): which CI identities an
 * organization lets exchange their ID token for a short-lived access token, and with which
 * permissions. Managed by admins; the token exchange reads them (ci-exchange.ts).
 */

/** The issuers a policy may name: GitHub Actions' and those the operator lists. */
export function allowedIssuers(config: Config): string[] {
  return [GITHUB_ACTIONS_ISSUER, ...config.ciOidcIssuers.filter((i) => i !== GITHUB_ACTIONS_ISSUER)];
}

/** Permissions in the order the spec lists them. */
function canonical(permissions: readonly Permission[]): Permission[] {
  return Permission.options.filter((p) => permissions.includes(p));
}

function present(row: CiTrustPolicyWithCreator): CiTrustPolicy {
  return {
    id: row.id,
    name: row.name,
    issuer: row.issuer,
    audience: row.audience,
    conditions: row.conditions,
    permissions: canonical(row.permissions),
    allow_forks: row.allow_forks,
    created_by: { id: row.created_by, email: row.created_by_email },
    created_at: row.created_at.toISOString(),
  };
}

export async function createCiTrustPolicy(
  db: Db,
  config: Config,
  caller: Principal,
  input: CiTrustPolicyCreate,
  requestOrigin: string,
  ip?: string,
  now = new Date(),
): Promise<CiTrustPolicy> {
  const issuer = input.issuer ?? GITHUB_ACTIONS_ISSUER;
  if (!allowedIssuers(config).includes(issuer)) {
    throw new AppError(
      422,
      'VALIDATION_ERROR',
      'the issuer is not allowed: the operator lists the issuers besides GitHub Actions in SCANWARD_CI_OIDC_ISSUERS',
      'issuer',
    );
  }
  const conditions: Record<string, string> = {};
  for (const claim of CI_CLAIMS) {
    const value = input.conditions[claim];
    if (value !== undefined) conditions[claim] = value;
  }
  // The organization's own audience, minted by the service: a policy cannot name another.
  const audience = await ciAudienceOf(db, config, caller.org.id, requestOrigin);
  if (input.audience !== undefined && input.audience !== audience) {
    throw new AppError(
      422,
      'VALIDATION_ERROR',
      `audience: must be the organization's audience, ${audience} (GET /api/v1/ci-trust/audience), or left out`,
      'audience',
    );
  }
  const id = newId('citp');
  const permissions = canonical(input.permissions);
  await insertCiTrustPolicy(db, {
    id,
    org_id: caller.org.id,
    name: input.name,
    issuer,
    audience,
    conditions,
    permissions,
    allow_forks: input.allow_forks,
    created_by: caller.user.id,
    created_at: now,
  });
  await recordAuditEvent(
    db,
    {
      orgId: caller.org.id,
      action: 'ci_trust.created',
      actor: caller.user,
      ip,
      details: {
        policy_id: id,
        name: input.name,
        issuer,
        audience,
        conditions: JSON.stringify(conditions),
        permissions: permissions.join(' '),
        allow_forks: String(input.allow_forks),
      },
    },
    now,
  );
  const created = await findCiTrustPolicy(db, caller.org.id, id);
  return present(created!);
}

export async function listCiTrust(
  db: Db,
  orgId: string,
  page: number,
  perPage: number,
): Promise<PageOf<CiTrustPolicy>> {
  const total = await countCiTrustPolicies(db, orgId);
  const rows = await listCiTrustPolicies(db, orgId, { limit: perPage, offset: (page - 1) * perPage });
  return pageOf(rows.map(present), total, page, perPage);
}

/** Deletes a policy: its access tokens stop working on their next request. False when there is none. */
export async function removeCiTrustPolicy(
  db: Db,
  caller: Principal,
  policyId: string,
  ip?: string,
  now = new Date(),
): Promise<boolean> {
  const policy = await findCiTrustPolicy(db, caller.org.id, policyId);
  const removed = policy !== undefined && (await deleteCiTrustPolicy(db, caller.org.id, policyId, now));
  if (removed) {
    await recordAuditEvent(
      db,
      {
        orgId: caller.org.id,
        action: 'ci_trust.deleted',
        actor: caller.user,
        ip,
        details: {
          policy_id: policyId,
          name: policy.name,
          issuer: policy.issuer,
          conditions: JSON.stringify(policy.conditions),
          permissions: canonical(policy.permissions).join(' '),
        },
      },
      now,
    );
  }
  return removed;
}

// ---- Matching ----

/**
 * A policy's glob: `*` any characters but `/`, `**` any characters, `?` one character but
 * `/`; everything else literal. The whole value must match. No other syntax (no braces,
 * classes or negation), so a pattern reads the same to everyone.
 */
export function globMatches(pattern: string, value: string): boolean {
  let source = '^';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') {
      if (pattern[i + 1] === '*') {
        source += '.*';
        i++;
      } else source += '[^/]*';
    } else if (c === '?') source += '[^/]';
    else source += c.replace(/[\\^$.|+()[\]{}]/g, '\\$&');
  }
  return new RegExp(`${source}$`, 's').test(value);
}

/** The claims a policy reads, taken from a GitHub token as they are and from a GitLab token by their GitLab names. */
export type CiIdentity = Partial<Record<CiClaim, string>> & { sub?: string };

export function identityOf(claims: Record<string, unknown>): CiIdentity {
  const text = (name: string) => (typeof claims[name] === 'string' ? (claims[name] as string) : undefined);
  const identity: CiIdentity = {};
  for (const claim of CI_CLAIMS) {
    const value = text(claim);
    if (value !== undefined) identity[claim] = value;
  }
  // GitLab names them otherwise (docs/ci-trust.md, "GitLab").
  if (identity.repository === undefined && text('project_path')) identity.repository = text('project_path');
  if (identity.repository_owner === undefined && text('namespace_path'))
    identity.repository_owner = text('namespace_path');
  if (identity.event_name === undefined && text('pipeline_source'))
    identity.event_name = text('pipeline_source');
  if (identity.ref !== undefined && !identity.ref.startsWith('refs/')) {
    const type = text('ref_type');
    if (type === 'branch') identity.ref = `refs/heads/${identity.ref}`;
    else if (type === 'tag') identity.ref = `refs/tags/${identity.ref}`;
  }
  if (identity.job_workflow_ref === undefined && text('ci_config_ref_uri'))
    identity.job_workflow_ref = text('ci_config_ref_uri');
  const sub = text('sub');
  if (sub !== undefined) identity.sub = sub;
  return identity;
}

/**
 * Events whose runs may execute a fork's code with the base repository's identity: GitHub
 * names the base repository in `repository` and does not say whether the code came from a
 * fork, so these never match a policy without `allow_forks` (docs/ci-trust.md, "Forks").
 */
export const FORK_CAPABLE_EVENTS: readonly string[] = ['pull_request_target', 'workflow_run'];

export function mayBeFork(identity: CiIdentity): boolean {
  return identity.event_name !== undefined && FORK_CAPABLE_EVENTS.includes(identity.event_name);
}

/** Why a policy does not match the identity, or undefined when it matches. */
export function mismatch(policy: CiTrustPolicyRow, identity: CiIdentity): string | undefined {
  for (const claim of CI_CLAIMS) {
    const pattern = policy.conditions[claim];
    if (pattern === undefined) continue;
    const value = identity[claim];
    if (value === undefined) return `the token has no ${claim} claim`;
    if (!globMatches(pattern, value)) return `${claim} does not match`;
  }
  if (!policy.allow_forks && mayBeFork(identity)) {
    return `a ${identity.event_name} run may execute a fork's code and the policy does not allow forks`;
  }
  return undefined;
}
