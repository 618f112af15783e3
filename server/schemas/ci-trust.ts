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
  .refine((c) => c.repository !== undefined || c.repository_owner !== undefined, {
    error: 'must name at least `repository` or `repository_owner`',
  })
  .meta({
    id: 'CiTrustConditions',
    description:
      'Every condition given must hold (exact value or glob: `*` any characters but `/`, `**` any ' +
      'characters, `?` one character but `/`). A claim the token lacks fails its condition.',
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
    audience: z.string().trim().min(1, { error: 'must not be empty' }).max(500).optional().meta({
      description: "The `aud` the token must carry; default SCANWARD_PUBLIC_URL (else the request's origin)",
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
    audience: z.string(),
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
          'Only when policies of several organizations sharing an audience match the token: which one to sign in to',
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
