/**
 * TLS checks of the `web_analysis` phase: protocol versions deprecated by RFC 8996 that a
 * service still accepts, and the certificate it presents (expired, self-signed or not
 * issued by a CA the scanner trusts). Each handshake goes to the literal address the scope
 * guard approved; SNI carries the scan target only when that is a DNS name.
 *
 * The connection and the handshakes are the scanner's network layer
 * (`net/service-connect.ts`, `net/tls-handshake.ts`); this file holds what the checks
 * conclude from them and the evidence they show.
 */
import type { DetailedPeerCertificate } from 'node:tls';
import { componentUrl, type ServiceIdentification } from '../net/services.ts';
import { serverName, ServiceConnectError } from '../net/service-connect.ts';
import { isTls } from '../net/service-rules.ts';
import { urlHost } from '../net/target-address.ts';
import { startTlsOf, UPGRADE_COMMAND, UPGRADE_EXCHANGE } from '../net/starttls.ts';
import { certificateHandshake, handshake, PERMISSIVE_CIPHERS, type Handshake } from '../net/tls-handshake.ts';
import { defineCheck, type DeclaredCheck, type PhaseContext } from '../check.ts';

/** The tool TLS findings name. */
export const TLS_TOOL = 'scanward-tls';
const NETWORK = 'CVSS:3.1/AV:N/AC:H/PR:N';

// ---------------------------------------------------------------------------------------
// Evidence

export function endpoint(service: ServiceIdentification): string {
  return `${urlHost(service.address)}:${service.port}`;
}

/** What a handshake was sent to: the endpoint, and the in-band upgrade before it when there was one. */
export function handshakeRequest(ctx: PhaseContext, service: ServiceIdentification, what: string): string {
  const name = serverName(ctx, service);
  const upgrade = startTlsOf(service);
  const after = upgrade ? ` after STARTTLS (${UPGRADE_EXCHANGE[upgrade]})` : '';
  return `TLS ClientHello to ${endpoint(service)}${after} (${name ? `SNI ${name}` : 'no SNI'}), ${what}`;
}

/** The service as descriptions name it: `smtp://host:25 (TLS after STARTTLS)` for an in-band upgrade. */
export function tlsComponent(service: ServiceIdentification): string {
  const upgrade = startTlsOf(service);
  return upgrade ? `${componentUrl(service)} (TLS after ${UPGRADE_COMMAND[upgrade]})` : componentUrl(service);
}

export function distinguishedName(name: object | undefined): string {
  if (!name) return '';
  return Object.entries(name)
    .map(([key, value]) => `${key}=${Array.isArray(value) ? value.join('+') : String(value)}`)
    .join(', ');
}

export function describeCertificate(result: Handshake): string {
  const cert = result.certificate;
  const lines = [`Protocol: ${result.protocol ?? 'unknown'}`, `Cipher: ${result.cipher}`];
  if (cert) {
    lines.push(
      `Subject: ${distinguishedName(cert.subject)}`,
      `Issuer: ${distinguishedName(cert.issuer)}`,
      `Not before: ${cert.valid_from}`,
      `Not after: ${cert.valid_to}`,
      `SHA-256 fingerprint: ${cert.fingerprint256}`,
    );
    if (cert.bits) lines.push(`Public key: ${cert.modulus ? 'RSA' : 'EC or other'} ${cert.bits} bits`);
    if (cert.subjectaltname) lines.push(`Subject alternative names: ${cert.subjectaltname}`);
  }
  const chain = presentedChain(cert).slice(1);
  if (chain.length > 0) lines.push(`Issuers: ${chain.map((c) => distinguishedName(c.subject)).join(' → ')}`);
  lines.push(`Verification: ${result.authorized ? 'trusted' : (result.authorizationError ?? 'failed')}`);
  return lines.join('\n');
}

/** The evidence of a check that reads the certificate handshake (net/tls-handshake.ts). */
export function certificateEvidence(ctx: PhaseContext, service: ServiceIdentification, result: Handshake) {
  return {
    request: handshakeRequest(ctx, service, 'certificate not verified, then inspected'),
    response: describeCertificate(result),
  };
}

/** The certificate chain, leaf first (a self-issued root ends the walk); when verification failed, what the server sent. */
export function presentedChain(leaf: DetailedPeerCertificate | undefined): DetailedPeerCertificate[] {
  const chain: DetailedPeerCertificate[] = [];
  const seen = new Set<string>();
  for (let cert = leaf; cert && !seen.has(cert.fingerprint256); cert = cert.issuerCertificate) {
    seen.add(cert.fingerprint256);
    chain.push(cert);
  }
  return chain;
}

/**
 * The server sent no CA certificate to link its leaf to a trusted root: verification found
 * no issuer, and the last certificate sent is not a CA certificate (public CAs always issue
 * through intermediates, which the server must send).
 */
export function chainIncomplete(result: Handshake): boolean {
  if (!result.certificate || result.authorized) return false;
  if (!MISSING_ISSUER.has(result.authorizationError ?? '')) return false;
  const last = presentedChain(result.certificate).at(-1);
  return last !== undefined && (last as { ca?: boolean }).ca !== true;
}

// ---------------------------------------------------------------------------------------
// The checks

const LEGACY_VERSIONS = ['TLSv1', 'TLSv1.1'] as const;

export const tlsLegacyProtocolCheck = defineCheck({
  meta: {
    id: 'tls-legacy-protocol',
    title: 'TLS service accepts deprecated protocol versions',
    severity: 'medium',
    cvssVector: `${NETWORK}/UI:N/S:U/C:H/I:N/A:N`,
    cweIds: ['CWE-326', 'CWE-757'],
    category: 'tls',
    remediation: 'tls-legacy-protocol',
    impact:
      'Clients can be held to, or downgraded onto, protocol versions without modern cipher suites; ' +
      'compliance baselines such as PCI DSS and current browsers refuse them.',
    upstreamIds: ['deprecated-tls', 'tls-version'],
    tool: TLS_TOOL,
  },
  phase: 'web_analysis',
  quick: true,
  appliesTo: isTls,
  detect: async (ctx, service) => {
    const requests: string[] = [];
    const answers: string[] = [];
    const accepted: string[] = [];
    for (const version of LEGACY_VERSIONS) {
      requests.push(
        handshakeRequest(ctx, service, `offering only ${version} (ciphers ${PERMISSIVE_CIPHERS})`),
      );
      try {
        const result = await handshake(ctx, service, {
          minVersion: version,
          maxVersion: version,
          ciphers: PERMISSIVE_CIPHERS,
        });
        if (result.protocol === version) {
          accepted.push(version);
          answers.push(`${version}: accepted (ServerHello ${result.protocol}, cipher ${result.cipher})`);
        } else {
          answers.push(`${version}: refused (server chose ${result.protocol ?? 'nothing'})`);
        }
      } catch (error) {
        // A refused connection or upgrade means the port was not tested: let the runner record no coverage.
        if (!(error instanceof ServiceConnectError) || error.stage !== 'tls') throw error;
        answers.push(`${version}: refused (${error.code})`);
      }
    }
    if (accepted.length === 0) return [];
    const list = accepted.map((v) => v.replace('TLSv', 'TLS ')).join(' and ');
    return [
      {
        detail: list,
        description:
          `${tlsComponent(service)} completed a TLS handshake offering only ${list}, ` +
          'protocol versions deprecated by RFC 8996.',
        evidence: { request: requests.join('\n'), response: answers.join('\n') },
      },
    ];
  },
});

export const tlsCertificateExpiredCheck = defineCheck({
  meta: {
    id: 'tls-certificate-expired',
    title: 'TLS certificate has expired',
    severity: 'high',
    cvssVector: `${NETWORK}/UI:N/S:U/C:H/I:H/A:N`,
    cweIds: ['CWE-298'],
    category: 'tls',
    remediation: 'tls-certificate-expired',
    impact:
      'Clients refuse the connection, or users and programs are taught to ignore certificate errors, ' +
      'which removes their protection against interception.',
    upstreamIds: ['expired-ssl'],
    tool: TLS_TOOL,
  },
  phase: 'web_analysis',
  quick: true,
  appliesTo: isTls,
  detect: async (ctx, service) => {
    const result = await certificateHandshake(ctx, service);
    const notAfter = result.certificate ? new Date(result.certificate.valid_to) : undefined;
    const expired =
      result.authorizationError === 'CERT_HAS_EXPIRED' ||
      (notAfter !== undefined && !Number.isNaN(notAfter.getTime()) && notAfter.getTime() < Date.now());
    if (!expired || !result.certificate) return [];
    return [
      {
        description:
          `${tlsComponent(service)} presents a certificate for ` +
          `${distinguishedName(result.certificate.subject)} that expired on ${result.certificate.valid_to}.`,
        evidence: certificateEvidence(ctx, service, result),
      },
    ];
  },
});

/** Verification found no issuer for the last certificate it had. */
const MISSING_ISSUER = new Set([
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
]);
/** Verification results meaning the chain does not lead to a CA in the trust store. */
const UNTRUSTED_ISSUER = new Set([...MISSING_ISSUER, 'CERT_UNTRUSTED', 'SELF_SIGNED_CERT_IN_CHAIN']);

export const tlsCertificateSelfSignedCheck = defineCheck({
  meta: {
    id: 'tls-certificate-self-signed',
    title: 'TLS certificate is self-signed',
    severity: 'medium',
    cvssVector: `${NETWORK}/UI:R/S:U/C:H/I:L/A:N`,
    cweIds: ['CWE-295'],
    category: 'tls',
    remediation: 'tls-certificate-self-signed',
    impact:
      'Clients cannot tell the real server from an impostor: they either fail, or are configured to skip ' +
      'verification and then accept an attacker’s certificate as well.',
    upstreamIds: ['self-signed-ssl', 'untrusted-root-certificate'],
    tool: TLS_TOOL,
    variants: {
      untrusted: {
        title: 'TLS certificate is not issued by a trusted certificate authority',
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
    if (!cert || result.authorized) return [];
    const code = result.authorizationError ?? '';
    const subject = distinguishedName(cert.subject);
    const issuer = distinguishedName(cert.issuer);
    // OpenSSL reports one error: an expired self-signed leaf may say CERT_HAS_EXPIRED, so a
    // leaf that names itself as issuer and did not verify counts as self-signed too.
    const selfSigned =
      code === 'DEPTH_ZERO_SELF_SIGNED_CERT' ||
      (subject === issuer && code !== 'ERR_TLS_CERT_ALTNAME_INVALID');
    // A chain the server left incomplete is the chain check's finding, not this one.
    const untrusted = !selfSigned && UNTRUSTED_ISSUER.has(code) && !chainIncomplete(result);
    if (!selfSigned && !untrusted) return [];
    const component = tlsComponent(service);
    const evidence = certificateEvidence(ctx, service, result);
    if (selfSigned) {
      return [
        {
          description: `${component} presents a self-signed certificate (${subject}) that no trusted CA vouches for (${code}).`,
          evidence,
        },
      ];
    }
    return [
      {
        variant: 'untrusted' as const,
        description: `${component} presents a certificate (${subject}, issued by ${issuer}) whose chain does not lead to a trusted CA (${code}).`,
        evidence,
      },
    ];
  },
});

export const tlsChecks: DeclaredCheck[] = [
  tlsLegacyProtocolCheck,
  tlsCertificateExpiredCheck,
  tlsCertificateSelfSignedCheck,
];
