import { cwePage, mentions, type KnowledgeEntry } from './entry.ts';

/** Web server findings: headers, files that should never be served, listings. */

const isWeb = (scheme: string | undefined) => scheme === 'http' || scheme === 'https';

export const missingSecurityHeaders: KnowledgeEntry = {
  id: 'http-missing-security-headers',
  aliases: [
    'missing-security-headers',
    'security-headers',
    'missing-csp',
    'missing-x-frame-options',
    'missing-x-content-type-options',
  ],
  category: 'web-headers',
  cwe_ids: ['CWE-693', 'CWE-1021'],
  defaultPort: 443,
  recognise: (f, c) =>
    (isWeb(c.scheme) || f.category === 'web-headers') &&
    mentions(
      f,
      /security header|strict-transport|hsts|content-security-policy|\bcsp\b|x-frame-options|x-content-type|referrer-policy|permissions-policy|clickjack/i,
    ),
  impact:
    'does not send the standard protective response headers, so browsers fall back to permissive defaults: pages can be framed by other sites, HTTPS can be downgraded on a first visit, and injected scripts meet no Content-Security-Policy.',
  scenarios: [
    'Without `X-Frame-Options` or a CSP `frame-ancestors` rule, a malicious page loads {component} in an invisible frame and tricks a signed-in user into clicking buttons they cannot see (clickjacking).',
    'Without `Strict-Transport-Security`, an attacker on a café or hotel network intercepts the first plain-HTTP request to {host} and keeps the victim on an attacker-controlled connection (SSL stripping).',
    'Without a Content-Security-Policy, any cross-site-scripting flaw on {host} can load scripts from anywhere and send data to any server.',
  ],
  playbookId: 'pb_web_security_headers',
  playbookSchemes: ['http', 'https'],
  remediation: {
    summary:
      'Send the standard security headers on every response from {host}, configured once at the web server or reverse proxy.',
    steps: [
      'Check which headers are missing on {component} with `curl -sI https://{host}/` (the finding evidence lists them).',
      'Add `Strict-Transport-Security`, `X-Content-Type-Options: nosniff`, `X-Frame-Options` (or CSP `frame-ancestors`), `Referrer-Policy` and a `Content-Security-Policy` at the server or proxy.',
      'In nginx, `add_header` is inherited only by blocks that define no `add_header` of their own; repeat the headers there, or use a shared include file.',
      'Roll out a new Content-Security-Policy as `Content-Security-Policy-Report-Only` first, then enforce it once reports are clean.',
      'Only send HSTS over HTTPS, and add `preload` only when every subdomain serves HTTPS.',
    ],
    code_example: `# nginx: server block (or an include used by every server block)
add_header Strict-Transport-Security "max-age=31536000; includeSubDomains" always;
add_header X-Content-Type-Options "nosniff" always;
add_header X-Frame-Options "SAMEORIGIN" always;
add_header Referrer-Policy "strict-origin-when-cross-origin" always;
add_header Content-Security-Policy "default-src 'self'; frame-ancestors 'self'; object-src 'none'; base-uri 'self'" always;

# Apache (a2enmod headers)
Header always set Strict-Transport-Security "max-age=31536000; includeSubDomains"
Header always set X-Content-Type-Options "nosniff"
Header always set X-Frame-Options "SAMEORIGIN"
Header always set Referrer-Policy "strict-origin-when-cross-origin"
Header always set Content-Security-Policy "default-src 'self'; frame-ancestors 'self'; object-src 'none'; base-uri 'self'"`,
    references: [
      'https://cheatsheetseries.owasp.org/cheatsheets/HTTP_Headers_Cheat_Sheet.html',
      'https://owasp.org/www-project-secure-headers/',
      'https://developer.mozilla.org/en-US/docs/Web/HTTP/Headers/Strict-Transport-Security',
      'https://developer.mozilla.org/en-US/docs/Web/HTTP/CSP',
      cwePage(693),
    ],
  },
};

const DOTFILE_BLOCK = `# nginx: refuse every dot-file and dot-directory except ACME challenges
location ~ /\\.(?!well-known/) {
    return 404;
}

# Apache
RedirectMatch 404 "/\\.(?!well-known/)"`;

export const gitConfigExposed: KnowledgeEntry = {
  id: 'git-config-exposed',
  aliases: ['git-config', 'exposed-git', 'git-exposure', 'git-repository-exposure', 'git-head-exposure'],
  category: 'information-disclosure',
  cwe_ids: ['CWE-527', 'CWE-538'],
  defaultPort: 443,
  recognise: (f, c) =>
    (isWeb(c.scheme) && /\/\.git(\/|$)/.test(c.path ?? '')) ||
    mentions(f, /\.git\/|git (config|repository|directory)/i),
  impact:
    'serves the `.git` directory of a checkout, from which the whole repository (source code, history, and any credentials ever committed) can be rebuilt.',
  scenarios: [
    'An attacker downloads {component} and the objects it points to with a tool such as git-dumper, reconstructing the source code of the site on {host}.',
    'The attacker searches the history for committed passwords, API keys and private keys, then uses them against databases and third-party services.',
    'With the source in hand, the attacker reviews it offline for injection and access-control flaws to exploit on {host}.',
  ],
  remediation: {
    summary:
      'Stop serving `/.git` on {host}, deploy without repository metadata, and rotate any secret the repository has ever contained.',
    steps: [
      'Block dot-directories at the web server (below) and reload it; {component} must answer 404 or 403.',
      'Deploy build artefacts (CI output, `git archive`) instead of a working copy, so `.git` never reaches the document root.',
      'Assume the repository was downloaded: search its history for secrets (e.g. with gitleaks or trufflehog) and rotate every credential found.',
      'Check access logs for requests to `/.git/` to learn whether and when it was fetched.',
    ],
    code_example: DOTFILE_BLOCK,
    references: [
      'https://owasp.org/www-project-web-security-testing-guide/latest/4-Web_Application_Security_Testing/02-Configuration_and_Deployment_Management_Testing/04-Review_Old_Backup_and_Unreferenced_Files_for_Sensitive_Information',
      'https://nginx.org/en/docs/http/ngx_http_core_module.html#location',
      cwePage(527),
    ],
  },
};

export const envFileExposed: KnowledgeEntry = {
  id: 'env-file-exposed',
  aliases: [
    'generic-env',
    'exposed-env',
    'dotenv-exposure',
    'laravel-env',
    'env-file-disclosure',
    'codeigniter-env',
  ],
  category: 'information-disclosure',
  cwe_ids: ['CWE-538', 'CWE-200'],
  defaultPort: 443,
  recognise: (f, c) =>
    (isWeb(c.scheme) && /\/\.env(\.|$)/.test(c.path ?? '')) ||
    mentions(f, /\.env\b|dotenv|environment file/i),
  impact:
    'serves an `.env` file, which typically holds database passwords, API keys, signing keys and cloud credentials in plain text.',
  scenarios: [
    'An attacker downloads {component}, takes the database credentials and connects to the database directly if it is reachable.',
    'Cloud or payment API keys from the file are used to spin up resources, read storage buckets or issue refunds in your name.',
    'An application signing key (for example a framework APP_KEY or JWT secret) lets the attacker forge sessions or, in some frameworks, reach code execution through forged serialized data.',
  ],
  remediation: {
    summary:
      'Remove the `.env` file from the document root on {host}, block dot-files, and rotate every secret it contained.',
    steps: [
      'Rotate every credential and key in the exposed file now; assume it was downloaded.',
      'Move the file outside the web root (frameworks read it from the project root, not the public directory) and point the document root at the public directory only.',
      'Block dot-files at the web server (below) and confirm {component} answers 404.',
      'Check access logs for requests to `/.env` and review the use of the rotated credentials for signs of misuse.',
    ],
    code_example: DOTFILE_BLOCK,
    references: [
      'https://cheatsheetseries.owasp.org/cheatsheets/Secrets_Management_Cheat_Sheet.html',
      'https://owasp.org/Top10/A05_2021-Security_Misconfiguration/',
      cwePage(538),
    ],
  },
};

export const directoryListing: KnowledgeEntry = {
  id: 'directory-listing',
  aliases: ['dir-listing', 'directory-listing-enabled', 'apache-directory-listing', 'nginx-autoindex'],
  category: 'information-disclosure',
  cwe_ids: ['CWE-548'],
  defaultPort: 443,
  recognise: (f) => mentions(f, /directory listing|dir-listing|index of \/|autoindex/i),
  impact:
    'lists the contents of directories that have no index page, so visitors can browse and download files that were never linked, such as backups, logs and configuration exports.',
  scenarios: [
    'An attacker browses {component} and downloads backup archives, database dumps or logs left in the directory.',
    'The listing reveals file names and software versions that help the attacker choose further attacks against {host}.',
  ],
  remediation: {
    summary: 'Turn off automatic directory listings on {host} and remove files that should not be public.',
    steps: [
      'nginx: remove `autoindex on;` (off is the default); Apache: use `Options -Indexes` for the document root.',
      'Review what the listing exposed under {component} and delete backups, dumps and logs from the web root.',
      'Reload the server and confirm the directory answers 403 or 404 instead of a listing.',
    ],
    code_example: `# nginx
autoindex off;

# Apache (virtual host or .htaccess)
<Directory "/var/www/html">
    Options -Indexes
</Directory>`,
    references: [
      'https://nginx.org/en/docs/http/ngx_http_autoindex_module.html',
      'https://httpd.apache.org/docs/2.4/mod/core.html#options',
      cwePage(548),
    ],
  },
};

export const missingHsts: KnowledgeEntry = {
  id: 'https-missing-hsts',
  aliases: ['missing-hsts', 'hsts-missing', 'missing-strict-transport-security', 'http-missing-hsts'],
  category: 'web-headers',
  cwe_ids: ['CWE-319'],
  defaultPort: 443,
  recognise: (f, c) =>
    (c.scheme === 'https' || f.category === 'web-headers') && mentions(f, /strict-transport|\bhsts\b/i),
  impact:
    'is served over HTTPS without HTTP Strict Transport Security, so browsers may still make the first request to it over plain HTTP, where it can be intercepted and kept off HTTPS.',
  scenarios: [
    'An attacker on a café or hotel network answers the first plain-HTTP request to {host} (a typed name, an old http:// link) and keeps the victim on an attacker-controlled HTTP connection (SSL stripping), reading credentials and session cookies.',
  ],
  playbookId: 'pb_web_security_headers',
  playbookSchemes: ['https'],
  remediation: {
    summary: 'Send `Strict-Transport-Security` with a long `max-age` on every HTTPS response of {host}.',
    steps: [
      'Check the header with `curl -sI https://{host}/ | grep -i strict-transport` (the finding evidence shows the response).',
      'Add `Strict-Transport-Security: max-age=31536000; includeSubDomains` at the web server or proxy, on every HTTPS response (use `always` in nginx so errors and redirects carry it too).',
      'Start with a short `max-age` (a day) if unsure that every subdomain serves HTTPS, then raise it; add `preload` only once they all do.',
      'Redirect plain HTTP to HTTPS, so users reach the response that carries the header.',
    ],
    code_example: `# nginx: HTTPS server block
add_header Strict-Transport-Security "max-age=31536000; includeSubDomains" always;

# Apache (a2enmod headers), HTTPS virtual host
Header always set Strict-Transport-Security "max-age=31536000; includeSubDomains"`,
    references: [
      'https://developer.mozilla.org/en-US/docs/Web/HTTP/Headers/Strict-Transport-Security',
      'https://cheatsheetseries.owasp.org/cheatsheets/HTTP_Strict_Transport_Security_Cheat_Sheet.html',
      cwePage(319),
    ],
  },
};

export const WEB_ENTRIES: readonly KnowledgeEntry[] = [
  missingHsts,
  missingSecurityHeaders,
  gitConfigExposed,
  envFileExposed,
  directoryListing,
];
