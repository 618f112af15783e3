/**
 * HTTP checks of the `web_analysis` phase: missing security headers, a served `.git`
 * directory or `.env` file, and automatic directory listings (on the home page in quick
 * scans, on every page of the crawl, web-crawl.ts, in the others). Requests (net/http-get.ts)
 * each use their own connection to the literal address the scope guard approved, bounded
 * in bytes and time and torn down when the scan's signal aborts. The `Host` header names
 * the scan target (the DNS name the user gave, or the address).
 */
import { componentUrl } from '../net/services.ts';
import type { HttpResponse } from '../net/probes/http.ts';
import { renderBytes } from '../net/probe-session.ts';
import { isHttp } from '../net/service-rules.ts';
import { defineCheck, type DeclaredCheck } from '../check.ts';
import { crawl } from '../net/web-crawl.ts';
import { getRoot, httpGet } from '../net/http-get.ts';

const TOOL = 'scanward-web';
const NETWORK = 'CVSS:3.1/AV:N';

function bodyText(response: HttpResponse): string {
  return response.body.toString('utf8');
}

function looksLikeHtml(response: HttpResponse): boolean {
  return (
    /html|xml/i.test(response.headers.get('content-type') ?? '') ||
    /^\s*</.test(bodyText(response).slice(0, 512))
  );
}

// ---------------------------------------------------------------------------------------
// Security headers

/**
 * The protective headers judged missing on a response. HSTS is not among them: its absence on
 * HTTPS is a finding of its own (`https-missing-hsts`, web-hsts.ts).
 */
export function missingSecurityHeaders(response: HttpResponse): string[] {
  const header = (name: string): string => response.headers.get(name)?.trim() ?? '';
  const missing: string[] = [];
  const csp = header('content-security-policy');
  if (!csp) missing.push('Content-Security-Policy');
  if (!/nosniff/i.test(header('x-content-type-options'))) missing.push('X-Content-Type-Options');
  if (!header('x-frame-options') && !/frame-ancestors/i.test(csp)) {
    missing.push('X-Frame-Options (or CSP frame-ancestors)');
  }
  return missing;
}

export const missingSecurityHeadersCheck = defineCheck({
  meta: {
    id: 'http-missing-security-headers',
    title: 'HTTP security headers missing',
    severity: 'low',
    cvssVector: `${NETWORK}/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N`,
    cweIds: ['CWE-693', 'CWE-1021'],
    category: 'web-headers',
    remediation: 'http-missing-security-headers',
    impact:
      'Browsers fall back to permissive defaults: pages can be framed by other sites (clickjacking), ' +
      'content types sniffed, injected scripts meet no Content-Security-Policy.',
    upstreamIds: ['http-missing-security-headers', 'missing-security-headers'],
    tool: TOOL,
  },
  phase: 'web_analysis',
  quick: false,
  appliesTo: isHttp,
  detect: async (ctx, service) => {
    const exchange = await getRoot(ctx, service);
    const response = exchange.response;
    // A redirect is judged where it leads (usually the HTTPS service, checked on its own).
    if (!response || (response.status >= 300 && response.status < 400)) return [];
    const missing = missingSecurityHeaders(response);
    if (missing.length === 0) return [];
    return [
      {
        detail: missing.map((m) => m.split(' ')[0]).join(', '),
        description:
          `The response to GET / on ${componentUrl(service)} (HTTP ${response.status}) does not send: ` +
          `${missing.join(', ')}.`,
        evidence: { request: exchange.request, response: exchange.head },
      },
    ];
  },
});

// ---------------------------------------------------------------------------------------
// Directory listing

/** An autoindex page: Apache/nginx "Index of /", Python/Jetty "Directory listing for /", with links. */
export function isDirectoryListing(response: HttpResponse): boolean {
  if (response.status !== 200) return false;
  const body = bodyText(response);
  return (
    /<(title|h1)[^>]*>\s*(Index of|Directory listing for) \//i.test(body) && /<a\s[^>]*href\s*=/i.test(body)
  );
}

export const directoryListingCheck = defineCheck({
  meta: {
    id: 'directory-listing',
    title: 'Web server lists directory contents',
    severity: 'medium',
    cvssVector: `${NETWORK}/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N`,
    cweIds: ['CWE-548'],
    category: 'information-disclosure',
    remediation: 'directory-listing',
    impact:
      'Visitors can browse and download files that were never linked (backups, logs, configuration ' +
      'exports), and learn file names and versions that guide further attacks.',
    upstreamIds: ['dir-listing', 'nginx-autoindex', 'apache-directory-listing'],
    tool: TOOL,
  },
  phase: 'web_analysis',
  quick: true,
  appliesTo: isHttp,
  detect: async (ctx, service) => {
    // Quick scans look at the home page; the others at every page the crawl found.
    const pages =
      ctx.scan.scan_type === 'quick'
        ? [{ path: '/', exchange: await getRoot(ctx, service) }]
        : await crawl(ctx, service);
    return pages.flatMap(({ path, exchange }) =>
      exchange.response && isDirectoryListing(exchange.response)
        ? [
            {
              path,
              description: `GET ${path} on ${componentUrl(service)} returns an automatic directory listing instead of an index page.`,
              evidence: {
                request: exchange.request,
                response: `${exchange.head}\n\n${renderBytes(exchange.response.body, 2048)}`,
              },
            },
          ]
        : [],
    );
  },
});

// ---------------------------------------------------------------------------------------
// .git/config

/** A git config file: a `[core]` section, not an HTML page (a catch-all route answering 200). */
export function isGitConfig(response: HttpResponse): boolean {
  return response.status === 200 && !looksLikeHtml(response) && /^\s*\[core\]\s*$/m.test(bodyText(response));
}

/** Credentials in remote URLs (`https://user:token@host/`) never reach the evidence. */
export function redactUrlCredentials(text: string): string {
  return text.replace(/(\w+:\/\/)[^\s/@]+@/g, '$1***@');
}

export const gitConfigExposedCheck = defineCheck({
  meta: {
    id: 'git-config-exposed',
    title: 'Git repository exposed: /.git/config is served',
    severity: 'high',
    cvssVector: `${NETWORK}/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N`,
    cweIds: ['CWE-527', 'CWE-538'],
    category: 'information-disclosure',
    remediation: 'git-config-exposed',
    impact:
      'The whole repository (source code, history and any credentials ever committed) can be ' +
      'rebuilt from the served .git directory.',
    upstreamIds: ['git-config', 'exposed-git'],
    tool: TOOL,
  },
  phase: 'web_analysis',
  quick: true,
  appliesTo: isHttp,
  detect: async (ctx, service) => {
    const exchange = await httpGet(ctx, service, '/.git/config');
    if (!exchange.response || !isGitConfig(exchange.response)) return [];
    return [
      {
        path: '/.git/config',
        description: `${componentUrl(service)}/.git/config returns the repository's git configuration, so the .git directory of a checkout is being served.`,
        evidence: {
          request: exchange.request,
          response: `${exchange.head}\n\n${redactUrlCredentials(renderBytes(exchange.response.body, 2048))}`,
        },
      },
    ];
  },
});

// ---------------------------------------------------------------------------------------
// .env

const ENV_LINE = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=/;

/** An environment file: plain text whose meaningful lines are mostly `KEY=VALUE`. */
export function isEnvFile(response: HttpResponse): boolean {
  if (response.status !== 200 || looksLikeHtml(response)) return false;
  const lines = bodyText(response)
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const assignments = lines.filter((line) => ENV_LINE.test(line)).length;
  return assignments > 0 && assignments * 2 >= lines.length;
}

/** Keeps keys and comments; every value, and any line that is not a plain assignment, becomes `***`. */
export function redactEnv(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => {
      if (line.trim() === '' || line.trim().startsWith('#')) return line;
      const match = ENV_LINE.exec(line);
      return match ? `${match[0]}***` : '***';
    })
    .join('\n');
}

export const envFileExposedCheck = defineCheck({
  meta: {
    id: 'env-file-exposed',
    title: 'Environment file exposed: /.env is served',
    severity: 'high',
    cvssVector: `${NETWORK}/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N`,
    cweIds: ['CWE-538', 'CWE-200'],
    category: 'information-disclosure',
    remediation: 'env-file-exposed',
    impact:
      'Environment files typically hold database passwords, API keys, signing keys and cloud ' +
      'credentials in plain text; assume every value was downloaded.',
    upstreamIds: ['generic-env', 'exposed-env', 'laravel-env', 'codeigniter-env'],
    tool: TOOL,
  },
  phase: 'web_analysis',
  quick: true,
  appliesTo: isHttp,
  detect: async (ctx, service) => {
    const exchange = await httpGet(ctx, service, '/.env');
    const response = exchange.response;
    if (!response || !isEnvFile(response)) return [];
    const keys = bodyText(response)
      .split(/\r?\n/)
      .map((line) => ENV_LINE.exec(line)?.[1])
      .filter((key): key is string => key !== undefined);
    // Redacted before it is rendered: values never reach the evidence, even cut short.
    const redacted = redactEnv(bodyText(response));
    return [
      {
        path: '/.env',
        description:
          `${componentUrl(service)}/.env returns an environment file with ${keys.length} variable(s) ` +
          `(${keys.slice(0, 10).join(', ')}${keys.length > 10 ? ', …' : ''}); values are redacted in the evidence.`,
        evidence: {
          request: exchange.request,
          response: `${exchange.head}\n\n${renderBytes(Buffer.from(redacted, 'utf8'), 2048)}`,
        },
      },
    ];
  },
});

export const webChecks: DeclaredCheck[] = [
  missingSecurityHeadersCheck,
  directoryListingCheck,
  gitConfigExposedCheck,
  envFileExposedCheck,
];
