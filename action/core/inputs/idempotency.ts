import { createHash, randomUUID } from 'node:crypto';
import type { WebTestingOptions } from '../../../server/schemas/web-testing.ts';
import type { InputReader } from './read.ts';

/** The CI job a run belongs to, for the default Idempotency-Key (GitHub's run, or another CI's job). */
export interface JobIdentity {
  repository?: string | undefined;
  runId?: string | undefined;
  runAttempt?: string | undefined;
  job?: string | undefined;
  step?: string | undefined;
}

/** The scan inputs, as the service names them, that make two requests the same. */
export interface IdempotentScan {
  target: string;
  scan_type: string;
  ports?: string | undefined;
  frameworks: string[];
  credential_checks?: string | undefined;
  web?: WebTestingOptions | undefined;
}

/** `idempotency-key` as given, else the default for this job and these scan inputs. */
export function parseIdempotencyKey(
  { read, problems }: InputReader,
  context: JobIdentity,
  scan: IdempotentScan,
): string {
  const raw = read('idempotency-key');
  if (raw !== '' && !/^[\x21-\x7e]{1,255}$/.test(raw)) {
    problems.push('`idempotency-key` must be 1-255 printable ASCII characters without spaces.');
  }
  return raw || defaultIdempotencyKey(context, scan);
}

/**
 * The default `Idempotency-Key`: the same for every try of this step in this
 * run attempt (so a retried request, or the step started again within the
 * attempt, finds the scan it already created), different per repository, run,
 * attempt, job and step, and per scan inputs, so two Scanward steps or matrix
 * legs never collide. "Re-run jobs" is a new attempt and scans afresh. Outside
 * GitHub Actions every run gets a new key.
 */
export function defaultIdempotencyKey(context: JobIdentity, scan: IdempotentScan): string {
  if (!context.repository || !context.runId) return `scanward-action:${randomUUID()}`;
  const request = createHash('sha256')
    .update(
      JSON.stringify([
        scan.target.toLowerCase(),
        scan.scan_type,
        scan.ports ?? '',
        [...scan.frameworks].sort(),
        ...(scan.credential_checks ? [scan.credential_checks] : []),
        // The web options without their secrets (a changed password alone is the same request).
        ...(scan.web ? [webFingerprint(scan.web)] : []),
      ]),
    )
    .digest('hex')
    .slice(0, 16);
  const parts = [
    context.repository,
    context.runId,
    context.runAttempt ?? '1',
    context.job ?? '',
    context.step ?? '',
  ];
  const key = `scanward-action:${parts.join(':')}:${request}`;
  if (/^[\x21-\x7e]{1,255}$/.test(key)) return key;
  return `scanward-action:${createHash('sha256').update(key).digest('hex')}`;
}

/** The web inputs that carry no secret, in a fixed order. */
function webFingerprint(web: WebTestingOptions): unknown[] {
  const auth = web.authentication;
  return [
    web.active,
    [...web.exclude_paths].sort(),
    auth?.type === 'form'
      ? ['form', auth.login_url, auth.username]
      : auth?.type === 'headers'
        ? ['headers', Object.keys(auth.headers).sort()]
        : [],
  ];
}

/** The CI run this job is (`acme/app run 123, attempt 1`), named on a report it records. */
export function ciRunLabel(context: JobIdentity): string | undefined {
  if (!context.repository || !context.runId) return undefined;
  return `${context.repository} run ${context.runId}${context.runAttempt ? `, attempt ${context.runAttempt}` : ''}`;
}
