/**
 * One connection of a service probe: plain TCP or TLS to a literal address, with reads
 * that are bounded in bytes and time, an AbortSignal that tears everything down, and a
 * transcript of what was sent and received for the finding's evidence.
 */
import { Socket } from 'node:net';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import type { IpFamily } from './target-address.ts';

/** Most bytes one session keeps from the peer; anything beyond is not read. */
export const MAX_SESSION_BYTES = 64 * 1024;
/** Most characters of each evidence string. */
export const MAX_EVIDENCE_CHARS = 4096;

export interface SessionOptions {
  address: string;
  family: IpFamily;
  port: number;
  /** Wrap the connection in TLS (certificates are not verified: this is identification, not trust). */
  tls?: boolean;
  signal?: AbortSignal;
  /** `performance.now()` time after which connecting and reading give up. */
  deadline: number;
  /** An earlier limit for connecting and the TLS handshake alone. */
  handshakeDeadline?: number;
}

export interface TlsDetails {
  protocol: string | null;
  cipher: string;
  alpn: string | false | null;
  certSubject?: string;
  certIssuer?: string;
  certNotAfter?: string;
}

/** The connection could not be made (refused, unreachable, timed out) or TLS could not be negotiated. */
export class ProbeConnectError extends Error {
  constructor(
    /** `tcp`: the port did not accept the connection; `tls`: it did, but TLS failed. */
    readonly stage: 'tcp' | 'tls',
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ProbeConnectError';
  }
}

export class ProbeSession {
  private readonly chunks: Buffer[] = [];
  private receivedBytes = 0;
  private cursor = 0;
  private readonly sent: Buffer[] = [];
  private ended = false;
  private wake: (() => void) | undefined;
  private readonly onAbort = (): void => this.close();

  private readonly onData = (chunk: Buffer): void => this.receive(chunk);
  private readonly onEnd = (): void => this.markEnded();

  private constructor(
    private socket: Socket | TLSSocket,
    private readonly options: SessionOptions,
    private tlsDetails: TlsDetails | undefined,
  ) {
    this.listen(socket);
    options.signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  /** Set when the session runs over TLS. */
  get tls(): TlsDetails | undefined {
    return this.tlsDetails;
  }

  /** Connects (and negotiates TLS when asked); rejects with `ProbeConnectError`, or the abort reason. */
  static async open(options: SessionOptions): Promise<ProbeSession> {
    options.signal?.throwIfAborted();
    const plain = await connectPlain(options);
    if (!options.tls) return new ProbeSession(plain, options, undefined);
    const secure = await negotiateTls(plain, options);
    return new ProbeSession(secure, options, describeTls(secure));
  }

  write(data: string | Buffer): void {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'latin1') : data;
    this.sent.push(bytes);
    if (!this.ended) this.socket.write(bytes);
  }

  /**
   * Waits until `complete` accepts the bytes received since the previous read, the peer
   * closes, the byte budget is spent, `waitMs` passes or the session deadline does; then
   * returns those bytes (possibly none). Rejects only when the signal aborts.
   */
  async read(complete: (data: Buffer) => boolean = () => true, waitMs = Infinity): Promise<Buffer> {
    const until = Math.min(this.options.deadline, performance.now() + waitMs);
    for (;;) {
      this.options.signal?.throwIfAborted();
      const fresh = this.unread();
      const done = (fresh.length > 0 && complete(fresh)) || this.ended;
      if (done || this.receivedBytes >= MAX_SESSION_BYTES) break;
      const remaining = until - performance.now();
      if (remaining <= 0) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
    this.options.signal?.throwIfAborted();
    const data = this.unread();
    this.cursor = this.receivedBytes;
    return data;
  }

  /**
   * Negotiates TLS on the open connection (a protocol's own "start TLS" step, such as
   * PostgreSQL's SSLRequest); later reads and writes go through TLS.
   */
  async upgradeToTls(): Promise<TlsDetails> {
    if (this.tlsDetails) return this.tlsDetails;
    if (this.ended) {
      throw new ProbeConnectError('tls', 'ECLOSED', 'connection closed before TLS');
    }
    this.socket.removeListener('data', this.onData);
    this.socket.removeListener('end', this.onEnd);
    this.socket.removeListener('close', this.onEnd);
    const secure = await negotiateTls(this.socket, { ...this.options, handshakeDeadline: undefined });
    this.socket = secure;
    this.tlsDetails = describeTls(secure);
    this.listen(secure);
    return this.tlsDetails;
  }

  /** Everything the peer sent in this session. */
  get received(): Buffer {
    return Buffer.concat(this.chunks);
  }

  /** Whether the peer closed its side (or the connection failed). */
  get peerClosed(): boolean {
    return this.ended;
  }

  /** The exchange as printable text for a finding's evidence. */
  transcript(): { request: string; response: string } {
    return {
      request: renderBytes(Buffer.concat(this.sent)),
      response: renderBytes(this.received),
    };
  }

  close(): void {
    this.options.signal?.removeEventListener('abort', this.onAbort);
    this.markEnded();
    this.socket.destroy();
  }

  private listen(socket: Socket): void {
    socket.on('data', this.onData);
    socket.on('end', this.onEnd);
    socket.on('close', this.onEnd);
    socket.on('error', this.onEnd);
  }

  private unread(): Buffer {
    return this.received.subarray(this.cursor);
  }

  private receive(chunk: Buffer): void {
    const room = MAX_SESSION_BYTES - this.receivedBytes;
    if (room <= 0) return;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.chunks.push(kept);
    this.receivedBytes += kept.length;
    if (this.receivedBytes >= MAX_SESSION_BYTES) this.socket.pause();
    this.wake?.();
  }

  private markEnded(): void {
    this.ended = true;
    this.wake?.();
  }
}

function handshakeRemainingMs(options: SessionOptions): number {
  return Math.max(0, Math.min(options.deadline, options.handshakeDeadline ?? Infinity) - performance.now());
}

function connectPlain(options: SessionOptions): Promise<Socket> {
  return new Promise<Socket>((resolve, reject) => {
    const socket = new Socket();
    const cleanup = (): void => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      socket.removeListener('error', onError);
    };
    const fail = (error: unknown): void => {
      cleanup();
      socket.destroy();
      reject(error);
    };
    const onAbort = (): void => fail(options.signal?.reason);
    const onError = (error: NodeJS.ErrnoException): void =>
      fail(
        new ProbeConnectError(
          'tcp',
          error.code ?? 'ECONNECT',
          `connect to port ${options.port}: ${error.message}`,
        ),
      );
    const timer = setTimeout(
      () => fail(new ProbeConnectError('tcp', 'ETIMEDOUT', `connect to port ${options.port} timed out`)),
      handshakeRemainingMs(options),
    );
    options.signal?.addEventListener('abort', onAbort, { once: true });
    socket.once('error', onError);
    socket.once('connect', () => {
      cleanup();
      socket.on('error', () => {});
      resolve(socket);
    });
    socket.connect({
      host: options.address,
      port: options.port,
      family: options.family,
      lookup: () => {
        throw new Error('service probes never resolve names');
      },
    });
  });
}

function negotiateTls(plain: Socket, options: SessionOptions): Promise<TLSSocket> {
  return new Promise<TLSSocket>((resolve, reject) => {
    // No servername: SNI must not carry an IP address. Old protocol versions and weak
    // ciphers are accepted so that old servers can still be identified (and reported).
    const secure = tlsConnect({
      socket: plain,
      rejectUnauthorized: false,
      minVersion: 'TLSv1',
      ciphers: 'DEFAULT:@SECLEVEL=0',
      ALPNProtocols: ['http/1.1'],
    });
    const cleanup = (): void => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      secure.removeListener('error', onError);
    };
    const fail = (error: unknown): void => {
      cleanup();
      secure.destroy();
      plain.destroy();
      reject(error);
    };
    const onAbort = (): void => fail(options.signal?.reason);
    const onError = (error: NodeJS.ErrnoException): void =>
      fail(
        new ProbeConnectError(
          'tls',
          error.code ?? 'ETLS',
          `TLS handshake on port ${options.port}: ${error.message}`,
        ),
      );
    const timer = setTimeout(
      () =>
        fail(new ProbeConnectError('tls', 'ETIMEDOUT', `TLS handshake on port ${options.port} timed out`)),
      handshakeRemainingMs(options),
    );
    options.signal?.addEventListener('abort', onAbort, { once: true });
    secure.once('error', onError);
    secure.once('secureConnect', () => {
      cleanup();
      secure.on('error', () => {});
      resolve(secure);
    });
  });
}

function describeTls(socket: TLSSocket): TlsDetails {
  const certificate = socket.getPeerCertificate();
  const hasCertificate = certificate && Object.keys(certificate).length > 0;
  return {
    protocol: socket.getProtocol(),
    cipher: socket.getCipher().name,
    alpn: socket.alpnProtocol,
    ...(hasCertificate && {
      certSubject: distinguishedName(certificate.subject),
      certIssuer: distinguishedName(certificate.issuer),
      certNotAfter: certificate.valid_to,
    }),
  };
}

function distinguishedName(name: object | undefined): string | undefined {
  if (!name) return undefined;
  return Object.entries(name)
    .map(([key, value]) => `${key}=${Array.isArray(value) ? value.join('+') : String(value)}`)
    .join(', ');
}

/**
 * Bytes as readable text: printable ASCII, newlines and tabs as they are (a CR before a LF
 * dropped), anything else as `\xNN`; cut at `MAX_EVIDENCE_CHARS`.
 */
export function renderBytes(bytes: Buffer, limit = MAX_EVIDENCE_CHARS): string {
  let text = '';
  let i = 0;
  for (; i < bytes.length && text.length < limit; i++) {
    const byte = bytes[i] as number;
    if (byte === 0x0d && bytes[i + 1] === 0x0a) continue;
    if ((byte >= 0x20 && byte < 0x7f) || byte === 0x0a || byte === 0x09) text += String.fromCharCode(byte);
    else text += `\\x${byte.toString(16).padStart(2, '0')}`;
  }
  return i < bytes.length ? `${text}…` : text;
}
