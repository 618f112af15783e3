import { createHash, randomUUID } from 'node:crypto';
import { FINDING_SEVERITIES } from '../../server/schemas/findings.ts';
import { ImportFormat } from '../../server/schemas/imports.ts';
import { CredentialChecks, Framework, ScanType, portSpecProblem } from '../../server/schemas/scans.ts';
import { WebTestingOptions } from '../../server/schemas/web-testing.ts';
import { loginUrlProblem } from '../../server/schemas/web-testing-view.ts';
import { ConfigurationError } from './errors.ts';
import { FAIL_ON_VALUES, type FailOn, type GatePolicy } from './gate.ts';
import type { ScanRequest } from './scan-source.ts';
import type { Severity } from './scan.ts';

/**
 * The inputs of the Action (action.yml) and of `scanward-ci` (the same names as flags and
 * SCANWARD_* variables), parsed and checked in one place. Every problem is collected and
 * reported at once, each naming the input and what a right value looks like, as a
 * `ConfigurationError`. They come out in four groups: how to reach the service, what to
 * scan, how to gate and report, and what to do on GitHub.
 */

/**
 * How the user asked to authenticate to the Scanward service. service/credentials.ts turns
 * it into the headers of every request (and is the one place that acquires credentials).
 */
export type AuthInput =
  | { kind: 'api-key'; apiKey: string }
  | { kind: 'token'; token: string }
  /**
   * Keyless CI sign-in on GitHub: the runner's ID token for the organization's audience, exchanged
   * (docs/ci-trust.md). `audience` when given; else the one the service tells for `organizationId`.
   */
  | { kind: 'oidc'; audience?: string; organizationId?: string }
  /** Keyless CI sign-in elsewhere: an ID token the CI minted (GitLab `id_tokens:`), exchanged. */
  | { kind: 'id-token'; idToken: string };

export interface ServiceInputs {
  /** The service base, without a trailing slash or `/api/v1`. */
  apiUrl: string;
  auth: AuthInput;
}

/** GitHub-only: the code scanning upload and the pull request comment. */
export interface GitHubInputs {
  uploadSarif: boolean;
  /** Where the SARIF file is written, relative to the workspace. */
  sarifFile: string;
  /** Post (or update) the sticky pull request comment. */
  comment: boolean;
  githubToken?: string | undefined;
}

/**
 * `mode: local` (`scanward-ci scan --local`): the engine runs in the job against `target`, a URL
 * only the job can reach. With `service` set the result is recorded there as a scan of `asset`.
 */
export interface LocalInputs {
  /** The stable name the result is recorded under on the service: `asset`, else `<repository>:<target>`. */
  asset: string;
}

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

/** The CI job a run belongs to, for the default Idempotency-Key (GitHub's run, or another CI's job). */
export interface JobIdentity {
  repository?: string | undefined;
  runId?: string | undefined;
  runAttempt?: string | undefined;
  job?: string | undefined;
  step?: string | undefined;
}

export interface ParsedInputs {
  inputs: ActionInputs;
  /** Things that work but deserve a word in the log. */
  warnings: string[];
}

/** Reads one input: the trimmed value, or '' when unset (as `@actions/core` getInput does). */
export type GetInput = (name: string) => string;

/** GitHub ends a job after 6 hours. */
const MAX_TIMEOUT_MINUTES = 360;
const MAX_POLL_SECONDS = 600;

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
  const problems: string[] = [];
  const warnings: string[] = [];
  const read = (name: string) => getInput(name).trim();

  const modeRaw = (read('mode') || 'remote').toLowerCase();
  const mode = modeRaw === 'remote' || modeRaw === 'local' ? modeRaw : undefined;
  if (!mode) {
    problems.push(
      `\`mode\` is "${modeRaw}"; use remote (the Scanward service scans the target) or local (the engine scans it inside this job).`,
    );
  }
  const local = mode === 'local';
  // A local scan records its result on the service only when one is named (api-url). Credentials
  // alone (a SCANWARD_API_KEY the CI sets for every job) name no service: the scan runs locally.
  const serviceNamed = !local || read('api-url') !== '';
  if (
    local &&
    !serviceNamed &&
    (['api-key', 'token', 'id-token', 'id-token-env'].some((name) => read(name) !== '') ||
      read('auth').toLowerCase() === 'oidc')
  ) {
    warnings.push(
      'credentials are set but `api-url` is not: the local scan runs without a Scanward service and its result is not recorded; set api-url to record it.',
    );
  }
  const apiUrl = serviceNamed ? parseApiUrl(read('api-url'), problems, warnings) : undefined;
  const auth = serviceNamed
    ? parseAuth(
        {
          mode: read('auth').toLowerCase(),
          apiKey: read('api-key'),
          token: read('token'),
          audience: read('audience'),
          organization: read('organization'),
          idToken: read('id-token'),
          idTokenSource: read('id-token-env'),
        },
        apiUrl,
        options.idTokenAvailable ?? false,
        problems,
      )
    : undefined;

  const scanIdRaw = read('scan-id');
  if (scanIdRaw !== '' && !/^scan_[A-Za-z0-9]{1,95}$/.test(scanIdRaw)) {
    problems.push(`\`scan-id\` is "${scanIdRaw}"; use the id of a scan, like scan_0123456789abcdefghijklmn.`);
  }
  const scanId = scanIdRaw || undefined;

  const importPath = read('import-file');
  const importFormatRaw = read('import-format').toLowerCase();
  const importFormat = importFormatRaw === '' ? undefined : ImportFormat.safeParse(importFormatRaw);
  if (importFormat && !importFormat.success) {
    problems.push(
      `\`import-format\` is "${importFormatRaw}"; use nuclei, zap, nmap, openvas or scanward (or leave it out to detect it).`,
    );
  }
  if (importPath && scanId) problems.push('Set `import-file` or `scan-id`, not both.');
  if (importPath === '' && importFormat)
    warnings.push('`import-format` is set but `import-file` is not; it is not used.');

  const target = read('target');
  if (local) {
    if (scanIdRaw !== '')
      problems.push('`scan-id` cannot be used with mode: local (the scan runs in this job).');
    if (importPath) problems.push('Set `import-file` or mode: local, not both.');
    if (read('wait') !== '' && read('wait') !== 'true')
      problems.push('`wait` must be true with mode: local (the scan runs in this step).');
    if (read('ports') !== '')
      warnings.push('`ports` is not used with mode: local: the scan reaches only the port `target` names.');
    if (target === '')
      problems.push(
        '`target` is required with mode: local: the URL of the service this job started, e.g. http://localhost:8080.',
      );
    else if (!/^https?:\/\/[^\s/]+/i.test(target))
      problems.push(
        `\`target\` is "${target}"; with mode: local, name the service as a URL: http://localhost:8080 (scheme, host and port).`,
      );
  } else if (target === '' && importPath) {
    problems.push(
      '`target` is required with `import-file`: the asset the report is about (a host, URL or stable name).',
    );
  } else if (target === '' && !scanId) {
    problems.push('`target` is required: the domain, IP address or CIDR range to scan (or set `scan-id`).');
  } else if (target.length > 253) problems.push('`target` must be at most 253 characters.');
  if (scanId && target !== '')
    warnings.push('`scan-id` is set, so `target` and the other scan inputs are not used.');

  // Attack checks run in the web analysis phase, which quick scans skip (docs/web-testing.md).
  const scanTypeRaw = read('scan-type') || (local || read('active') === 'true' ? 'full' : 'quick');
  const scanType = ScanType.safeParse(scanTypeRaw);
  if (!scanType.success) problems.push(`\`scan-type\` is "${scanTypeRaw}"; use quick, full or compliance.`);

  const portsRaw = read('ports');
  if (portsRaw !== '') {
    const problem = portSpecProblem(portsRaw);
    if (problem) problems.push(`\`ports\`: ${problem}.`);
  }

  const frameworks = parseFrameworks(read('frameworks'), problems);
  if (frameworks.length > 0 && scanType.success && scanType.data !== 'compliance') {
    warnings.push(
      `\`frameworks\` is set but scan-type is ${scanType.data}; frameworks matter most to compliance scans.`,
    );
  }

  const credentialRaw = read('credential-checks').toLowerCase();
  const credentialChecks = credentialRaw === '' ? undefined : CredentialChecks.safeParse(credentialRaw);
  if (credentialChecks && !credentialChecks.success) {
    problems.push(
      `\`credential-checks\` is "${credentialRaw}"; use defaults (vendor-default and empty credentials, one attempt per service) or none.`,
    );
  }

  const web = parseWebInputs(read, target, problems, getInput('password'));
  if (web && scanId) warnings.push('`scan-id` is set, so the web application inputs are not used.');
  if (web && importPath) problems.push('The web application inputs cannot be used with `import-file`.');

  const failOnRaw = (read('fail-on') || 'high').toLowerCase();
  const failOn = (FAIL_ON_VALUES as readonly string[]).includes(failOnRaw)
    ? (failOnRaw as FailOn)
    : undefined;
  if (!failOn) problems.push(`\`fail-on\` is "${failOnRaw}"; use one of ${FAIL_ON_VALUES.join(', ')}.`);

  const gateRaw = (read('gate') || 'all').toLowerCase();
  const gate = gateRaw === 'all' || gateRaw === 'new' ? gateRaw : undefined;
  if (!gate) {
    problems.push(
      `\`gate\` is "${gateRaw}"; use all (every open finding counts) or new (only findings this scan found first or reopened).`,
    );
  }

  const reportRaw = (read('report-severity') || 'info').toLowerCase();
  const reportSeverity = (FINDING_SEVERITIES as readonly string[]).includes(reportRaw)
    ? (reportRaw as Severity)
    : undefined;
  if (!reportSeverity) {
    problems.push(`\`report-severity\` is "${reportRaw}"; use one of ${FINDING_SEVERITIES.join(', ')}.`);
  }

  const wait = parseBoolean('wait', read('wait') || 'true', problems);
  const comment = parseBoolean('comment', read('comment') || 'false', problems);

  const timeoutMinutes = parseNumber('timeout-minutes', read('timeout-minutes') || '30', problems, {
    min: 0,
    exclusiveMin: true,
    max: MAX_TIMEOUT_MINUTES,
  });
  const pollSeconds = parseNumber('poll-interval-seconds', read('poll-interval-seconds') || '10', problems, {
    min: 0,
    max: MAX_POLL_SECONDS,
  });

  const followRaw = (read('follow') || 'stream').toLowerCase();
  const follow = followRaw === 'stream' || followRaw === 'poll' ? followRaw : undefined;
  if (!follow) {
    problems.push(
      `\`follow\` is "${followRaw}"; use stream (the service's event stream: one request however long the scan runs, polling when the stream is not available) or poll (a status check every poll-interval-seconds).`,
    );
  }

  const uploadSarif = parseBoolean('upload-sarif', read('upload-sarif') || 'true', problems);
  const githubToken = read('github-token') || undefined;
  if (uploadSarif && !githubToken) {
    problems.push(
      '`github-token` is empty but upload-sarif is true. Leave github-token at its default (${{ github.token }}) or set upload-sarif: false.',
    );
  }

  if (comment && !githubToken) {
    problems.push(
      '`github-token` is empty but comment is true; leave github-token at its default (${{ github.token }}).',
    );
  }

  const sarifFile = read('sarif-file') || 'scanward.sarif';

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

  const scanInputs = {
    target,
    scan_type: scanType.success ? scanType.data : 'quick',
    ports: portsRaw || undefined,
    frameworks,
    credential_checks: credentialChecks?.data,
    web,
  };
  const idempotencyRaw = read('idempotency-key');
  if (idempotencyRaw !== '' && !/^[\x21-\x7e]{1,255}$/.test(idempotencyRaw)) {
    problems.push('`idempotency-key` must be 1-255 printable ASCII characters without spaces.');
  }
  const idempotencyKey = idempotencyRaw || defaultIdempotencyKey(context, scanInputs);

  if (problems.length > 0) {
    const list = problems.map((p) => `  - ${p}`).join('\n');
    throw new ConfigurationError(
      `${options.heading ?? "The Scanward Action's inputs"} need fixing:\n${list}`,
    );
  }
  return {
    inputs: {
      mode: mode!,
      service: serviceNamed ? { apiUrl: apiUrl!, auth: auth! } : undefined,
      local: local ? { asset } : undefined,
      scan: {
        target,
        scanType: scanType.data!,
        ports: portsRaw || undefined,
        frameworks,
        credentialChecks: credentialChecks?.data,
        ...(web ? { web } : {}),
        scanId,
        wait: wait!,
        timeoutMs: Math.round(timeoutMinutes! * 60_000),
        follow: follow!,
        pollIntervalMs: Math.round(pollSeconds! * 1000),
        idempotencyKey,
        ...(importPath ? { importFile: { path: importPath, format: importFormat?.data } } : {}),
        ...(context.repository && context.runId
          ? {
              ciRun: `${context.repository} run ${context.runId}${context.runAttempt ? `, attempt ${context.runAttempt}` : ''}`,
            }
          : {}),
      },
      policy: { failOn: failOn!, mode: gate!, reportSeverity: reportSeverity! },
      github: { uploadSarif: uploadSarif!, sarifFile, comment: comment!, githubToken },
    },
    warnings,
  };
}

function parseApiUrl(raw: string, problems: string[], warnings: string[]): string | undefined {
  if (raw === '') {
    problems.push(
      '`api-url` is required: the address of your Scanward service, e.g. https://scanward.example.com.',
    );
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    problems.push(`\`api-url\` "${raw}" is not a URL; write it like https://scanward.example.com.`);
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    problems.push(`\`api-url\` must start with https:// (or http://), not ${url.protocol}//.`);
    return undefined;
  }
  if (url.username || url.password) {
    problems.push('`api-url` must not contain credentials; pass them with api-key or token.');
    return undefined;
  }
  if (url.search || url.hash) {
    problems.push('`api-url` must not have a query string or fragment.');
    return undefined;
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    warnings.push('`api-url` uses plain http: the API key crosses the network unencrypted. Use https.');
  }
  // The spec publishes the base with /api/v1; the Action appends it, so accept both spellings.
  const path = url.pathname.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
  return `${url.origin}${path}`;
}

function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

interface AuthFields {
  /** `auth`: '' (chosen from what is given), api-key, token or oidc. */
  mode: string;
  apiKey: string;
  token: string;
  audience: string;
  /** The organization's id (`org_…`), whose audience the service tells. */
  organization: string;
  /** scanward-ci: the value of the variable `--id-token-env` names. */
  idToken: string;
  /** scanward-ci: the name of that variable, for messages. */
  idTokenSource: string;
}

const AUTH_HELP =
  'Set `api-key` (an API key with read:scans and write:scans, from a secret: api-key: ${{ secrets.SCANWARD_API_KEY }}), ' +
  '`token` (a bearer token), or sign in without a secret with `auth: oidc` (the job needs `permissions: id-token: write` ' +
  'and a trust policy in Scanward; docs/github-action.md).';

function parseAuth(
  fields: AuthFields,
  apiUrl: string | undefined,
  idTokenAvailable: boolean,
  problems: string[],
): AuthInput | undefined {
  const { mode, apiKey, token, audience, organization, idToken, idTokenSource } = fields;
  if (!['', 'api-key', 'token', 'oidc'].includes(mode)) {
    problems.push(`\`auth\` is "${mode}"; use api-key, token or oidc (or leave it out).`);
    return undefined;
  }
  if (apiKey && token) {
    problems.push('Set either `api-key` or `token`, not both.');
    return undefined;
  }
  const given = [apiKey && 'api-key', token && 'token', idTokenSource && 'id-token-env'].filter(Boolean);
  if (given.length > 1) {
    problems.push(
      `Set only one of \`api-key\`, \`token\` and \`id-token-env\` (${given.join(' and ')} are set).`,
    );
    return undefined;
  }
  if (mode === 'api-key' && !apiKey) {
    problems.push('`auth` is api-key but `api-key` is empty. ' + AUTH_HELP);
    return undefined;
  }
  if (mode === 'token' && !token) {
    problems.push('`auth` is token but `token` is empty. ' + AUTH_HELP);
    return undefined;
  }
  if (mode === 'oidc' && (apiKey || token)) {
    problems.push(
      '`auth` is oidc: leave `api-key` and `token` out (the job signs in with its own identity).',
    );
    return undefined;
  }
  if (apiKey) return { kind: 'api-key', apiKey };
  if (token) return { kind: 'token', token: token.replace(/^Bearer\s+/i, '') };
  if (idTokenSource) {
    if (!idToken) {
      problems.push(
        `\`id-token-env\` names ${idTokenSource}, which is empty or unset; in GitLab declare it under \`id_tokens:\` with the audience of your Scanward trust policy.`,
      );
      return undefined;
    }
    return { kind: 'id-token', idToken };
  }
  if (mode === 'oidc' || idTokenAvailable) {
    if (!idTokenAvailable) {
      problems.push(
        '`auth` is oidc but the runner offers no ID token: give the job `permissions: id-token: write` (docs/github-action.md).',
      );
      return undefined;
    }
    if (organization && !/^org_[a-z0-9]{1,96}$/.test(organization)) {
      problems.push(
        `\`organization\` is "${organization}"; use your organization's id, like org_0123456789abcdefghijklmn (Scanward: Settings → CI trust).`,
      );
      return undefined;
    }
    if (!audience && !organization) {
      problems.push(
        "`auth` is oidc: set `organization` to your organization's id (Scanward: Settings → CI trust shows it), " +
          "so the job asks for its ID token with the organization's audience (docs/ci-trust.md).",
      );
      return undefined;
    }
    if (!apiUrl) return undefined;
    return {
      kind: 'oidc',
      ...(audience ? { audience } : {}),
      ...(organization ? { organizationId: organization } : {}),
    };
  }
  problems.push(AUTH_HELP);
  return undefined;
}

function parseFrameworks(raw: string, problems: string[]): Framework[] {
  if (raw === '') return [];
  const names = raw
    .split(/[\s,]+/)
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const good: Framework[] = [];
  for (const name of names) {
    const parsed = Framework.safeParse(name);
    if (parsed.success) {
      if (!good.includes(parsed.data)) good.push(parsed.data);
    } else {
      problems.push(`\`frameworks\` lists "${name}"; use a comma-separated list of soc2, pci-dss, iso27001.`);
    }
  }
  return good;
}

function parseNumber(
  name: string,
  raw: string,
  problems: string[],
  range: { min: number; max: number; exclusiveMin?: boolean },
): number | undefined {
  const value = /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : NaN;
  const tooSmall = range.exclusiveMin ? value <= range.min : value < range.min;
  if (Number.isNaN(value) || tooSmall || value > range.max) {
    const lower = range.exclusiveMin ? `more than ${range.min}` : `at least ${range.min}`;
    problems.push(`\`${name}\` is "${raw}"; use a number ${lower} and at most ${range.max}.`);
    return undefined;
  }
  return value;
}

/** YAML 1.2 core booleans, as `@actions/core` getBooleanInput reads them. */
function parseBoolean(name: string, raw: string, problems: string[]): boolean | undefined {
  if (['true', 'True', 'TRUE'].includes(raw)) return true;
  if (['false', 'False', 'FALSE'].includes(raw)) return false;
  problems.push(`\`${name}\` is "${raw}"; use true or false.`);
  return undefined;
}

/**
 * The default `Idempotency-Key`: the same for every try of this step in this
 * run attempt (so a retried request, or the step started again within the
 * attempt, finds the scan it already created), different per repository, run,
 * attempt, job and step, and per scan inputs, so two Scanward steps or matrix
 * legs never collide. "Re-run jobs" is a new attempt and scans afresh. Outside
 * GitHub Actions every run gets a new key.
 */
export function defaultIdempotencyKey(
  context: JobIdentity,
  scan: {
    target: string;
    scan_type: string;
    ports?: string | undefined;
    frameworks: string[];
    credential_checks?: string | undefined;
    web?: WebTestingOptions | undefined;
  },
): string {
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

/** The input each field of `web` comes from, for messages. */
const WEB_INPUTS: Record<string, string> = {
  active: 'active',
  login_url: 'login-url',
  username: 'username',
  password: 'password',
  headers: 'auth-headers',
  exclude_paths: 'exclude-paths',
};

/**
 * The web application inputs (docs/web-testing.md): `active`, a form log-in (`login-url`,
 * `username`, `password`, all three or none), `auth-headers` (one `Name: value` per line) and
 * `exclude-paths` (one per line, or comma-separated). Undefined when none is set. Messages
 * never repeat the password or a header value.
 */
export function parseWebInputs(
  read: (name: string) => string,
  target: string,
  problems: string[],
  /** The password as given: not trimmed (a password may begin or end with a space). */
  password: string = read('password'),
): WebTestingOptions | undefined {
  const activeRaw = read('active');
  const loginUrl = read('login-url');
  const username = read('username');
  const headersRaw = read('auth-headers');
  const excludeRaw = read('exclude-paths');
  if ([activeRaw, loginUrl, username, password, headersRaw, excludeRaw].every((v) => v === ''))
    return undefined;
  const before = problems.length;

  const active = activeRaw === '' ? false : parseBoolean('active', activeRaw, problems);
  const form = [loginUrl, username, password].some((v) => v !== '');
  const passwordSource = read('password-env');
  if (passwordSource !== '' && password === '')
    problems.push(
      `\`password-env\` names ${passwordSource}, which is empty or unset; export the password there.`,
    );
  else if (form) {
    const missing = [
      loginUrl === '' && '`login-url`',
      username === '' && '`username`',
      password === '' && '`password`',
    ].filter(Boolean);
    if (missing.length > 0)
      problems.push(
        `A form log-in needs login-url, username and password; ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} empty.`,
      );
  }
  const headers: Record<string, string> = {};
  if (headersRaw !== '') {
    headersRaw.split(/\r?\n/).forEach((line, i) => {
      if (line.trim() === '') return;
      const match = /^\s*([^:\s]+)\s*:\s?(.*)$/.exec(line);
      if (!match) {
        problems.push(
          `\`auth-headers\` line ${i + 1} is not \`Name: value\` (for example Authorization: Bearer …).`,
        );
        return;
      }
      headers[match[1]!] = match[2]!.trim();
    });
  }
  if (form && headersRaw !== '')
    problems.push('Set a form log-in (login-url, username, password) or `auth-headers`, not both.');
  const exclude = excludeRaw
    .split(/[\n,]/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (problems.length > before) return undefined;

  const parsed = WebTestingOptions.safeParse({
    active,
    exclude_paths: exclude,
    ...(form
      ? { authentication: { type: 'form', login_url: loginUrl, username, password } }
      : headersRaw !== ''
        ? { authentication: { type: 'headers', headers } }
        : {}),
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path.map(String).find((p) => p in WEB_INPUTS) ?? 'auth-headers';
      const name = WEB_INPUTS[field] ?? field;
      // A header name that is not a token: name the header, never its value.
      const header = field === 'headers' && issue.path.length > 3 ? ` (${String(issue.path[3])})` : '';
      problems.push(`\`${name}\`${header}: ${issue.message}.`);
    }
    return undefined;
  }
  const problem = target === '' ? undefined : loginUrlProblem(target, parsed.data);
  if (problem) {
    problems.push(`\`login-url\` ${problem}: the log-in page must be on \`target\`.`);
    return undefined;
  }
  return parsed.data;
}

/** The secrets among the web inputs (the password, every header value): what logs must mask. */
export function webSecrets(web: WebTestingOptions | undefined): string[] {
  const auth = web?.authentication;
  if (!auth) return [];
  return auth.type === 'form' ? [auth.password] : Object.values(auth.headers).filter((v) => v !== '');
}
