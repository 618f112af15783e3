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
  })
  .meta({ id: 'AuthenticationSettings' });

export const AuthenticationSettingsChange = z
  .object({
    password_login: z.boolean({ error: 'must be true or false' }),
  })
  .strict()
  .meta({ id: 'AuthenticationSettingsChange' });

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
