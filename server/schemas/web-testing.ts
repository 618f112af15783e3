import { z } from 'zod';

/**
 * The web application part of a scan request (issue 33): whether attack checks run, how the
 * scanner signs in, and what it must never request. Pure zod, shared by the API (scans and
 * schedules), the Action, `scanward-ci` and the local engine.
 *
 * Secrets (`password`, header values) are write-only: the service seals them at rest and never
 * answers them; the engine receives them in clear, in memory only.
 */

const LoginPattern = z
  .string()
  .min(1)
  .max(500, { error: 'must be at most 500 characters' })
  .meta({ description: 'A regular expression (JavaScript syntax) tested against a page body.' });

export const FormAuthentication = z
  .object({
    type: z.literal('form'),
    login_url: z.url({ error: 'must be an http(s) URL', protocol: /^https?$/ }).meta({
      description: 'The page that shows the log-in form (same origin as the scan target).',
    }),
    username: z.string().min(1).max(500).meta({ description: 'The user name to sign in with.' }),
    password: z
      .string()
      .min(1)
      .max(1000)
      .meta({ description: 'The password. Write-only: sealed at rest, never answered.', writeOnly: true }),
    username_field: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .meta({ description: 'Name of the user-name field when it cannot be told by its type and name.' }),
    password_field: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .meta({ description: 'Name of the password field when the form has more than one.' }),
    logged_in_pattern: LoginPattern.optional().meta({
      description: 'Matches a page only a signed-in user sees; by default, the log-in form no longer shown.',
    }),
    logged_out_pattern: LoginPattern.optional().meta({
      description: 'Matches a page that means the session was lost (besides a redirect to the log-in page).',
    }),
  })
  .strict()
  .meta({ id: 'WebFormAuthentication', description: 'Sign in through an HTML log-in form.' });
export type FormAuthentication = z.infer<typeof FormAuthentication>;

export const HeaderAuthentication = z
  .object({
    type: z.literal('headers'),
    headers: z
      .record(
        z
          .string()
          .min(1)
          .max(200)
          .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, { error: 'must be an HTTP header name' }),
        z.string().max(8000),
      )
      .meta({
        description:
          'Headers sent with every request, e.g. Cookie or Authorization. Write-only: values are never answered.',
        writeOnly: true,
      }),
  })
  .strict()
  .meta({ id: 'WebHeaderAuthentication', description: 'Sign in by sending fixed headers.' });
export type HeaderAuthentication = z.infer<typeof HeaderAuthentication>;

export const WebAuthentication = z
  .discriminatedUnion('type', [FormAuthentication, HeaderAuthentication])
  .meta({ id: 'WebAuthentication' });
export type WebAuthentication = z.infer<typeof WebAuthentication>;

export const WebTestingOptions = z
  .object({
    active: z.boolean().default(false).meta({
      description:
        'Run attack checks (SQL injection, XSS, command injection, …) against every crawled parameter. Off by default: they submit forms and may write data (docs/web-testing.md).',
    }),
    authentication: WebAuthentication.optional(),
    exclude_paths: z
      .array(z.string().min(1).max(500))
      .max(100)
      .default([])
      .meta({ description: 'Paths never requested: prefixes (`/admin`) or globs (`/api/*/delete`).' }),
  })
  .strict()
  .meta({ id: 'WebTestingOptions' });
export type WebTestingOptions = z.output<typeof WebTestingOptions>;
