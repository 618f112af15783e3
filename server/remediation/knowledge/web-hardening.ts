import { cwePage, mentions, type KnowledgeEntry } from './entry.ts';

/** Web findings of the crawl-fed checks: CORS, session cookies, TRACE, version banners, status pages. */

const isWeb = (scheme: string | undefined) => scheme === 'http' || scheme === 'https';

export const corsArbitraryOrigin: KnowledgeEntry = {
  id: 'cors-arbitrary-origin-credentials',
  aliases: ['cors-misconfig', 'cors-reflected-origin'],
  category: 'misconfiguration',
  cwe_ids: ['CWE-942'],
  defaultPort: 443,
  recognise: (f, c) => isWeb(c.scheme) && mentions(f, /\bCORS\b|access-control-allow-origin/i),
  impact:
    "reflects any `Origin` in `Access-Control-Allow-Origin` together with `Access-Control-Allow-Credentials: true`, so every web site can read its responses with a visitor's cookies.",
  scenarios: [
    'A user signed in to {host} visits an attacker page, whose script reads {component} with the user’s cookies and sends the answer (account data, API keys, CSRF tokens) to the attacker.',
  ],
  remediation: {
    summary: 'Allow only a fixed list of trusted origins on {host}, and send credentials only to them.',
    steps: [
      'Replace the reflection of the request `Origin` with a lookup in an explicit allow-list of your own front-end origins.',
      'Send `Access-Control-Allow-Credentials: true` only for allow-listed origins, and add `Vary: Origin`.',
      'Confirm that `curl -sI -H "Origin: https://example.invalid" {component}` no longer echoes the origin.',
    ],
    code_example: `# nginx: allow-list instead of reflection
map $http_origin $cors_origin {
    default "";
    "https://app.example.com" $http_origin;
}
add_header Access-Control-Allow-Origin $cors_origin always;
add_header Access-Control-Allow-Credentials true always;
add_header Vary Origin always;`,
    references: [
      'https://developer.mozilla.org/en-US/docs/Web/HTTP/CORS',
      'https://portswigger.net/web-security/cors',
      cwePage(942),
    ],
  },
};

export const sessionCookieAttributes: KnowledgeEntry = {
  id: 'session-cookie-attributes',
  aliases: ['cookies-without-httponly', 'cookies-without-secure', 'cookie-without-samesite'],
  category: 'misconfiguration',
  cwe_ids: ['CWE-1004', 'CWE-614', 'CWE-1275'],
  defaultPort: 443,
  recognise: (f, c) => isWeb(c.scheme) && mentions(f, /cookie.*(httponly|secure|samesite)/i),
  impact:
    'sets session cookies without the attributes that keep them from scripts (`HttpOnly`), from plain HTTP (`Secure`) and from cross-site requests (`SameSite`).',
  scenarios: [
    'A cross-site scripting flaw anywhere on {host} reads the session cookie and hands the attacker the victim’s session.',
    'Without `Secure`, the browser sends the cookie over any plain-HTTP request to {host}, where an attacker on the network can capture it.',
    'Without `SameSite`, another site makes the browser send authenticated requests to {host} (cross-site request forgery).',
  ],
  remediation: {
    summary: 'Set `HttpOnly`, `Secure` and `SameSite=Lax` (or `Strict`) on every session cookie of {host}.',
    steps: [
      'Find where the application or framework configures its session cookie (the evidence names the cookie).',
      'Enable `HttpOnly`, `Secure` (the site is served over HTTPS) and `SameSite=Lax` there, or add them at the proxy.',
      'Log in again and confirm the `Set-Cookie` header carries all three attributes.',
    ],
    code_example: `# PHP (php.ini)
session.cookie_httponly = 1
session.cookie_secure = 1
session.cookie_samesite = "Lax"

# nginx, for cookies you cannot change in the application
proxy_cookie_flags ~ httponly secure samesite=lax;`,
    references: [
      'https://cheatsheetseries.owasp.org/cheatsheets/Session_Management_Cheat_Sheet.html#cookies',
      'https://developer.mozilla.org/en-US/docs/Web/HTTP/Headers/Set-Cookie',
      cwePage(1004),
    ],
  },
};

export const httpTraceEnabled: KnowledgeEntry = {
  id: 'http-trace-enabled',
  aliases: ['http-trace', 'trace-method-enabled'],
  category: 'misconfiguration',
  cwe_ids: ['CWE-693'],
  defaultPort: 443,
  recognise: (f, c) => isWeb(c.scheme) && mentions(f, /\bTRACE\b/),
  impact: 'answers `TRACE` by echoing the request, headers included (cross-site tracing).',
  scenarios: [
    'A script able to send `TRACE` to {host} reads back headers it is not meant to see, such as `HttpOnly` cookies or credentials added by a proxy.',
  ],
  remediation: {
    summary: 'Disable the TRACE method on {host}.',
    steps: [
      'Apache: set `TraceEnable off`; nginx does not support TRACE; other servers: reject the method at the proxy.',
      'Confirm that `curl -si -X TRACE {component}` answers 405 or 403.',
    ],
    code_example: `# Apache (server config)
TraceEnable off`,
    references: ['https://httpd.apache.org/docs/2.4/mod/core.html#traceenable', cwePage(693)],
  },
};

export const httpVersionDisclosure: KnowledgeEntry = {
  id: 'http-version-disclosure',
  aliases: ['server-version-disclosure', 'x-powered-by-disclosure'],
  category: 'information-disclosure',
  cwe_ids: ['CWE-497'],
  defaultPort: 443,
  recognise: (f, c) => isWeb(c.scheme) && mentions(f, /version disclos|x-powered-by/i),
  impact: 'announces its software and exact version in the `Server` or `X-Powered-By` header.',
  scenarios: [
    'An attacker reads the version from any response of {host} and picks a matching public exploit without further probing.',
  ],
  remediation: {
    summary: 'Keep product versions out of the response headers of {host} (and keep the software current).',
    steps: [
      'Apache: `ServerTokens Prod` and `ServerSignature Off`; nginx: `server_tokens off;`.',
      'PHP: `expose_php = Off`; other frameworks: remove or overwrite `X-Powered-By` at the proxy.',
      'Confirm that `curl -sI {component}` shows no version numbers.',
    ],
    code_example: `# Apache
ServerTokens Prod
ServerSignature Off

# nginx
server_tokens off;

# php.ini
expose_php = Off`,
    references: ['https://httpd.apache.org/docs/2.4/mod/core.html#servertokens', cwePage(497)],
  },
};

export const apacheServerStatus: KnowledgeEntry = {
  id: 'apache-server-status',
  aliases: ['server-status', 'apache-server-info', 'apache-server-status-localhost'],
  category: 'information-disclosure',
  cwe_ids: ['CWE-200'],
  defaultPort: 443,
  recognise: (f, c) => isWeb(c.scheme) && mentions(f, /server-status|server-info|mod_status|mod_info/i),
  impact:
    'serves Apache’s status or configuration page to anyone: live requests with client addresses and URLs, or the full server configuration.',
  scenarios: [
    'An attacker watches {component} and collects URLs with session tokens or password-reset links that other users request.',
    'The configuration page shows modules, virtual hosts and file paths that guide further attacks on {host}.',
  ],
  remediation: {
    summary:
      'Restrict `/server-status` and `/server-info` on {host} to local or administrative addresses, or disable them.',
    steps: [
      'Remove the `<Location /server-status>` / `<Location /server-info>` blocks, or disable mod_status and mod_info.',
      'Where they are needed, allow only local or monitoring addresses with `Require ip`.',
      'Confirm that {component} answers 403 or 404 from outside.',
    ],
    code_example: `<Location "/server-status">
    SetHandler server-status
    Require local
</Location>`,
    references: ['https://httpd.apache.org/docs/2.4/mod/mod_status.html', cwePage(200)],
  },
};

export const WEB_HARDENING_ENTRIES: readonly KnowledgeEntry[] = [
  corsArbitraryOrigin,
  sessionCookieAttributes,
  httpTraceEnabled,
  httpVersionDisclosure,
  apacheServerStatus,
];
