/**
 * One connection to a scanned service, for every check and template that talks to it
 * directly: the scan's scope guard approves the literal address first (names are never
 * resolved), the service is asked to upgrade in-band first when asked (`STARTTLS` and its
 * peers, `starttls.ts`), TLS is negotiated on top when asked (SNI only for a DNS-name target), and the
 * scan's signal tears the socket down at any time. `sharedExchange` memoises one exchange
 * per service within a scan, so checks that read the same answer share it.
 */
import { isIP, Socket } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions, type TLSSocket } from 'node:tls';
import type { ServiceIdentification } from './services.ts';
import { negotiateStartTls, StartTlsError, type StartTlsProtocol } from './starttls.ts';
import { approveTarget, urlHost } from './target-address.ts';
import { targetOf, type PhaseContext, type ScanState } from '../types.ts';

/** Most time for connecting plus the TLS handshake. */
export const CONNECT_TIMEOUT_MS = 5_000;

/**
 * A connection could not be made (`tcp`), the service did not agree to the in-band upgrade
 * (`starttls`), or TLS could not be negotiated on it (`tls`).
 */
export class ServiceConnectError extends Error {
  constructor(
    readonly stage: 'tcp' | 'starttls' | 'tls',
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ServiceConnectError';
  }
}

/** What findings name as the target: the DNS name the user gave, or the address. */
export function hostTarget(ctx: PhaseContext, service: ServiceIdentification): string {
  return targetOf(ctx.state, service.address);
}

/** The SNI name for a service: the scan target when it is a DNS name, never an address. */
export function serverName(ctx: PhaseContext, service: ServiceIdentification): string | undefined {
  const target = hostTarget(ctx, service);
  return isIP(target) === 0 && /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/i.test(target) ? target : undefined;
}

export interface ConnectOptions {
  /** Negotiate TLS with these options on top of `rejectUnauthorized: false` (and SNI when the target is a name). */
  tls?: ConnectionOptions;
  /**
   * Ask the service to switch to TLS in-band first (SMTP `STARTTLS`, …). With `tls`, the
   * handshake follows; without, the socket is handed back ready for the caller's own TLS
   * bytes (a raw ClientHello).
   */
  starttls?: StartTlsProtocol;
  timeoutMs?: number;
}

/**
 * One connection to `service.address` (a literal address, approved by the scan's scope
 * guard first; names are never resolved). The scan's signal destroys it at any time, before
 * or after it resolves. Rejects with `ServiceConnectError`, or the signal's reason.
 */
export async function connectService(
  ctx: PhaseContext,
  service: ServiceIdentification,
  options: ConnectOptions = {},
): Promise<Socket | TLSSocket> {
  const family = await approveTarget(service.address, ctx.assertAllowed, ctx.signal);
  const { signal } = ctx;
  return new Promise<Socket | TLSSocket>((resolve, reject) => {
    const plain = new Socket();
    let stage: 'tcp' | 'starttls' | 'tls' = 'tcp';
    let secure: TLSSocket | undefined;
    const destroy = (): void => {
      secure?.destroy();
      plain.destroy();
    };
    const onAbort = (): void => fail(signal.reason);
    const timer = setTimeout(
      () =>
        fail(
          new ServiceConnectError(
            stage,
            'ETIMEDOUT',
            `${{ tcp: 'connect', starttls: 'in-band TLS upgrade', tls: 'TLS handshake' }[stage]} to ` +
              `${urlHost(service.address)}:${service.port} timed out`,
          ),
        ),
      options.timeoutMs ?? CONNECT_TIMEOUT_MS,
    );
    function fail(error: unknown): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      destroy();
      reject(error);
    }
    function succeed(socket: Socket | TLSSocket): void {
      clearTimeout(timer);
      socket.on('error', () => {});
      // Stays subscribed until the socket closes: an abort after this point still tears it down.
      socket.once('close', () => signal.removeEventListener('abort', onAbort));
      resolve(socket);
    }
    signal.addEventListener('abort', onAbort, { once: true });
    plain.once('error', (error: NodeJS.ErrnoException) =>
      fail(new ServiceConnectError(stage, error.code ?? 'ECONNECT', error.message)),
    );
    plain.once('connect', () => {
      if (!options.starttls) return startTls();
      stage = 'starttls';
      negotiateStartTls(plain, options.starttls).then(startTls, (error: unknown) =>
        fail(
          error instanceof StartTlsError
            ? new ServiceConnectError('starttls', error.code, error.message)
            : error,
        ),
      );
    });
    function startTls(): void {
      if (!options.tls) return succeed(plain);
      stage = 'tls';
      const name = serverName(ctx, service);
      secure = tlsConnect({
        ...options.tls,
        socket: plain,
        rejectUnauthorized: false,
        ...(name ? { servername: name } : {}),
      });
      secure.once('error', (error: NodeJS.ErrnoException) =>
        fail(new ServiceConnectError('tls', error.code ?? 'ETLS', error.message)),
      );
      secure.once('secureConnect', () => succeed(secure as TLSSocket));
    }
    plain.connect({
      host: service.address,
      port: service.port,
      family,
      lookup: () => {
        throw new Error('checks never resolve names');
      },
    });
  });
}

/** Memoises one exchange per service within a scan state, so checks that read the same answer share it. */
export function sharedExchange<T>(
  cache: WeakMap<ScanState, Map<string, Promise<T>>>,
  ctx: PhaseContext,
  key: string,
  run: () => Promise<T>,
): Promise<T> {
  let perState = cache.get(ctx.state);
  if (!perState) cache.set(ctx.state, (perState = new Map()));
  let pending = perState.get(key);
  if (!pending) {
    pending = run();
    perState.set(key, pending);
  }
  return pending;
}
