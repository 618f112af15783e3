/**
 * Web checks on the crawled pages (web-crawl.ts) and a few targeted requests: CORS that
 * reflects any `Origin` with credentials, session cookies without `HttpOnly`, `Secure` (on
 * HTTPS) or `SameSite`, `TRACE` answered with the request echoed, product versions in
 * `Server`/`X-Powered-By`, and Apache's `server-status`/`server-info` pages.
 */
import { randomBytes } from 'node:crypto';
import { componentUrl } from '../net/services.ts';
import { renderBytes } from '../net/probe-session.ts';
import { isHttp } from '../net/service-rules.ts';
import { defineCheck, type DeclaredCheck, type Found } from '../check.ts';
import { isTlsService } from '../net/http-exchange.ts';
import { crawl } from '../net/web-crawl.ts';
import { getRoot, httpGet, type HttpExchange } from '../net/http-get.ts';

const TOOL = 'scanward-web';
const NETWORK = 'CVSS:3.1/AV:N';

// ---------------------------------------------------------------------------------------
// CORS

/** An origin no site owns (`.invalid` is reserved), so a reflection of it is a reflection of anything. */
export const PROBE_ORIGIN = 'https://scanward-cors-probe.invalid';
/** Most pages probed with an `Origin` header besides the home page (JSON answers first). */
const CORS_PAGES = 4;

/** The response lets `origin` read it with the visitor's credentials. */
export function reflectsOriginWithCredentials(exchange: HttpExchange, origin: string): boolean {
  const headers = exchange.response?.headers;
  if (!headers) return false;
  return (
    headers.get('access-control-allow-origin')?.trim() === origin &&
    headers.get('access-control-allow-credentials')?.trim().toLowerCase() === 'true'
  );
}

export const corsCheck = defineCheck({
  meta: {
    id: 'cors-arbitrary-origin-credentials',
    title: 'CORS allows any origin to read responses with credentials',
    severity: 'high',
    cvssVector: `${NETWORK}/AC:L/PR:N/UI:R/S:U/C:H/I:L/A:N`,
    cweIds: ['CWE-942'],
    category: 'misconfiguration',
    remediation: 'cors-arbitrary-origin-credentials',
    impact:
      "Any web site a logged-in user visits can read this service's responses with the user's cookies " +
      '(account data, CSRF tokens, API answers) and act on them.',
    upstreamIds: ['cors-misconfig'],
    tool: TOOL,
  },
  phase: 'web_analysis',
  quick: false,
  appliesTo: isHttp,
  detect: async (ctx, service) => {
    const pages = await crawl(ctx, service);
    const json = pages.filter((p) => /json/i.test(p.exchange.response?.headers.get('content-type') ?? ''));
    const paths = [...new Set(['/', ...json.map((p) => p.path), ...pages.map((p) => p.path)])].slice(
      0,
      CORS_PAGES + 1,
    );
    for (const path of paths) {
      const exchange = await httpGet(ctx, service, path, { headers: { Origin: PROBE_ORIGIN } });
      if (!reflectsOriginWithCredentials(exchange, PROBE_ORIGIN)) continue;
      return [
        {
          path,
          description:
            `${componentUrl(service)}${path} answers a request from Origin ${PROBE_ORIGIN} with ` +
            `Access-Control-Allow-Origin: ${PROBE_ORIGIN} and Access-Control-Allow-Credentials: true: ` +
            'the origin is reflected, whatever it is.',
          evidence: { request: exchange.request, response: exchange.head },
        },
      ];
    }
    return [];
  },
});

// ---------------------------------------------------------------------------------------
// Session cookies

/** Cookie names that carry a session or a login. */
const SESSION_NAME = /(sess|sid$|^sid|auth|token|jwt|login|remember|connect\.sid|identity)/i;

export interface CookieWeakness {
  name: string;
  missing: ('HttpOnly' | 'Secure' | 'SameSite')[];
  header: string;
}

/** The session cookies among `Set-Cookie` headers and the attributes each lacks (`Secure` only over TLS). */
export function weakSessionCookies(setCookies: string[], tls: boolean): CookieWeakness[] {
  const weak: CookieWeakness[] = [];
  for (const header of setCookies) {
    const [pair, ...attributes] = header.split(';').map((part) => part.trim());
    const name = (pair ?? '').split('=')[0]?.trim() ?? '';
    if (!name || !SESSION_NAME.test(name)) continue;
    const has = (attr: string) => attributes.some((a) => a.toLowerCase().split('=')[0]?.trim() === attr);
    // An expired cookie is a deletion, not a session.
    if (attributes.some((a) => /^max-age\s*=\s*0$/i.test(a))) continue;
    const missing: CookieWeakness['missing'] = [];
    if (!has('httponly')) missing.push('HttpOnly');
    if (tls && !has('secure')) missing.push('Secure');
    const sameSite = attributes.find((a) => a.toLowerCase().startsWith('samesite'));
    if (!sameSite || /=\s*none/i.test(sameSite)) missing.push('SameSite');
    if (missing.length > 0) weak.push({ name, missing, header });
  }
  return weak;
}

const COOKIE_CWES: Record<CookieWeakness['missing'][number], string> = {
  HttpOnly: 'CWE-1004',
  Secure: 'CWE-614',
  SameSite: 'CWE-1275',
};

/** A `Set-Cookie` value with the cookie's value hidden. */
export function redactCookie(header: string): string {
  return header.replace(/^([^=;]*)=([^;]*)/, (_m, name: string) => `${name}=***`);
}

export const sessionCookieCheck = defineCheck({
  meta: {
    id: 'session-cookie-attributes',
    title: 'Session cookie without protective attributes',
    severity: 'medium',
    cvssVector: `${NETWORK}/AC:H/PR:N/UI:R/S:U/C:H/I:L/A:N`,
    cweIds: ['CWE-1004', 'CWE-614', 'CWE-1275'],
    category: 'misconfiguration',
    remediation: 'session-cookie-attributes',
    impact:
      'Scripts can read the session cookie, browsers send it over plain HTTP, or other sites make browsers ' +
      'send it with forged requests, depending on the attributes missing.',
    upstreamIds: ['cookies-without-httponly', 'cookies-without-secure'],
    tool: TOOL,
    variants: {
      // SameSite alone is CSRF hardening.
      'samesite-only': {
        severity: 'low',
        cvssVector: `${NETWORK}/AC:H/PR:N/UI:R/S:U/C:N/I:L/A:N`,
        cweIds: ['CWE-1275'],
      },
    },
  },
  phase: 'web_analysis',
  quick: false,
  appliesTo: isHttp,
  detect: async (ctx, service) => {
    const tls = isTlsService(service);
    const byName = new Map<string, { weakness: CookieWeakness; path: string; exchange: HttpExchange }>();
    for (const page of await crawl(ctx, service)) {
      for (const weakness of weakSessionCookies(page.exchange.setCookies, tls)) {
        if (!byName.has(weakness.name))
          byName.set(weakness.name, { weakness, path: page.path, exchange: page.exchange });
      }
    }
    const [first, ...more] = [...byName.values()];
    if (!first) return [];
    const found = [first, ...more];
    const missing = new Set(found.flatMap((f) => f.weakness.missing));
    // Script access or clear-text sending of the session is a hijack away; SameSite alone is CSRF hardening.
    const severe = missing.has('HttpOnly') || missing.has('Secure');
    const cookie: Found<'samesite-only'> = {
      detail: [...missing].join(', '),
      cweIds: [...missing].map((m) => COOKIE_CWES[m]),
      description:
        `${componentUrl(service)} sets session cookie(s) ` +
        found
          .map((f) => `${f.weakness.name} (on ${f.path}, without ${f.weakness.missing.join(', ')})`)
          .join('; ') +
        '.',
      impact: [
        ...(missing.has('HttpOnly')
          ? ['Any script injected into the site can read the session cookie.']
          : []),
        ...(missing.has('Secure')
          ? ['The browser also sends it over plain HTTP, where it can be captured.']
          : []),
        ...(missing.has('SameSite')
          ? ['Other sites can make the browser send it with forged requests (CSRF).']
          : []),
      ].join(' '),
      evidence: {
        request: first.exchange.request,
        response: found.map((f) => `Set-Cookie: ${redactCookie(f.weakness.header)}`).join('\n'),
      },
    };
    return [severe ? cookie : { ...cookie, variant: 'samesite-only' }];
  },
});

// ---------------------------------------------------------------------------------------
// TRACE

export const traceCheck = defineCheck({
  meta: {
    id: 'http-trace-enabled',
    title: 'HTTP TRACE method enabled',
    severity: 'low',
    cvssVector: `${NETWORK}/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N`,
    cweIds: ['CWE-693'],
    category: 'misconfiguration',
    remediation: 'http-trace-enabled',
    impact:
      'A script that can send TRACE (cross-site tracing) reads back headers it cannot otherwise see, such as ' +
      'HttpOnly cookies and authorization headers added by proxies.',
    upstreamIds: ['http-trace'],
    tool: TOOL,
  },
  phase: 'web_analysis',
  quick: false,
  appliesTo: isHttp,
  detect: async (ctx, service) => {
    const marker = randomBytes(8).toString('hex');
    const exchange = await httpGet(ctx, service, '/', {
      method: 'TRACE',
      headers: { 'X-Scanward-Trace': marker },
    });
    const response = exchange.response;
    if (!response || response.status !== 200 || !response.body.toString('latin1').includes(marker)) return [];
    return [
      {
        path: '/',
        description: `${componentUrl(service)} answers TRACE / with 200 and echoes the request, headers included.`,
        evidence: {
          request: exchange.request,
          response: `${exchange.head}\n\n${renderBytes(response.body, 1024)}`,
        },
      },
    ];
  },
});

// ---------------------------------------------------------------------------------------
// Version disclosure

/** `Server`/`X-Powered-By` values that carry a version number. */
export function disclosedVersions(exchange: HttpExchange): string[] {
  const headers = exchange.response?.headers;
  if (!headers) return [];
  return (['server', 'x-powered-by'] as const)
    .map((name) => [name, headers.get(name)] as const)
    .filter(([, value]) => value !== undefined && /\d+\.\d+/.test(value))
    .map(([name, value]) => `${name === 'server' ? 'Server' : 'X-Powered-By'}: ${value}`);
}

export const versionDisclosureCheck = defineCheck({
  meta: {
    id: 'http-version-disclosure',
    title: 'Software version disclosed in HTTP headers',
    severity: 'low',
    // Information that speeds an attack up, not a weakness by itself.
    cvssVector: `${NETWORK}/AC:H/PR:N/UI:N/S:U/C:L/I:N/A:N`,
    cweIds: ['CWE-497'],
    category: 'information-disclosure',
    remediation: 'http-version-disclosure',
    impact:
      'Attackers match the exact version against known vulnerabilities and exploits without probing further.',
    tool: TOOL,
  },
  phase: 'web_analysis',
  quick: true,
  appliesTo: isHttp,
  detect: async (ctx, service) => {
    const exchange = await getRoot(ctx, service);
    const disclosed = disclosedVersions(exchange);
    if (disclosed.length === 0) return [];
    return [
      {
        detail: disclosed.join('; '),
        description: `${componentUrl(service)} announces its software and version: ${disclosed.join('; ')}.`,
        evidence: { request: exchange.request, response: exchange.head },
      },
    ];
  },
});

// ---------------------------------------------------------------------------------------
// server-status / server-info

const STATUS_PAGES = [
  {
    path: '/server-status',
    marker: /Apache Server Status for|<title>Apache Status<\/title>/i,
    what: 'mod_status',
  },
  {
    path: '/server-info',
    marker: /Apache Server Information|<title>Server Information<\/title>/i,
    what: 'mod_info',
  },
] as const;

export const serverStatusCheck = defineCheck({
  meta: {
    id: 'apache-server-status',
    title: 'Apache status page exposed',
    severity: 'medium',
    cvssVector: `${NETWORK}/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N`,
    cweIds: ['CWE-200'],
    category: 'information-disclosure',
    remediation: 'apache-server-status',
    impact:
      'It lists the requests being served right now (client addresses, virtual hosts, URLs with their ' +
      'query strings and tokens) and the server version and uptime.',
    upstreamIds: ['apache-server-status', 'server-status'],
    tool: TOOL,
  },
  phase: 'web_analysis',
  quick: false,
  appliesTo: isHttp,
  detect: async (ctx, service) => {
    const found: Found[] = [];
    for (const page of STATUS_PAGES) {
      const exchange = await httpGet(ctx, service, page.path);
      const response = exchange.response;
      if (!response || response.status !== 200 || !page.marker.test(response.body.toString('utf8'))) continue;
      found.push({
        path: page.path,
        detail: `${page.what}: ${page.path}`,
        description: `${componentUrl(service)}${page.path} serves Apache's ${page.what} page to anyone.`,
        ...(page.what === 'mod_info' && {
          impact:
            'It lists the full server configuration: modules, virtual hosts, file paths and directives.',
        }),
        evidence: {
          request: exchange.request,
          response: `${exchange.head}\n\n${renderBytes(response.body, 1024)}`,
        },
      });
    }
    return found;
  },
});

export const webHardeningChecks: DeclaredCheck[] = [
  corsCheck,
  sessionCookieCheck,
  traceCheck,
  versionDisclosureCheck,
  serverStatusCheck,
];
