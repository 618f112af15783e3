import { WebTestingOptions } from '../../../server/schemas/web-testing.ts';
import { loginUrlProblem } from '../../../server/schemas/web-testing-view.ts';
import { parseBoolean } from './read.ts';

/**
 * The web group (docs/web-testing.md): `active`, a form log-in (`login-url`, `username`,
 * `password` or `password-env`, all three or none), `auth-headers` and `exclude-paths`.
 */

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
 * The web application inputs: `active`, a form log-in (`login-url`, `username`, `password`,
 * all three or none), `auth-headers` (one `Name: value` per line) and `exclude-paths` (one per
 * line, or comma-separated). Undefined when none is set. Messages never repeat the password or
 * a header value.
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
  const headers = parseHeaders(headersRaw, problems);
  if (form && headersRaw !== '')
    problems.push('Set a form log-in (login-url, username, password) or `auth-headers`, not both.');
  const exclude = excludeRaw
    .split(/[\n,]/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (problems.length > before) return undefined;

  return checkWebOptions(
    {
      active,
      exclude_paths: exclude,
      ...(form
        ? { authentication: { type: 'form', login_url: loginUrl, username, password } }
        : headersRaw !== ''
          ? { authentication: { type: 'headers', headers } }
          : {}),
    },
    target,
    problems,
  );
}

/** `auth-headers`: one `Name: value` per line. */
function parseHeaders(raw: string, problems: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  if (raw === '') return headers;
  raw.split(/\r?\n/).forEach((line, i) => {
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
  return headers;
}

/** The options against the shared contract, and the log-in page against `target`. */
function checkWebOptions(
  options: unknown,
  target: string,
  problems: string[],
): WebTestingOptions | undefined {
  const parsed = WebTestingOptions.safeParse(options);
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
