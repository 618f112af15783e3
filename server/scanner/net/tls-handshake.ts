/**
 * Node's own TLS handshake with a service, as the TLS checks read it: protocol, cipher, the
 * certificate chain presented and OpenSSL's verdict on it. The certificate handshake is made
 * once per service and scan and shared by every certificate check. (Raw ClientHellos for
 * suites OpenSSL no longer implements are `tls-hello.ts`.) A service that upgrades in-band
 * (SMTP `STARTTLS`, …, `starttls.ts`) is asked to first, on every connection.
 */
import type { ConnectionOptions, DetailedPeerCertificate, TLSSocket } from 'node:tls';
import type { ServiceIdentification } from './services.ts';
import type { PhaseContext, ScanState } from '../types.ts';
import { connectService, sharedExchange } from './service-connect.ts';
import { startTlsOf } from './starttls.ts';

/** OpenSSL 3 refuses TLS 1.0/1.1 and weak keys at its default security level; level 0 lets us see them. */
export const PERMISSIVE_CIPHERS = 'DEFAULT:@SECLEVEL=0';

export interface Handshake {
  protocol: string | null;
  cipher: string;
  certificate: DetailedPeerCertificate | undefined;
  authorized: boolean;
  /** OpenSSL's verification result against Node's bundled CA store, e.g. `DEPTH_ZERO_SELF_SIGNED_CERT`. */
  authorizationError: string | undefined;
}

/** One handshake with these TLS options on a connection of its own (after STARTTLS where the service needs it), closed afterwards. */
export async function handshake(
  ctx: PhaseContext,
  service: ServiceIdentification,
  tls: ConnectionOptions,
): Promise<Handshake> {
  const socket = (await connectService(ctx, service, { tls, starttls: startTlsOf(service) })) as TLSSocket;
  try {
    const certificate = socket.getPeerCertificate(true);
    const error = socket.authorizationError as Error | string | null | undefined;
    return {
      protocol: socket.getProtocol(),
      cipher: socket.getCipher().name,
      certificate: certificate && Object.keys(certificate).length > 0 ? certificate : undefined,
      authorized: socket.authorized,
      authorizationError: error ? String(error instanceof Error ? error.message : error) : undefined,
    };
  } finally {
    socket.destroy();
  }
}

const certificateHandshakes = new WeakMap<ScanState, Map<string, Promise<Handshake>>>();

/** The normal handshake every certificate check reads (old protocols allowed, so old servers are seen too). */
export function certificateHandshake(ctx: PhaseContext, service: ServiceIdentification): Promise<Handshake> {
  return sharedExchange(certificateHandshakes, ctx, `${service.address}|${service.port}`, () =>
    handshake(ctx, service, { minVersion: 'TLSv1', ciphers: PERMISSIVE_CIPHERS }),
  );
}
