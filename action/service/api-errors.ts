import { ApiError } from '../core/errors.ts';

/**
 * The Scanward API's error answers (`{detail, error_code, field?}`) as `ApiError`s that say
 * what the user can do about them.
 */

/** What the user can do about an error code (decisions.md "Success and error statuses"). */
const HINTS: Record<string, string> = {
  TARGET_NOT_ALLOWED:
    "The target is outside the server's scan scope policy. Scan a host you own that is in scope, or ask the Scanward operator to add it to SCANWARD_SCAN_ALLOW (and check SCANWARD_SCAN_DENY)",
  SCAN_QUOTA_EXCEEDED:
    "The organization's monthly scan quota is used up. GET /api/v1/scans/quota shows when it resets; an operator can raise it with `scanward admin org set-limits`",
  CONCURRENT_SCAN_LIMIT:
    "The plan's concurrent-scan ceiling stayed reached while the Action retried. Let running scans finish, or add `concurrency:` to the workflow so runs queue instead of overlapping",
  RATE_LIMIT_EXCEEDED:
    "The organization's API request limit is used up. Leave follow at stream (one request however long the scan runs), or with follow: poll raise poll-interval-seconds, so each run makes fewer requests",
  INVALID_API_KEY:
    'The api-key is unknown, revoked or expired. Create a new key (Settings, API Keys) and store it as a repository secret',
  AUTHENTICATION_REQUIRED: 'Set the api-key input (or token) from a repository secret',
  INVALID_TOKEN:
    'The token cannot be validated or its session was revoked. Obtain a new token, or use an api-key',
  TOKEN_EXPIRED: 'The bearer token has expired. Obtain a new token right before this step, or use an api-key',
  INSUFFICIENT_PERMISSION:
    "The API key lacks a permission. The Action needs 'read:scans' and 'write:scans', and 'read:findings' for rule ids in the SARIF",
  PLAN_UPGRADE_REQUIRED: "This feature is not on the organization's plan",
};

const FIELD_INPUTS: Record<string, string> = {
  target: 'target',
  scan_type: 'scan-type',
  ports: 'ports',
  frameworks: 'frameworks',
  credential_checks: 'credential-checks',
  'web.active': 'active',
  'web.authentication': 'login-url',
  'web.authentication.type': 'login-url',
  'web.authentication.login_url': 'login-url',
  'web.authentication.username': 'username',
  'web.authentication.password': 'password',
  'web.authentication.headers': 'auth-headers',
  'web.exclude_paths': 'exclude-paths',
  'Idempotency-Key': 'idempotency-key',
};

/** The input behind a field: the longest dotted prefix named (`web.authentication.headers.X-Api` → auth-headers). */
function inputOf(field: string): string | undefined {
  const parts = field.split('.');
  for (let n = parts.length; n > 0; n--) {
    const input = FIELD_INPUTS[parts.slice(0, n).join('.')];
    if (input) return input;
  }
  return undefined;
}

/** What to check when the answer is not the Scanward API's at all. */
export const NOT_SCANWARD_HINT =
  'Check api-url (SCANWARD_API_URL): it should be the address of the Scanward service itself, not a web page or a proxy in front of it';

/**
 * A body that is not Scanward's JSON (a web server's page, a proxy's error), described in one
 * line without its markup: an HTML page by its `<title>`, any other text by its first 120
 * characters with line breaks folded.
 */
export function describeForeignBody(text: string, contentType: string | null): string {
  const html = /html/i.test(contentType ?? '') || /^\s*</.test(text);
  if (html) {
    // Its title, or else its first words: the markup, scripts and styles left out.
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1];
    const words = (
      title ?? text.replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ').replace(/<[^>]*>?/g, ' ')
    )
      .replace(/\s+/g, ' ')
      .trim();
    const shown = words.length > 80 ? `${words.slice(0, 80)}…` : words;
    return `an HTML page${shown ? ` ("${shown}")` : ''}, not the Scanward API`;
  }
  const line = text.replace(/\s+/g, ' ').trim();
  if (!line) return 'an empty answer, not the Scanward API';
  return `"${line.length > 120 ? `${line.slice(0, 120)}…` : line}", not the Scanward API`;
}

/** Turns an error answer into an `ApiError`, reading the spec's `{detail, error_code, field?}` shape. */
export async function scanwardError(res: Response, what: string): Promise<ApiError> {
  const text = await res.text().catch(() => '');
  let code = `HTTP_${res.status}`;
  let detail: string | undefined;
  let field: string | undefined;
  try {
    const body = JSON.parse(text) as { detail?: unknown; error_code?: unknown; field?: unknown };
    if (typeof body.error_code === 'string') code = body.error_code;
    if (typeof body.detail === 'string') detail = body.detail;
    if (typeof body.field === 'string') field = body.field;
  } catch {
    // Not JSON: a proxy or another service answered; described below, never printed raw.
  }
  if (code === `HTTP_${res.status}`) {
    // Not the Scanward error shape: say what answered instead of printing its page.
    detail = `the answer is ${describeForeignBody(text, res.headers.get('content-type'))}`;
    const hint = res.status >= 500 ? `${NOT_SCANWARD_HINT}, or try again later` : NOT_SCANWARD_HINT;
    return new ApiError('Scanward', res.status, code, `could not ${what}: ${detail}`, undefined, hint);
  }
  detail = (detail ?? res.statusText) || 'no details';
  let hint = HINTS[code];
  const input = field ? inputOf(field) : undefined;
  if (code === 'VALIDATION_ERROR' && input) {
    hint =
      input === 'idempotency-key'
        ? 'This idempotency-key was already used with different scan inputs in the last 24 hours; use a new key'
        : `Check the \`${input}\` input`;
  }
  if (code === 'NOT_FOUND' && !hint) hint = 'Check api-url: it should be the address of the Scanward service';
  return new ApiError('Scanward', res.status, code, `could not ${what}: ${detail}`, field, hint);
}
