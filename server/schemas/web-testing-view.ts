import { z } from 'zod';
import type { WebTestingOptions } from './web-testing.ts';

/**
 * How the service answers a scan's or a schedule's `web` options (docs/web-testing.md,
 * "Secrets"): everything that was sent except the secrets. A form log-in shows
 * `has_password: true` instead of its password; header authentication shows the header names
 * (`header_names`) and never a value. Pure zod, shared with the Action and the console.
 */

export const WebFormAuthenticationView = z
  .object({
    type: z.literal('form'),
    login_url: z.string(),
    username: z.string(),
    has_password: z
      .literal(true)
      .meta({ description: 'A password is stored (sealed); it is never answered.' }),
    username_field: z.string().optional(),
    password_field: z.string().optional(),
    logged_in_pattern: z.string().optional(),
    logged_out_pattern: z.string().optional(),
  })
  .meta({ id: 'WebFormAuthenticationView', description: 'A form log-in, without its password.' });

export const WebHeaderAuthenticationView = z
  .object({
    type: z.literal('headers'),
    header_names: z.array(z.string()).meta({
      description: 'The names of the headers sent, sorted; their values are sealed and never answered.',
    }),
  })
  .meta({ id: 'WebHeaderAuthenticationView', description: 'Header authentication, names only.' });

export const WebTestingView = z
  .object({
    active: z.boolean(),
    authentication: z
      .discriminatedUnion('type', [WebFormAuthenticationView, WebHeaderAuthenticationView])
      .nullable()
      .meta({ description: 'How the scanner signs in; null when it does not.' }),
    exclude_paths: z.array(z.string()),
  })
  .meta({
    id: 'WebTestingView',
    description: 'The web application options of a scan or schedule, without their secrets.',
  });
export type WebTestingView = z.infer<typeof WebTestingView>;

/** The answer's view of web options: the secrets left out. */
export function webTestingView(web: WebTestingOptions): WebTestingView {
  const auth = web.authentication;
  return {
    active: web.active,
    authentication:
      auth === undefined
        ? null
        : auth.type === 'form'
          ? {
              type: 'form',
              login_url: auth.login_url,
              username: auth.username,
              has_password: true,
              ...(auth.username_field !== undefined ? { username_field: auth.username_field } : {}),
              ...(auth.password_field !== undefined ? { password_field: auth.password_field } : {}),
              ...(auth.logged_in_pattern !== undefined ? { logged_in_pattern: auth.logged_in_pattern } : {}),
              ...(auth.logged_out_pattern !== undefined
                ? { logged_out_pattern: auth.logged_out_pattern }
                : {}),
            }
          : { type: 'headers', header_names: Object.keys(auth.headers).sort((a, b) => a.localeCompare(b)) },
    exclude_paths: [...web.exclude_paths],
  };
}

/** `[::1]` → `::1`, lower case, no trailing dot. */
function bareHost(host: string): string {
  return host
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
}

/**
 * Why a form log-in's `login_url` is not on the scan's target, or undefined when it is. The
 * target is a host (a service scan: any port of it) or an `http(s)://host:port` URL (a local
 * scan: exactly that origin). A range has no one origin, so a form log-in needs a single host.
 */
export function loginUrlProblem(target: string, web: WebTestingOptions | undefined): string | undefined {
  const auth = web?.authentication;
  if (auth?.type !== 'form') return undefined;
  let login: URL;
  try {
    login = new URL(auth.login_url);
  } catch {
    return 'must be an http(s) URL';
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(target)) {
    let origin: string;
    try {
      origin = new URL(target).origin;
    } catch {
      return undefined; // the target itself is refused elsewhere
    }
    return login.origin === origin ? undefined : `must be on the target's origin ${origin}`;
  }
  if (target.includes('/')) return 'a form log-in needs a target of one host, not a range';
  return bareHost(login.hostname) === bareHost(target)
    ? undefined
    : `must be on the scan's target ${target} (same host)`;
}
