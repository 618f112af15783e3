import { ConfigurationError } from './errors.ts';
import type { GatePolicy } from './gate.ts';
import { parseServiceInputs, type ServiceInputs } from './inputs/auth.ts';
import { parseGateInputs } from './inputs/gate.ts';
import { ciRunLabel, parseIdempotencyKey, type JobIdentity } from './inputs/idempotency.ts';
import { parseLocalInputs, type LocalInputs } from './inputs/local.ts';
import { inputReader, parseChoice, type GetInput } from './inputs/read.ts';
import { parseReportInputs, type GitHubInputs } from './inputs/reports.ts';
import { parseFollowInputs, parseScanOptions, parseScanSource } from './inputs/scan.ts';
import { parseWebInputs } from './inputs/web.ts';
import type { ScanRequest } from './scan-source.ts';

/**
 * The inputs of the Action (action.yml) and of `scanward-ci` (the same names as flags and
 * SCANWARD_* variables), parsed and checked in one place. Every problem is collected and
 * reported at once, each naming the input and what a right value looks like, as a
 * `ConfigurationError`. Each group has its parser in inputs/: auth (the service and how to sign
 * in), scan (what to scan and how to follow it), web, gate, reports (and the GitHub upload and
 * comment), local; this file composes them into four groups: how to reach the service, what to
 * scan, how to gate and report, and what to do on GitHub.
 */

export type { AuthInput, ServiceInputs } from './inputs/auth.ts';
export type { GitHubInputs } from './inputs/reports.ts';
export type { LocalInputs } from './inputs/local.ts';
export type { GetInput } from './inputs/read.ts';
export { defaultIdempotencyKey, type JobIdentity } from './inputs/idempotency.ts';
export { parseWebInputs, webSecrets } from './inputs/web.ts';

export interface ActionInputs {
  /** Where the scan runs: the Scanward service (remote, the default) or this job (local). */
  mode: 'remote' | 'local';
  /** The Scanward service; undefined only in local mode without `api-url`. */
  service: ServiceInputs | undefined;
  /** Set in local mode. */
  local: LocalInputs | undefined;
  scan: ScanRequest;
  policy: GatePolicy;
  github: GitHubInputs;
}

export interface ParsedInputs {
  inputs: ActionInputs;
  /** Things that work but deserve a word in the log. */
  warnings: string[];
}

export interface ParseOptions {
  /** Who is asking, for the error heading: "The Scanward Action's inputs" or "scanward-ci's options". */
  heading?: string | undefined;
  /**
   * Whether the runner can mint an ID token (GitHub sets ACTIONS_ID_TOKEN_REQUEST_URL when the
   * job has `id-token: write`): with no `api-key` or `token`, the Action then signs in with it.
   */
  idTokenAvailable?: boolean | undefined;
}

export function parseInputs(
  getInput: GetInput,
  context: JobIdentity,
  options: ParseOptions = {},
): ParsedInputs {
  const input = inputReader(getInput);
  const { problems, warnings } = input;
  const mode = parseChoice(
    input,
    'mode',
    'remote',
    ['remote', 'local'] as const,
    (raw) =>
      `\`mode\` is "${raw}"; use remote (the Scanward service scans the target) or local (the engine scans it inside this job).`,
  );
  const local = mode === 'local';
  const service = parseServiceInputs(input, local, options.idTokenAvailable ?? false);
  const source = parseScanSource(input, local);
  const scanOptions = parseScanOptions(input, local);
  const web = parseWebInputs(input.read, source.target, problems, getInput('password'));
  if (web && source.scanId) warnings.push('`scan-id` is set, so the web application inputs are not used.');
  if (web && source.importPath)
    problems.push('The web application inputs cannot be used with `import-file`.');
  const gate = parseGateInputs(input);
  const reports = parseReportInputs(input);
  const following = parseFollowInputs(input);
  const localInputs = parseLocalInputs(input, context, source.target, local, service.named);
  const idempotencyKey = parseIdempotencyKey(input, context, {
    target: source.target,
    scan_type: scanOptions.scanType,
    ports: scanOptions.ports,
    frameworks: scanOptions.frameworks,
    credential_checks: scanOptions.credentialChecks,
    web,
  });

  if (problems.length > 0) {
    const list = problems.map((p) => `  - ${p}`).join('\n');
    throw new ConfigurationError(
      `${options.heading ?? "The Scanward Action's inputs"} need fixing:\n${list}`,
    );
  }
  const { importPath, importFormat } = source;
  const ciRun = ciRunLabel(context);
  return {
    inputs: {
      mode: mode!,
      service: service.named ? { apiUrl: service.apiUrl!, auth: service.auth! } : undefined,
      local: localInputs,
      scan: {
        target: source.target,
        ...scanOptions,
        ...(web ? { web } : {}),
        scanId: source.scanId,
        wait: following.wait!,
        timeoutMs: following.timeoutMs,
        follow: following.follow!,
        pollIntervalMs: following.pollIntervalMs,
        idempotencyKey,
        ...(importPath ? { importFile: { path: importPath, format: importFormat } } : {}),
        ...(ciRun ? { ciRun } : {}),
      },
      policy: { failOn: gate.failOn!, mode: gate.mode!, reportSeverity: reports.reportSeverity! },
      github: reports.github,
    },
    warnings,
  };
}
