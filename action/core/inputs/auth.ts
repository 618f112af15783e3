import type { InputReader } from './read.ts';

/**
 * The auth group: which Scanward service (`api-url`) and how to sign in to it (`auth`,
 * `api-key`, `token`, `audience`, `organization`, `id-token`, `id-token-env`).
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

/** The service group: not `named` (and no problem) in local mode without `api-url`. */
export function parseServiceInputs(
  input: InputReader,
  local: boolean,
  idTokenAvailable: boolean,
): { named: boolean; apiUrl?: string | undefined; auth?: AuthInput | undefined } {
  const { read, problems, warnings } = input;
  // A local scan records its result on the service only when one is named (api-url). Credentials
  // alone (a SCANWARD_API_KEY the CI sets for every job) name no service: the scan runs locally.
  const named = !local || read('api-url') !== '';
  if (!named) {
    const credentials =
      ['api-key', 'token', 'id-token', 'id-token-env'].some((name) => read(name) !== '') ||
      read('auth').toLowerCase() === 'oidc';
    if (credentials)
      warnings.push(
        'credentials are set but `api-url` is not: the local scan runs without a Scanward service and its result is not recorded; set api-url to record it.',
      );
    return { named };
  }
  const apiUrl = parseApiUrl(read('api-url'), problems, warnings);
  const auth = parseAuth(
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
    idTokenAvailable,
    problems,
  );
  return { named, apiUrl, auth };
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
  const problem =
    url.protocol !== 'https:' && url.protocol !== 'http:'
      ? `\`api-url\` must start with https:// (or http://), not ${url.protocol}//.`
      : url.username || url.password
        ? '`api-url` must not contain credentials; pass them with api-key or token.'
        : url.search || url.hash
          ? '`api-url` must not have a query string or fragment.'
          : undefined;
  if (problem) {
    problems.push(problem);
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
  const problem = authConflict(fields);
  if (problem) {
    problems.push(problem);
    return undefined;
  }
  const { mode, apiKey, token, idToken, idTokenSource } = fields;
  if (apiKey) return { kind: 'api-key', apiKey };
  if (token) return { kind: 'token', token: token.replace(/^Bearer\s+/i, '') };
  if (idTokenSource) {
    if (idToken) return { kind: 'id-token', idToken };
    problems.push(
      `\`id-token-env\` names ${idTokenSource}, which is empty or unset; in GitLab declare it under \`id_tokens:\` with the audience of your Scanward trust policy.`,
    );
    return undefined;
  }
  if (mode === 'oidc' || idTokenAvailable) return parseOidc(fields, apiUrl, idTokenAvailable, problems);
  problems.push(AUTH_HELP);
  return undefined;
}

/** What the credentials given contradict: the `auth` asked for, or each other. */
function authConflict({ mode, apiKey, token, idTokenSource }: AuthFields): string | undefined {
  if (!['', 'api-key', 'token', 'oidc'].includes(mode))
    return `\`auth\` is "${mode}"; use api-key, token or oidc (or leave it out).`;
  if (apiKey && token) return 'Set either `api-key` or `token`, not both.';
  const given = [apiKey && 'api-key', token && 'token', idTokenSource && 'id-token-env'].filter(Boolean);
  if (given.length > 1)
    return `Set only one of \`api-key\`, \`token\` and \`id-token-env\` (${given.join(' and ')} are set).`;
  if (mode === 'api-key' && !apiKey) return '`auth` is api-key but `api-key` is empty. ' + AUTH_HELP;
  if (mode === 'token' && !token) return '`auth` is token but `token` is empty. ' + AUTH_HELP;
  if (mode === 'oidc' && (apiKey || token))
    return '`auth` is oidc: leave `api-key` and `token` out (the job signs in with its own identity).';
  return undefined;
}

/** Keyless sign-in with the runner's ID token: `organization` (or `audience`) says whose. */
function parseOidc(
  { audience, organization }: AuthFields,
  apiUrl: string | undefined,
  idTokenAvailable: boolean,
  problems: string[],
): AuthInput | undefined {
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
