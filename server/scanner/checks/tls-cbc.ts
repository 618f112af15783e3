/**
 * CBC cipher suites, as testssl.sh judges them: BEAST (a CBC suite chosen on TLS 1.0,
 * CVE-2011-3389) and LUCKY13 (a CBC suite with HMAC chosen on any version before TLS 1.3,
 * CVE-2013-0169). Each check makes one handshake offering only CBC suites (Node's OpenSSL
 * at security level 0) and reports the protocol and suite the server chose.
 *
 * SSLv3 is not tried: the OpenSSL Node ships cannot speak it (POODLE territory; a server
 * that still accepts it also accepts TLS 1.0 in practice, and `tls-legacy-protocol` reports that).
 */
import {
  defineCheck,
  type Advisory,
  type CheckMeta,
  type DeclaredCheck,
  type PhaseContext,
} from '../check.ts';
import { ServiceConnectError } from '../net/service-connect.ts';
import { isTls } from '../net/service-rules.ts';
import type { ServiceIdentification } from '../net/services.ts';
import { handshake } from '../net/tls-handshake.ts';
import { handshakeRequest, tlsComponent, TLS_TOOL } from './tls.ts';

/**
 * Every CBC suite with an HMAC Node's OpenSSL knows (AES and Camellia; this build has no 3DES,
 * which `tls-weak-cipher` tests with raw ClientHellos): no AEAD, stream, NULL or anonymous suite.
 * (OpenSSL 3.0's `AEAD` alias does not exclude the GCM suites, hence each AEAD family by name.)
 */
export const CBC_CIPHERS = 'ALL:!AESGCM:!CHACHA20:!AESCCM:!ARIAGCM:!eNULL:!aNULL:!NULL:!RC4:@SECLEVEL=0';

interface CbcAnswer {
  request: string;
  response: string;
  /** The protocol and suite the server chose, when it chose a CBC suite. */
  chosen?: { protocol: string; cipher: string };
}

/** One handshake offering only CBC suites on the versions from `minVersion` to `maxVersion`. */
async function cbcHandshake(
  ctx: PhaseContext,
  service: ServiceIdentification,
  minVersion: 'TLSv1' | 'TLSv1.2',
  maxVersion: 'TLSv1' | 'TLSv1.2',
  versions: string,
): Promise<CbcAnswer> {
  const request = handshakeRequest(
    ctx,
    service,
    `offering ${versions} with only CBC suites (ciphers ${CBC_CIPHERS})`,
  );
  try {
    const result = await handshake(ctx, service, { minVersion, maxVersion, ciphers: CBC_CIPHERS });
    const response = `ServerHello ${result.protocol ?? 'unknown'}, cipher ${result.cipher}`;
    // Only CBC suites were offered; a server that answers with anything else broke the protocol.
    if (!result.protocol || /GCM|CHACHA|CCM|RC4|NULL/i.test(result.cipher)) return { request, response };
    return {
      request,
      response: `accepted: ${response}`,
      chosen: { protocol: result.protocol, cipher: result.cipher },
    };
  } catch (error) {
    // A refused connection or upgrade means the port was not tested: let the runner record no coverage.
    if (!(error instanceof ServiceConnectError) || error.stage !== 'tls') throw error;
    return { request, response: `refused (${error.code})` };
  }
}

/**
 * The published vulnerability a CBC check's finding names: the check's own metadata, with the
 * CVE in `cve_ids` (`defineCheck` takes CVE ids from an advisory; its id is the check's, so the
 * finding keeps the check's identity and correlation keeps it apart from CVE-keyed findings).
 */
function namedCve(meta: CheckMeta, cve: string): Advisory {
  return {
    id: meta.id,
    title: meta.title,
    severity: meta.severity,
    cvssVector: meta.cvssVector,
    cweIds: meta.cweIds,
    cveIds: [cve],
  };
}

export const BEAST_CVE = 'CVE-2011-3389';
export const LUCKY13_CVE = 'CVE-2013-0169';

const BEAST_META: CheckMeta = {
  id: 'tls-cbc-beast',
  title: 'TLS 1.0 service accepts CBC cipher suites (BEAST)',
  severity: 'medium',
  cvssVector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:H/I:N/A:N',
  cweIds: ['CWE-327', 'CWE-757'],
  category: 'tls',
  remediation: 'tls-weak-cipher',
  impact:
    'On TLS 1.0 the CBC initialisation vector of each record is predictable, so an attacker who can run ' +
    'script in the victim’s browser and watch the traffic can recover secrets such as session cookies (BEAST).',
  // nuclei's weak-cipher-suites: TLS 1.0 with AES-CBC suites, the same weakness.
  upstreamIds: ['weak-cipher-suites'],
  tool: TLS_TOOL,
};

export const tlsBeastCheck = defineCheck({
  meta: BEAST_META,
  phase: 'web_analysis',
  quick: false,
  appliesTo: isTls,
  detect: async (ctx, service) => {
    const answer = await cbcHandshake(ctx, service, 'TLSv1', 'TLSv1', 'only TLS 1.0');
    if (!answer.chosen || answer.chosen.protocol !== 'TLSv1') return [];
    return [
      {
        detail: answer.chosen.cipher,
        advisory: namedCve(BEAST_META, BEAST_CVE),
        description:
          `${tlsComponent(service)} chose the CBC suite ${answer.chosen.cipher} on TLS 1.0, whose predictable ` +
          `initialisation vectors make it vulnerable to BEAST (${BEAST_CVE}).`,
        evidence: { request: answer.request, response: answer.response },
      },
    ];
  },
});

const LUCKY13_META: CheckMeta = {
  id: 'tls-cbc-lucky13',
  title: 'TLS service accepts CBC cipher suites (LUCKY13)',
  severity: 'low',
  cvssVector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N',
  cweIds: ['CWE-327', 'CWE-385'],
  category: 'tls',
  remediation: 'tls-weak-cipher',
  impact:
    'MAC-then-encrypt CBC suites leak timing through their padding check: where the TLS library is not ' +
    'constant-time, an attacker on the path can recover plaintext such as cookies (LUCKY13). Patched ' +
    'libraries resist it, which is why this is only potentially vulnerable, as testssl.sh says.',
  tool: TLS_TOOL,
};

export const tlsLucky13Check = defineCheck({
  meta: LUCKY13_META,
  phase: 'web_analysis',
  quick: false,
  appliesTo: isTls,
  detect: async (ctx, service) => {
    const answer = await cbcHandshake(ctx, service, 'TLSv1', 'TLSv1.2', 'TLS 1.0 to 1.2');
    if (!answer.chosen) return [];
    return [
      {
        detail: answer.chosen.cipher,
        advisory: namedCve(LUCKY13_META, LUCKY13_CVE),
        description:
          `${tlsComponent(service)} chose the CBC suite ${answer.chosen.cipher} on ${answer.chosen.protocol.replace('TLSv', 'TLS ')} ` +
          `when a client offered only CBC suites: its MAC-then-encrypt padding is what LUCKY13 (${LUCKY13_CVE}) ` +
          'times. Whether the library is patched against it cannot be seen from the network.',
        evidence: { request: answer.request, response: answer.response },
      },
    ];
  },
});

export const tlsCbcChecks: DeclaredCheck[] = [tlsBeastCheck, tlsLucky13Check];
