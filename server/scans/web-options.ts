import { createHmac } from 'node:crypto';
import { openSecret, sealSecret } from '../auth/keys.ts';
import { validationError } from '../errors.ts';
import type { ScanType } from '../schemas/scans.ts';
import type { FormAuthentication, WebTestingOptions } from '../schemas/web-testing.ts';
import { phasesOf } from './phases.ts';
import { loginUrlProblem, webTestingView, type WebTestingView } from '../schemas/web-testing-view.ts';

/**
 * The `web` options of a scan or schedule at rest (docs/web-testing.md, "Secrets"). The
 * secrets (a form log-in's password, every header value) are sealed with the service's
 * encryption key exactly as webhook secrets are (`sealSecret`, server/auth/keys.ts), under
 * names that say so; everything else is kept as sent. Only the runner opens them, in memory,
 * to hand them to the engine (server/scanner/runner.ts).
 */

type StoredFormAuthentication = Omit<FormAuthentication, 'password'> & { sealed_password: string };
interface StoredHeaderAuthentication {
  type: 'headers';
  /** Header name → sealed value. */
  sealed_headers: Record<string, string>;
}

export interface StoredWebOptions {
  active: boolean;
  exclude_paths: string[];
  authentication?: StoredFormAuthentication | StoredHeaderAuthentication;
}

export function sealWebOptions(key: Buffer, web: WebTestingOptions): StoredWebOptions {
  const auth = web.authentication;
  return {
    active: web.active,
    exclude_paths: [...web.exclude_paths],
    ...(auth === undefined
      ? {}
      : auth.type === 'form'
        ? {
            authentication: (({ password, ...rest }) => ({
              ...rest,
              sealed_password: sealSecret(key, password),
            }))(auth),
          }
        : {
            authentication: {
              type: 'headers' as const,
              sealed_headers: Object.fromEntries(
                Object.entries(auth.headers).map(([name, value]) => [name, sealSecret(key, value)]),
              ),
            },
          }),
  };
}

/** The options in clear, for the engine only: never answered, logged or put in an event. */
export function openWebOptions(key: Buffer, stored: StoredWebOptions): WebTestingOptions {
  const auth = stored.authentication;
  return {
    active: stored.active,
    exclude_paths: [...stored.exclude_paths],
    ...(auth === undefined
      ? {}
      : auth.type === 'form'
        ? {
            authentication: (({ sealed_password, ...rest }) => ({
              ...rest,
              password: openSecret(key, sealed_password),
            }))(auth),
          }
        : {
            authentication: {
              type: 'headers' as const,
              headers: Object.fromEntries(
                Object.entries(auth.sealed_headers).map(([name, value]) => [name, openSecret(key, value)]),
              ),
            },
          }),
  };
}

/** What an answer shows of stored options: no secret, sealed or not. */
export function presentWebOptions(stored: StoredWebOptions): WebTestingView {
  const auth = stored.authentication;
  return webTestingView({
    active: stored.active,
    exclude_paths: stored.exclude_paths,
    ...(auth === undefined
      ? {}
      : auth.type === 'form'
        ? { authentication: (({ sealed_password: _, ...rest }) => ({ ...rest, password: '' }))(auth) }
        : {
            authentication: {
              type: 'headers' as const,
              headers: Object.fromEntries(Object.keys(auth.sealed_headers).map((name) => [name, ''])),
            },
          }),
  });
}

/**
 * The options with each secret replaced by its HMAC under the encryption key: what the
 * Idempotency-Key fingerprint of a request is computed over, so the stored fingerprint is
 * no unsalted hash of a password (a repeat with the same secrets still matches).
 */
export function fingerprintableWebOptions(key: Buffer, web: WebTestingOptions): WebTestingOptions {
  const mac = (secret: string) => createHmac('sha256', key).update(secret).digest('base64url');
  const auth = web.authentication;
  if (auth === undefined) return web;
  return {
    ...web,
    authentication:
      auth.type === 'form'
        ? { ...auth, password: mac(auth.password) }
        : {
            ...auth,
            headers: Object.fromEntries(Object.entries(auth.headers).map(([n, v]) => [n, mac(v)])),
          },
  };
}

/**
 * 422 naming the field when the web options cannot work on this scan: the log-in page not on
 * the scan's target (`web.authentication.login_url`), or attack checks asked of a quick scan,
 * which runs no web analysis phase (`web.active`; scans/phases.ts).
 */
export function assertWebOptionsFit(
  target: string,
  scanType: ScanType,
  web: WebTestingOptions | undefined,
): void {
  if (web?.active && !phasesOf(scanType).includes('web_analysis')) {
    throw validationError(
      'web.active',
      `web.active: attack checks run in the web analysis phase, which ${scanType} scans skip; use scan_type full or compliance`,
    );
  }
  const problem = loginUrlProblem(target, web);
  if (problem) {
    throw validationError('web.authentication.login_url', `web.authentication.login_url: ${problem}`);
  }
}
