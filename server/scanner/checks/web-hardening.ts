/**
 * Web checks on the crawled pages (web-crawl.ts) and a few targeted requests: CORS that
 * reflects any `Origin` with credentials, session cookies without `HttpOnly`, `Secure` (on
 * HTTPS) or `SameSite`, `TRACE` answered with the request echoed, product versions in
 * `Server`/`X-Powered-By`, and Apache's `server-status`/`server-info` pages.
 */
import { randomBytes } from 'node:crypto';
import { componentUrl, type ServiceIdentification } from '../net/services.ts';
import { renderBytes } from '../net/probe-session.ts';
import type { Detection, PhaseContext } from '../types.ts';
import type { Check } from '../check.ts';
import { isTlsService } from '../net/http-exchange.ts';
import { hostTarget } from '../net/service-connect.ts';
import { crawl } from '../net/web-crawl.ts';
import { getRoot, httpGet, type HttpExchange } from '../net/http-get.ts';

const TOOL = 'scanward-web';
const NETWORK = 'CVSS:3.1/AV:N';
const isWeb = (service: ServiceIdentification): boolean =>
  service.service === 'http' || service.service === 'https';

type Fields = Pick<
  Detection,
  'check_id' | 'title' | 'severity' | 'cvss_vector' | 'category' | 'cwe_ids' | 'description' | 'impact'
>;

function detection(
  ctx: PhaseContext,
  service: ServiceIdentification,
  path: string | undefined,
  fields: Fields,
  evidence: { request: string; response: string },
  upstreamIds: string[],
): Detection {
  return {
    ...fields,
    evidence: { ...evidence, screenshot_url: null },
    upstream_ids: upstreamIds,
    target: hostTarget(ctx, service),
    affected_component: `${componentUrl(service)}${path ?? ''}`,
    port: service.port,
    tool: TOOL,
    cve_ids: [],
  };
}

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

const CORS_UPSTREAM = ['cors-misconfig'];

export const corsCheck: Check = {
  id: 'cors-arbitrary-origin-credentials',
  upstreamIds: CORS_UPSTREAM,
  phase: 'web_analysis',
  quick: false,
  category: 'misconfiguration',
  cweIds: ['CWE-942'],
  appliesTo: isWeb,
  run: async (ctx, service) => {
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
        detection(
          ctx,
          service,
          path,
          {
            check_id: 'cors-arbitrary-origin-credentials',
            title: 'CORS allows any origin to read responses with credentials',
            severity: 'high',
            cvss_vector: `${NETWORK}/AC:L/PR:N/UI:R/S:U/C:H/I:L/A:N`,
            category: 'misconfiguration',
            cwe_ids: ['CWE-942'],
            description:
              `${componentUrl(service)}${path} answers a request from Origin ${PROBE_ORIGIN} with ` +
              `Access-Control-Allow-Origin: ${PROBE_ORIGIN} and Access-Control-Allow-Credentials: true: ` +
              'the origin is reflected, whatever it is.',
            impact:
              "Any web site a logged-in user visits can read this service's responses with the user's cookies " +
              '(account data, CSRF tokens, API answers) and act on them.',
          },
          { request: exchange.request, response: exchange.head },
          CORS_UPSTREAM,
        ),
      ];
    }
    return [];
  },
};

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

const COOKIE_UPSTREAM = ['cookies-without-httponly', 'cookies-without-secure'];
const COOKIE_CWES: Record<CookieWeakness['missing'][number], string> = {
  HttpOnly: 'CWE-1004',
  Secure: 'CWE-614',
  SameSite: 'CWE-1275',
};

/** A `Set-Cookie` value with the cookie's value hidden. */
export function redactCookie(header: string): string {
  return header.replace(/^([^=;]*)=([^;]*)/, (_m, name: string) => `${name}=***`);
}

export const sessionCookieCheck: Check = {
  id: 'session-cookie-attributes',
  upstreamIds: COOKIE_UPSTREAM,
  phase: 'web_analysis',
  quick: false,
  category: 'misconfiguration',
  cweIds: ['CWE-1004', 'CWE-614', 'CWE-1275'],
  appliesTo: isWeb,
  run: async (ctx, service) => {
    const tls = isTlsService(service);
    const byName = new Map<string, { weakness: CookieWeakness; path: string; exchange: HttpExchange }>();
    for (const page of await crawl(ctx, service)) {
      for (const weakness of weakSessionCookies(page.exchange.setCookies, tls)) {
        if (!byName.has(weakness.name))
          byName.set(weakness.name, { weakness, path: page.path, exchange: page.exchange });
      }
    }
    if (byName.size === 0) return [];
    const found = [...byName.values()];
    const missing = new Set(found.flatMap((f) => f.weakness.missing));
    // Script access or clear-text sending of the session is a hijack away; SameSite alone is CSRF hardening.
    const severe = missing.has('HttpOnly') || missing.has('Secure');
    const first = found[0]!;
    return [
      detection(
        ctx,
        service,
        undefined,
        {
          check_id: 'session-cookie-attributes',
          title: `Session cookie without ${[...missing].join(', ')}`,
          severity: severe ? 'medium' : 'low',
          cvss_vector: severe
            ? `${NETWORK}/AC:H/PR:N/UI:R/S:U/C:H/I:L/A:N`
            : `${NETWORK}/AC:H/PR:N/UI:R/S:U/C:N/I:L/A:N`,
          category: 'misconfiguration',
          cwe_ids: [...missing].map((m) => COOKIE_CWES[m]),
          description:
            `${componentUrl(service)} sets session cookie(s) ` +
            found
              .map((f) => `${f.weakness.name} (on ${f.path}, without ${f.weakness.missing.join(', ')})`)
              .join('; ') +
            '.',
          impact:
            (missing.has('HttpOnly')
              ? 'Any script injected into the site can read the session cookie. '
              : '') +
            (missing.has('Secure')
              ? 'The browser also sends it over plain HTTP, where it can be captured. '
              : '') +
            (missing.has('SameSite')
              ? 'Other sites can make the browser send it with forged requests (CSRF).'
              : ''),
        },
        {
          request: first.exchange.request,
          response: found.map((f) => `Set-Cookie: ${redactCookie(f.weakness.header)}`).join('\n'),
        },
        COOKIE_UPSTREAM,
      ),
    ];
  },
};

// ---------------------------------------------------------------------------------------
// TRACE

const TRACE_UPSTREAM = ['http-trace'];

export const traceCheck: Check = {
  id: 'http-trace-enabled',
  upstreamIds: TRACE_UPSTREAM,
  phase: 'web_analysis',
  quick: false,
  category: 'misconfiguration',
  cweIds: ['CWE-693'],
  appliesTo: isWeb,
  run: async (ctx, service) => {
    const marker = randomBytes(8).toString('hex');
    const exchange = await httpGet(ctx, service, '/', {
      method: 'TRACE',
      headers: { 'X-Scanward-Trace': marker },
    });
    const response = exchange.response;
    if (!response || response.status !== 200 || !response.body.toString('latin1').includes(marker)) return [];
    return [
      detection(
        ctx,
        service,
        '/',
        {
          check_id: 'http-trace-enabled',
          title: 'HTTP TRACE method enabled',
          severity: 'low',
          cvss_vector: `${NETWORK}/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N`,
          category: 'misconfiguration',
          cwe_ids: ['CWE-693'],
          description: `${componentUrl(service)} answers TRACE / with 200 and echoes the request, headers included.`,
          impact:
            'A script that can send TRACE (cross-site tracing) reads back headers it cannot otherwise see, such as ' +
            'HttpOnly cookies and authorization headers added by proxies.',
        },
        { request: exchange.request, response: `${exchange.head}\n\n${renderBytes(response.body, 1024)}` },
        TRACE_UPSTREAM,
      ),
    ];
  },
};

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

export const versionDisclosureCheck: Check = {
  id: 'http-version-disclosure',
  upstreamIds: [],
  phase: 'web_analysis',
  quick: true,
  category: 'information-disclosure',
  cweIds: ['CWE-497'],
  appliesTo: isWeb,
  run: async (ctx, service) => {
    const exchange = await getRoot(ctx, service);
    const disclosed = disclosedVersions(exchange);
    if (disclosed.length === 0) return [];
    return [
      detection(
        ctx,
        service,
        undefined,
        {
          check_id: 'http-version-disclosure',
          title: `Software version disclosed in HTTP headers (${disclosed.join('; ')})`,
          severity: 'low',
          cvss_vector: `${NETWORK}/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N`,
          category: 'information-disclosure',
          cwe_ids: ['CWE-497'],
          description: `${componentUrl(service)} announces its software and version: ${disclosed.join('; ')}.`,
          impact:
            'Attackers match the exact version against known vulnerabilities and exploits without probing further.',
        },
        { request: exchange.request, response: exchange.head },
        [],
      ),
    ];
  },
};

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

const STATUS_UPSTREAM = ['apache-server-status', 'server-status'];

export const serverStatusCheck: Check = {
  id: 'apache-server-status',
  upstreamIds: STATUS_UPSTREAM,
  phase: 'web_analysis',
  quick: false,
  category: 'information-disclosure',
  cweIds: ['CWE-200'],
  appliesTo: isWeb,
  run: async (ctx, service) => {
    const detections: Detection[] = [];
    for (const page of STATUS_PAGES) {
      const exchange = await httpGet(ctx, service, page.path);
      const response = exchange.response;
      if (!response || response.status !== 200 || !page.marker.test(response.body.toString('utf8'))) continue;
      detections.push(
        detection(
          ctx,
          service,
          page.path,
          {
            check_id: 'apache-server-status',
            title: `Apache ${page.what} page exposed: ${page.path}`,
            severity: 'medium',
            cvss_vector: `${NETWORK}/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N`,
            category: 'information-disclosure',
            cwe_ids: ['CWE-200'],
            description: `${componentUrl(service)}${page.path} serves Apache's ${page.what} page to anyone.`,
            impact:
              page.what === 'mod_status'
                ? 'It lists the requests being served right now (client addresses, virtual hosts, URLs with their ' +
                  'query strings and tokens) and the server version and uptime.'
                : 'It lists the full server configuration: modules, virtual hosts, file paths and directives.',
          },
          { request: exchange.request, response: `${exchange.head}\n\n${renderBytes(response.body, 1024)}` },
          STATUS_UPSTREAM,
        ),
      );
    }
    return detections;
  },
};

export const webHardeningChecks: Check[] = [
  corsCheck,
  sessionCookieCheck,
  traceCheck,
  versionDisclosureCheck,
  serverStatusCheck,
];
