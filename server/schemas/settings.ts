import { z } from 'zod';

const Days = z
  .number({ error: 'must be a whole number of days' })
  .int({ error: 'must be a whole number of days' })
  .min(1, { error: 'must be at least 1' })
  .max(3650, { error: 'must be at most 3650' });

/** Days from detection to the due date, by severity (informational findings have no due date). */
export const SlaPolicy = z
  .object({
    critical: Days.meta({ example: 7 }),
    high: Days.meta({ example: 30 }),
    medium: Days.meta({ example: 90 }),
    low: Days.meta({ example: 180 }),
  })
  .strict()
  .meta({ id: 'SlaPolicy' });
export type SlaPolicy = z.infer<typeof SlaPolicy>;

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
