import type { JobIdentity } from './idempotency.ts';
import type { InputReader } from './read.ts';

/**
 * `mode: local` (`scanward-ci scan --local`): the engine runs in the job against `target`, a URL
 * only the job can reach. With `service` set the result is recorded there as a scan of `asset`.
 */
export interface LocalInputs {
  /** The stable name the result is recorded under on the service: `asset`, else `<repository>:<target>`. */
  asset: string;
}

/** `asset` (mode: local only), and what a local scan without a service means for `gate: new`. */
export function parseLocalInputs(
  { read, problems, warnings }: InputReader,
  context: JobIdentity,
  target: string,
  local: boolean,
  serviceNamed: boolean,
): LocalInputs | undefined {
  const assetRaw = read('asset');
  const asset = assetRaw || (context.repository ? `${context.repository}:${target}` : target);
  if (local && asset.length > 255)
    problems.push(
      `\`asset\` "${asset.slice(0, 40)}…" must be at most 255 characters; set a shorter \`asset\`.`,
    );
  if (!local && assetRaw !== '') warnings.push('`asset` is only used with mode: local; it is not used.');
  if (local && !serviceNamed && (read('gate') || 'all').toLowerCase() === 'new')
    warnings.push(
      'gate is new but no Scanward service is named (api-url): every finding of a local scan is new without the history the service keeps, so the gate counts them all.',
    );
  return local ? { asset } : undefined;
}
