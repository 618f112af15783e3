/**
 * More TLS checks of the `web_analysis` phase, beside those in `tls.ts`:
 *
 * - weak cipher suites (NULL, EXPORT, RC4, 3DES), learned with a raw ClientHello per family
 *   (`net/tls-hello.ts`), since Node's OpenSSL no longer implements most of them;
 * - certificate facts read from the shared certificate handshake: an RSA key under 2048
 *   bits, a certificate not valid yet, names that do not match the scan's DNS target or
 *   address (or no subject alternative name at all), and a chain the server left incomplete.
 */
import type { Socket } from 'node:net';
import { checkServerIdentity } from 'node:tls';
import type { ServiceIdentification } from '../net/services.ts';
import {
  buildClientHello,
  parseServerAnswer,
  recordComplete,
  versionName,
  WEAK_SUITE_FAMILIES,
  type WeakSuiteFamily,
} from '../net/tls-hello.ts';
import { coverPort, defineCheck, type DeclaredCheck, type PhaseContext } from '../check.ts';
import { connectService, serverName, ServiceConnectError } from '../net/service-connect.ts';
import { isTls } from '../net/service-rules.ts';
import { certificateHandshake } from '../net/tls-handshake.ts';
import { startTlsOf } from '../net/starttls.ts';
import {
  chainIncomplete,
  certificateEvidence,
  distinguishedName,
  handshakeRequest,
  presentedChain,
  tlsComponent,
  TLS_TOOL,
} from './tls.ts';
import { tlsCbcChecks } from './tls-cbc.ts';

const NETWORK = 'CVSS:3.1/AV:N/AC:H/PR:N';
/** Longest wait for the server's answer to one ClientHello. */
const HELLO_TIMEOUT_MS = 5_000;

/** Sends `hello` (after STARTTLS where the service needs it) and reads the server's first record (or whatever came before it closed). */
async function helloExchange(
  ctx: PhaseContext,
  service: ServiceIdentification,
  hello: Buffer,
): Promise<Buffer> {
  const socket: Socket = await connectService(ctx, service, {
    timeoutMs: HELLO_TIMEOUT_MS,
    starttls: startTlsOf(service),
  });
  try {
    return await new Promise<Buffer>((resolve, reject) => {
      let data = Buffer.alloc(0);
      const finish = (): void => {
        clearTimeout(timer);
        ctx.signal.removeEventListener('abort', onAbort);
        resolve(data);
      };
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(ctx.signal.reason);
      };
      const timer = setTimeout(finish, HELLO_TIMEOUT_MS);
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      socket.on('data', (chunk: Buffer) => {
        data = Buffer.concat([data, chunk]).subarray(0, 64 * 1024);
        if (recordComplete(data)) finish();
      });
      socket.once('close', finish);
      socket.write(hello);
    });
  } finally {
    socket.destroy();
  }
}

const ALERTS: Record<number, string> = {
  40: 'handshake_failure',
  70: 'protocol_version',
  71: 'insufficient_security',
};

export const tlsWeakCipherSuitesCheck = defineCheck({
  meta: {
    id: 'tls-weak-cipher',
    title: 'TLS service accepts weak cipher suites',
    severity: 'high',
    cvssVector: `${NETWORK}/UI:N/S:U/C:H/I:H/A:N`,
    cweIds: ['CWE-327', 'CWE-326'],
    category: 'tls',
    remediation: 'tls-weak-cipher',
    impact:
      'An attacker who can steer or wait for a client that offers these suites (old libraries, downgrade ' +
      'attacks) can read, and with NULL or EXPORT suites also change, the traffic.',
    // nuclei's insecure-cipher-suite-detect offers NULL, EXPORT, RC4 and DES suites: this weakness. Its
    // weak-cipher-suites (TLS 1.0/1.1 with AES-CBC and the like) is BEAST's, in tls-cbc.ts.
    upstreamIds: ['insecure-cipher-suite-detect'],
    tool: TLS_TOOL,
    variants: {
      // RC4 and 3DES: the traffic can be read, not changed.
      'read-only': { severity: 'medium', cvssVector: `${NETWORK}/UI:N/S:U/C:H/I:N/A:N` },
    },
  },
  phase: 'web_analysis',
  quick: false,
  appliesTo: isTls,
  detect: async (ctx, service) => {
    const name = serverName(ctx, service);
    const requests: string[] = [];
    const answers: string[] = [];
    const accepted: { family: WeakSuiteFamily; suite: string }[] = [];
    for (const family of WEAK_SUITE_FAMILIES) {
      const suites = Object.keys(family.suites).map(Number);
      requests.push(
        handshakeRequest(ctx, service, `TLS 1.2, offering only the ${suites.length} ${family.name} suites`),
      );
      let answer;
      try {
        answer = parseServerAnswer(await helloExchange(ctx, service, buildClientHello(suites, name)));
      } catch (error) {
        // A refused connection or upgrade means the port was not tested: let the runner record no coverage.
        if (!(error instanceof ServiceConnectError) || error.stage !== 'tls') throw error;
        answers.push(`${family.name}: refused (${error.code})`);
        continue;
      }
      const chosen = answer.kind === 'server-hello' ? family.suites[answer.suite] : undefined;
      if (answer.kind === 'server-hello' && chosen) {
        accepted.push({ family, suite: chosen });
        answers.push(`${family.name}: accepted (ServerHello ${versionName(answer.version)}, ${chosen})`);
      } else if (answer.kind === 'alert') {
        answers.push(`${family.name}: refused (alert ${ALERTS[answer.description] ?? answer.description})`);
      } else {
        answers.push(
          `${family.name}: refused (${answer.kind === 'server-hello' ? 'chose a suite not offered' : 'no ServerHello'})`,
        );
      }
    }
    if (accepted.length === 0) return [];
    const high = accepted.some((a) => a.family.severity === 'high');
    const names = accepted.map((a) => a.family.name).join(', ');
    return [
      {
        ...(!high && { variant: 'read-only' as const }),
        detail: names,
        description:
          `${tlsComponent(service)} chose a weak cipher suite when a client offered nothing better: ` +
          accepted.map((a) => `${a.suite} (${a.family.name}: ${a.family.meaning})`).join('; ') +
          '.',
        evidence: { request: requests.join('\n'), response: answers.join('\n') },
      },
    ];
  },
});

export const tlsWeakKeyCheck = defineCheck({
  meta: {
    id: 'tls-certificate-weak-key',
    title: 'TLS certificate has an RSA key under 2048 bits',
    severity: 'medium',
    cvssVector: `${NETWORK}/UI:N/S:U/C:H/I:L/A:N`,
    cweIds: ['CWE-326'],
    category: 'tls',
    remediation: 'tls-certificate-weak-key',
    impact:
      'A key this short is within reach of a well-funded attacker (512-bit keys of anyone): with the private ' +
      'key, the server can be impersonated and, without forward secrecy, recorded traffic decrypted.',
    tool: TLS_TOOL,
    variants: {
      // Under 1024 bits: factored by anyone.
      broken: { severity: 'high', cvssVector: `${NETWORK}/UI:N/S:U/C:H/I:H/A:N` },
    },
  },
  phase: 'web_analysis',
  quick: true,
  appliesTo: isTls,
  detect: async (ctx, service) => {
    const result = await certificateHandshake(ctx, service);
    const cert = result.certificate;
    if (!cert || !cert.modulus || !cert.bits || cert.bits >= 2048) return [];
    return [
      {
        ...(cert.bits < 1024 && { variant: 'broken' as const }),
        detail: `${cert.bits} bits`,
        description:
          `${tlsComponent(service)} presents a certificate for ${distinguishedName(cert.subject)} whose RSA key ` +
          `has ${cert.bits} bits; NIST SP 800-131A and the CA/Browser Forum require at least 2048.`,
        evidence: certificateEvidence(ctx, service, result),
      },
    ];
  },
});

export const tlsNotYetValidCheck = defineCheck({
  meta: {
    id: 'tls-certificate-not-yet-valid',
    title: 'TLS certificate is not valid yet',
    severity: 'medium',
    cvssVector: `${NETWORK}/UI:R/S:U/C:L/I:L/A:L`,
    cweIds: ['CWE-298'],
    category: 'tls',
    remediation: 'tls-certificate-not-yet-valid',
    impact:
      'Clients refuse the connection until that date, or users are taught to click through certificate ' +
      'warnings; a start date in the future also often means the server’s clock or the issuing process is wrong.',
    tool: TLS_TOOL,
  },
  phase: 'web_analysis',
  quick: true,
  appliesTo: isTls,
  detect: async (ctx, service) => {
    const result = await certificateHandshake(ctx, service);
    const cert = result.certificate;
    const notBefore = cert ? new Date(cert.valid_from) : undefined;
    if (!cert || !notBefore || Number.isNaN(notBefore.getTime()) || notBefore.getTime() <= Date.now())
      return [];
    return [
      {
        description:
          `${tlsComponent(service)} presents a certificate for ${distinguishedName(cert.subject)} that is valid ` +
          `only from ${cert.valid_from}.`,
        evidence: certificateEvidence(ctx, service, result),
      },
    ];
  },
});

/** The id of the finding for a certificate without any subject alternative name (a variant of the name check). */
export const NO_SAN_CHECK_ID = 'tls-certificate-no-san';

export const tlsHostnameMismatchCheck = defineCheck({
  meta: {
    id: 'tls-certificate-hostname-mismatch',
    title: 'TLS certificate does not match the host name',
    severity: 'medium',
    cvssVector: `${NETWORK}/UI:R/S:U/C:H/I:L/A:N`,
    cweIds: ['CWE-297'],
    category: 'tls',
    remediation: 'tls-certificate-hostname-mismatch',
    impact:
      'Browsers and correct clients refuse the connection; clients told to ignore the mismatch accept any ' +
      'certificate an attacker presents for this name.',
    upstreamIds: ['mismatched-ssl-certificate'],
    tool: TLS_TOOL,
    variants: {
      // An address target: only clients that connect by the address check it, and most use a name.
      address: {
        title: 'TLS certificate does not match the address scanned',
        severity: 'low',
        cvssVector: `${NETWORK}/UI:R/S:U/C:L/I:N/A:N`,
      },
      // No subjectAltName at all: RFC 6125 clients (browsers since 2017) match no name.
      'no-san': {
        id: NO_SAN_CHECK_ID,
        title: 'TLS certificate has no subject alternative name',
        severity: 'medium',
        cvssVector: `${NETWORK}/UI:R/S:U/C:H/I:L/A:N`,
      },
    },
  },
  phase: 'web_analysis',
  quick: true,
  appliesTo: isTls,
  detect: async (ctx, service) => {
    const result = await certificateHandshake(ctx, service);
    const cert = result.certificate;
    coverPort(ctx, service, NO_SAN_CHECK_ID);
    if (!cert) return [];
    const component = tlsComponent(service);
    const evidence = certificateEvidence(ctx, service, result);
    // A certificate that names nothing in a SAN: modern clients match no name or address
    // against it, whatever the target. One weakness, one finding: no mismatch beside it.
    if (!cert.subjectaltname) {
      return [
        {
          variant: 'no-san' as const,
          description:
            `${component} presents a certificate for ${distinguishedName(cert.subject)} without a subject ` +
            'alternative name extension: browsers and RFC 6125 clients ignore the common name, so it matches no host name or address.',
          evidence,
        },
      ];
    }
    // A DNS target is matched as its clients do (SNI); an address target against the certificate's IP SANs.
    const name = serverName(ctx, service);
    const checked = name ?? service.address;
    const mismatch = checkServerIdentity(checked, cert);
    if (!mismatch) return [];
    if (name) {
      return [
        {
          detail: name,
          description:
            `${component}, asked for ${name} (SNI), presents a certificate for ` +
            `${cert.subjectaltname}: ${mismatch.message}`,
          evidence,
        },
      ];
    }
    return [
      {
        variant: 'address' as const,
        detail: checked,
        description:
          `${component}, scanned by its address, presents a certificate for ${cert.subjectaltname}, ` +
          `which names no IP address ${checked}: ${mismatch.message}`,
        evidence,
      },
    ];
  },
});

export const tlsIncompleteChainCheck = defineCheck({
  meta: {
    id: 'tls-certificate-chain-incomplete',
    title: 'TLS certificate chain is incomplete or leads to an unknown CA',
    severity: 'medium',
    cvssVector: `${NETWORK}/UI:R/S:U/C:H/I:L/A:N`,
    cweIds: ['CWE-295'],
    category: 'tls',
    remediation: 'tls-certificate-chain-incomplete',
    impact:
      'Clients that do not happen to have the intermediate cached (most non-browser clients, fresh browsers) ' +
      'fail to connect, and are then often configured to skip verification altogether.',
    tool: TLS_TOOL,
  },
  phase: 'web_analysis',
  quick: true,
  appliesTo: isTls,
  detect: async (ctx, service) => {
    const result = await certificateHandshake(ctx, service);
    if (!chainIncomplete(result) || !result.certificate) return [];
    const chain = presentedChain(result.certificate);
    const last = chain.at(-1);
    if (!last) return [];
    return [
      {
        description:
          `${tlsComponent(service)} sends ${chain.length === 1 ? 'only its own certificate' : `${chain.length} certificates`} ` +
          `and not the certificate of its issuer ${distinguishedName(last.issuer)}, which is not a trusted root ` +
          `(${result.authorizationError}). Either the server leaves out an intermediate CA certificate, or the ` +
          'issuer is a CA no client trusts.',
        evidence: certificateEvidence(ctx, service, result),
      },
    ];
  },
});

export const tlsBreadthChecks: DeclaredCheck[] = [
  tlsWeakCipherSuitesCheck,
  ...tlsCbcChecks,
  tlsWeakKeyCheck,
  tlsNotYetValidCheck,
  tlsHostnameMismatchCheck,
  tlsIncompleteChainCheck,
];
