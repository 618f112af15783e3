/**
 * Missing HSTS on HTTPS (`https-missing-hsts`), a finding of its own: the response to `GET /`
 * of an HTTPS service sends no `Strict-Transport-Security` (or `max-age=0`, which tells browsers
 * to forget it). Browsers honour HSTS from any response received over HTTPS, redirects included,
 * so a 3xx is judged too. Plain HTTP is never asked for HSTS (browsers ignore it there).
 *
 * Severity medium (CVSS 3.1 AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:L/A:N, 4.2): without HSTS, a user who
 * types the name or follows an `http://` link makes a first request over plain HTTP, which an
 * attacker on the network path can answer and keep on HTTP (SSL stripping), reading and changing
 * what the user sends; it takes that position and a user's visit, hence AC:H and UI:R.
 * CWE-319 (cleartext transmission of sensitive information).
 */
import { componentUrl } from '../net/services.ts';
import { isHttps } from '../net/service-rules.ts';
import { defineCheck } from '../check.ts';
import { getRoot } from '../net/http-get.ts';

export const HSTS_CHECK_ID = 'https-missing-hsts';

/** Whether a response over HTTPS leaves HSTS unset: no header, or `max-age=0`. */
export function lacksHsts(headers: ReadonlyMap<string, string>): boolean {
  const hsts = headers.get('strict-transport-security')?.trim() ?? '';
  const maxAge = /max-age\s*=\s*"?(\d+)"?/i.exec(hsts);
  return !maxAge || Number(maxAge[1]) === 0;
}

export const missingHstsCheck = defineCheck({
  meta: {
    id: HSTS_CHECK_ID,
    title: 'HTTPS without HTTP Strict Transport Security (HSTS)',
    severity: 'medium',
    cvssVector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:L/A:N',
    cweIds: ['CWE-319'],
    category: 'web-headers',
    remediation: HSTS_CHECK_ID,
    impact:
      'Browsers are never told to use HTTPS only: a first visit over plain HTTP (a typed name, an ' +
      'http:// link) can be intercepted on the network and kept off HTTPS (SSL stripping), ' +
      'exposing what the user sends, session cookies included.',
    upstreamIds: ['missing-hsts', 'hsts-missing', 'missing-strict-transport-security'],
    tool: 'scanward-web',
  },
  phase: 'web_analysis',
  quick: false,
  appliesTo: isHttps,
  detect: async (ctx, service) => {
    const exchange = await getRoot(ctx, service);
    const response = exchange.response;
    if (!response || !lacksHsts(response.headers)) return [];
    const sent = response.headers.get('strict-transport-security');
    return [
      {
        description:
          `The response to GET / on ${componentUrl(service)} (HTTP ${response.status}) ` +
          (sent === undefined
            ? 'sends no Strict-Transport-Security header.'
            : `sends "Strict-Transport-Security: ${sent}", which does not keep browsers on HTTPS.`),
        evidence: { request: exchange.request, response: exchange.head },
      },
    ];
  },
});
