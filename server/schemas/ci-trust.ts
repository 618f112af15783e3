import { z } from 'zod';
import { IdParam, paginated, Permission, Timestamp } from './common.ts';

/**
 * Wire shapes of keyless CI sign-in (issue 26, docs/ci-trust.md): trust policies and the
 * exchange of a CI provider's OpenID Connect ID token for a short-lived access token.
 */

/** GitHub Actions' issuer, the default of a policy. */
export const GITHUB_ACTIONS_ISSUER = 'https://token.actions.githubusercontent.com';

/** The claims a policy may put conditions on. */
export const CI_CLAIMS = [
  'repository',
  'repository_owner',
  'ref',
  'event_name',
  'environment',
  'job_workflow_ref',
] as const;
export type CiClaim = (typeof CI_CLAIMS)[number];

/** A condition: the claim's exact value, or a glob (`*` within a path segment, `**` across `/`, `?` one character). */
const Pattern = z
  .string()
  .trim()
  .min(1, { error: 'must not be empty' })
  .max(300, { error: 'must be at most 300 characters' })
  .refine((v) => !/\p{Cc}/u.test(v), { error: 'must not contain control characters' });

const GLOB = /[*?]/;

/** Whether the conditions name one owner literally: `repository_owner`, or the owner part of `repository`. */
export function pinsOwner(c: {
  repository?: string | undefined;
  repository_owner?: string | undefined;
}): boolean {
  if (c.repository_owner !== undefined && !GLOB.test(c.repository_owner)) return true;
  if (c.repository === undefined) return false;
  const slash = c.repository.indexOf('/');
  return slash > 0 && !GLOB.test(c.repository.slice(0, slash));
}

export const CiTrustConditions = z
  .object({
    repository: Pattern.optional().meta({ description: '`owner/name`, e.g. `acme/web` or `acme/*`' }),
    repository_owner: Pattern.optional().meta({ description: 'e.g. `acme`' }),
    ref: Pattern.optional().meta({ description: 'e.g. `refs/heads/main` or `refs/pull/*/merge`' }),
    event_name: Pattern.optional().meta({ description: 'e.g. `push` or `pull_request`' }),
    environment: Pattern.optional().meta({ description: 'The deployment environment of the job' }),
    job_workflow_ref: Pattern.optional().meta({
      description: 'e.g. `acme/ci/.github/workflows/scan.yml@refs/heads/main`',
    }),
  })
  .strict()
  .refine((c) => pinsOwner(c), {
    error:
      'must pin the owner: `repository_owner` as it is (no `*` or `?`), or a `repository` whose owner part ' +
      'before `/` is literal, e.g. `acme/*` (`**` and `*/*` would trust every repository of the issuer)',
  })
  .meta({
    id: 'CiTrustConditions',
    description:
      'Every condition given must hold (exact value or glob: `*` any characters but `/`, `**` any ' +
      'characters, `?` one character but `/`). A claim the token lacks fails its condition. The owner must be ' +
      'pinned: `repository_owner` literally, or `repository` with a literal owner part.',
  });
export type CiTrustConditions = z.infer<typeof CiTrustConditions>;

const PermissionList = z
  .array(Permission)
  .min(1, { error: 'must name at least one permission' })
  .max(Permission.options.length, { error: `must name at most ${Permission.options.length} permissions` })
  .refine((list) => new Set(list).size === list.length, { error: 'must not repeat a permission' })
  .meta({ uniqueItems: true });

export const CiTrustPolicyCreate = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, { error: 'is required' })
      .max(100, { error: 'must be at most 100 characters' }),
    issuer: z
      .url({ protocol: /^https$/, error: 'must be an https URL' })
      .regex(/^https:\/\//, { error: 'must be an https URL' })
      .max(500)
      .optional()
      .meta({
        description: `The OpenID issuer: an \`https\` URL (\`http\` and other schemes are refused with 422); default ${GITHUB_ACTIONS_ISSUER}. Others must be listed in SCANWARD_CI_OIDC_ISSUERS.`,
      }),
    audience: z
      .string()
      .trim()
      .min(1, { error: 'must not be empty' })
      .max(500)
      .optional()
      .meta({
        description:
          "The organization's own audience (GET /api/v1/ci-trust/audience), which is the default; any other value " +
          'is refused (422): tokens must carry it as `aud`',
      }),
    conditions: CiTrustConditions,
    permissions: PermissionList,
    allow_forks: z.boolean().default(false).meta({
      description:
        'Whether tokens of runs that may execute code from a fork (`pull_request_target`, `workflow_run`) may match',
    }),
  })
  .meta({ id: 'CiTrustPolicyCreate' });
export type CiTrustPolicyCreate = z.infer<typeof CiTrustPolicyCreate>;

export const CiTrustPolicy = z
  .object({
    id: z.string().meta({ example: 'citp_0123456789abcdefghijklmn' }),
    name: z.string(),
    issuer: z.string(),
    audience: z.string().meta({ description: "The organization's audience, which matching tokens carry" }),
    conditions: z.record(z.string(), z.string()),
    permissions: z.array(Permission),
    allow_forks: z.boolean(),
    created_by: z.object({ id: z.string(), email: z.string() }),
    created_at: Timestamp,
  })
  .meta({ id: 'CiTrustPolicy' });
export type CiTrustPolicy = z.infer<typeof CiTrustPolicy>;

export const CiTrustPolicyList = paginated(CiTrustPolicy, 'CiTrustPolicyList');

export const CiTrustPolicyIdParams = z.object({
  policy_id: IdParam('trust policy', 'citp_0123456789abcdefghijklmn'),
});

/** The audience of an organization's CI jobs' ID tokens. */
export const CiAudience = z
  .object({
    audience: z.string().meta({
      description:
        'The `aud` an ID token must carry to sign in to the organization: `<base>/ci/<organization id>`',
      example: 'https://scanward.example.com/ci/org_0123456789abcdefghijklmn',
    }),
  })
  .meta({ id: 'CiAudience' });
export type CiAudience = z.infer<typeof CiAudience>;

export const CiAudienceQuery = z
  .object({
    organization_id: z
      .string()
      .regex(/^org_[a-z0-9]{1,96}$/, { error: 'must be an organization id, org_…' })
      .optional()
      .meta({
        description:
          'The organization whose audience to tell, without credentials (a CI job before it has a token); ' +
          "left out, the caller's own organization (credentials required)",
        example: 'org_0123456789abcdefghijklmn',
      }),
  })
  .strict();

export const CiTokenRequest = z
  .object({
    id_token: z
      .string()
      .min(1, { error: 'is required' })
      .max(16_384, { error: 'must be at most 16384 characters' })
      .meta({ description: "The CI provider's OpenID Connect ID token (a JWT)" }),
    organization_id: z
      .string()
      .regex(/^[a-z0-9_]{1,100}$/)
      .optional()
      .meta({
        description:
          "Optional: the organization to sign in to. The token's audience names it already; a different id is refused (403)",
      }),
  })
  .meta({ id: 'CiTokenRequest' });

/** The longest an exchanged access token lives; it cannot be refreshed. */
export const CI_TOKEN_MAX_LIFETIME_SECONDS = 900;

export const CiTokenResponse = z
  .object({
    access_token: z.string().meta({ description: 'Send as `Authorization: Bearer …`' }),
    token_type: z.literal('bearer'),
    expires_in: z
      .number()
      .int()
      .min(1)
      .max(CI_TOKEN_MAX_LIFETIME_SECONDS)
      .meta({ description: 'Seconds until the token expires (at most 900); it cannot be refreshed' }),
    permissions: z.array(Permission).meta({ description: "The matching policy's permissions" }),
    policy_id: z.string(),
  })
  .meta({ id: 'CiToken' });
export type CiTokenResponse = z.infer<typeof CiTokenResponse>;
