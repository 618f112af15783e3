import { z } from 'zod';

const Days = z
  .number({ error: 'must be a whole number of days' })
  .int({ error: 'must be a whole number of days' })
  .min(1, { error: 'must be at least 1' })
  .max(3650, { error: 'must be at most 3650' });

const slaDays = {
  critical: Days.meta({ example: 7 }),
  high: Days.meta({ example: 30 }),
  medium: Days.meta({ example: 90 }),
  low: Days.meta({ example: 180 }),
};

/**
 * The triage policy (Settings → Triage policy): days from detection to the due date, by severity
 * (informational findings have no due date), and whether a justification is required.
 */
export const SlaPolicy = z
  .object({
    ...slaDays,
    require_justification: z.boolean().meta({
      description:
        'Whether a move to `accepted` or `false_positive` needs a justification (`justification`, or `notes` ' +
        'standing for it); false (the default): it is optional, as every field of a finding update is',
    }),
  })
  .meta({ id: 'SlaPolicy' });
export type SlaPolicy = z.infer<typeof SlaPolicy>;

/**
 * PUT /settings/sla: every severity's days; `require_justification` kept when absent; whether open
 * findings take the new days too (`apply_to_open`).
 */
export const SlaPolicyChange = z
  .object({
    ...slaDays,
    require_justification: z
      .boolean({ error: 'must be true or false' })
      .optional()
      .meta({
        description:
          'Require a justification for `accepted` and `false_positive` (422 `VALIDATION_ERROR` on `justification` ' +
          'without one); absent: unchanged',
      }),
    apply_to_open: z.boolean({ error: 'must be true or false' }).optional().meta({
      description:
        '`true`: also move the due date of every `open` and `in_progress` finding to detection plus the new days for its severity, except dates a person set (`PATCH` with `due_date`). `false` or absent: the change applies to findings detected from now on',
    }),
  })
  .meta({ id: 'SlaPolicyChange' });
export type SlaPolicyChange = z.infer<typeof SlaPolicyChange>;

/** The answer of PUT /settings/sla: the policy now in force, and what `apply_to_open` changed. */
export const SlaPolicyChanged = SlaPolicy.extend({
  open_findings_updated: z.number().int().min(0).optional().meta({
    description: 'With `apply_to_open: true`: how many open findings’ due dates moved',
    example: 12,
  }),
}).meta({ id: 'SlaPolicyChanged' });

/** How the organization's people sign in (docs/authentication.md, "Single sign-on"). */
export const AuthenticationSettings = z
  .object({
    password_login: z.boolean().meta({
      description:
        'Whether e-mail and password log-in works for this organization; false: single sign-on only ' +
        '(password log-ins answer 403 PASSWORD_LOGIN_DISABLED)',
    }),
    sso_configured: z
      .boolean()
      .meta({ description: 'Whether this instance has an OpenID Connect provider (SCANWARD_OIDC_ISSUER)' }),
    sso_enabled: z.boolean().meta({
      description:
        'Whether single sign-on signs people in to this organization (false: SSO refuses its people, whatever the provider says)',
    }),
    sso_domains: z.array(z.string()).meta({
      description:
        'The e-mail domains SSO covers: only addresses at one of them (or a subdomain) sign in with SSO',
      example: ['acme.example'],
    }),
    sso_trusts_idp_mfa: z.boolean().meta({
      description:
        "Whether the provider's MFA stands in for the local one: when its ID token's `amr` says `mfa`, `otp` or " +
        '`hwk`, a user with local MFA is not asked for their code after SSO',
    }),
  })
  .meta({ id: 'AuthenticationSettings' });
export type AuthenticationSettings = z.infer<typeof AuthenticationSettings>;

/** An e-mail domain, lower-cased: labels of letters, digits and hyphens, at least two. */
export const EmailDomain = z
  .string()
  .trim()
  .toLowerCase()
  .max(253, { error: 'must be at most 253 characters' })
  .regex(/^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, {
    error: 'must be a domain name, e.g. acme.example',
  });

export const AuthenticationSettingsChange = z
  .object({
    password_login: z.boolean({ error: 'must be true or false' }).optional().meta({
      description: 'false: single sign-on only (needs `sso_enabled`)',
    }),
    sso_enabled: z.boolean({ error: 'must be true or false' }).optional().meta({
      description: 'Turn single sign-on on or off for the organization (on needs at least one domain)',
    }),
    sso_domains: z
      .array(EmailDomain)
      .max(50, { error: 'must list at most 50 domains' })
      .refine((list) => new Set(list).size === list.length, { error: 'must not repeat a domain' })
      .optional()
      .meta({ description: "The organization's e-mail domains; replaces the list", uniqueItems: true }),
    sso_trusts_idp_mfa: z.boolean({ error: 'must be true or false' }).optional().meta({
      description: "Whether the provider's MFA (`amr`: mfa, otp or hwk) stands in for the local MFA",
    }),
  })
  .strict()
  .meta({
    id: 'AuthenticationSettingsChange',
    description: 'The settings to change; those left out stay as they are',
  });
export type AuthenticationSettingsChange = z.infer<typeof AuthenticationSettingsChange>;

/** What the sign-in page needs to know before anyone signs in. */
export const SignInMethods = z
  .object({
    password: z.literal(true).meta({
      description:
        'E-mail and password log-in exists on the instance (an organization may still have switched it off)',
    }),
    sso: z
      .object({
        login_url: z.string().meta({
          description: 'Where the browser goes to sign in with the OpenID Connect provider',
          example: '/api/v1/auth/oidc/login',
        }),
      })
      .nullable()
      .meta({ description: 'Single sign-on, when the instance has an OpenID Connect provider; else null' }),
  })
  .meta({ id: 'SignInMethods' });
