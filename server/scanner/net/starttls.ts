/**
 * The in-band upgrade to TLS of services that start in plain text: SMTP `STARTTLS`, IMAP
 * `STARTTLS`, POP3 `STLS`, FTP `AUTH TLS` and PostgreSQL's `SSLRequest`. The identification
 * probe records whether the service offers it (`details.starttls`, PostgreSQL
 * `details.ssl`); `startTlsOf` reads that, and `negotiateStartTls` speaks the few plain-text
 * lines that ask for the upgrade on a connection `service-connect.ts` opened through the
 * scan's scope guard, leaving the socket at the point where the TLS handshake begins. Nothing
 * else is sent: no login, no mail transaction.
 */
import type { Socket } from 'node:net';
import type { ServiceIdentification } from './services.ts';

export type StartTlsProtocol = 'smtp' | 'imap' | 'pop3' | 'ftp' | 'postgresql';

/** The service upgrades in-band: which protocol's upgrade it offers, or `undefined`. */
export function startTlsOf(
  service: Pick<ServiceIdentification, 'service' | 'tls' | 'details'>,
): StartTlsProtocol | undefined {
  // A service already inside TLS (SMTPS, IMAPS, …) is checked as TLS from the first byte.
  if (service.tls === true) return undefined;
  switch (service.service) {
    case 'smtp':
    case 'imap':
    case 'pop3':
    case 'ftp':
      return service.details?.starttls === true ? service.service : undefined;
    case 'postgresql':
      return service.details?.ssl === true ? 'postgresql' : undefined;
    default:
      return undefined;
  }
}

/** The plain-text exchange before the handshake, as the evidence names it. */
export const UPGRADE_EXCHANGE: Readonly<Record<StartTlsProtocol, string>> = {
  smtp: 'SMTP greeting, EHLO scanward.invalid, STARTTLS → 220',
  imap: 'IMAP greeting, STARTTLS → OK',
  pop3: 'POP3 greeting, STLS → +OK',
  ftp: 'FTP greeting, AUTH TLS → 234',
  postgresql: 'PostgreSQL SSLRequest → S',
};

/** The name the upgrade goes by in the protocol, for titles and descriptions. */
export const UPGRADE_COMMAND: Readonly<Record<StartTlsProtocol, string>> = {
  smtp: 'STARTTLS',
  imap: 'STARTTLS',
  pop3: 'STLS',
  ftp: 'AUTH TLS',
  postgresql: 'SSLRequest',
};

/** The service did not agree to the upgrade (or answered something else). */
export class StartTlsError extends Error {
  constructor(
    readonly code: 'STARTTLS_REFUSED' | 'STARTTLS_CLOSED',
    message: string,
  ) {
    super(message);
    this.name = 'StartTlsError';
  }
}

/** Most bytes read from the service before the upgrade. */
const MAX_PLAIN_BYTES = 16 * 1024;

/** Reads plain-text answers from `socket` until each one is complete; nothing is read past the last. */
class PlainReader {
  private buffer = Buffer.alloc(0);
  private waiter: (() => void) | undefined;
  private closed = false;
  private readonly onData = (chunk: Buffer): void => {
    this.buffer = Buffer.concat([this.buffer, chunk]).subarray(0, MAX_PLAIN_BYTES);
    this.waiter?.();
  };
  private readonly onClose = (): void => {
    this.closed = true;
    this.waiter?.();
  };

  constructor(private readonly socket: Socket) {
    socket.on('data', this.onData);
    socket.once('end', this.onClose);
    socket.once('close', this.onClose);
  }

  /** Waits until `complete(buffer)` says how many bytes make one answer, and takes them. */
  async read(complete: (data: Buffer) => number | undefined): Promise<Buffer> {
    for (;;) {
      const length = complete(this.buffer);
      if (length !== undefined) {
        const answer = this.buffer.subarray(0, length);
        this.buffer = this.buffer.subarray(length);
        return answer;
      }
      if (this.closed || this.buffer.length >= MAX_PLAIN_BYTES) {
        throw new StartTlsError('STARTTLS_CLOSED', 'the service closed the connection before the upgrade');
      }
      await new Promise<void>((resolve) => (this.waiter = resolve));
      this.waiter = undefined;
    }
  }

  /** Stops reading; the socket is left for the TLS layer. Answers how many unread bytes it held. */
  release(): number {
    this.socket.removeListener('data', this.onData);
    this.socket.removeListener('end', this.onClose);
    this.socket.removeListener('close', this.onClose);
    return this.buffer.length;
  }
}

/** A complete SMTP/FTP reply (`NNN-` continuation lines, then `NNN text`): its length. */
export function replyLength(data: Buffer): number | undefined {
  const text = data.toString('latin1');
  let at = 0;
  for (;;) {
    const end = text.indexOf('\n', at);
    if (end === -1) return undefined;
    const line = text.slice(at, end).replace(/\r$/, '');
    at = end + 1;
    if (/^\d{3}(?: |$)/.test(line)) return at;
    if (!/^\d{3}-/.test(line)) return at; // not a reply line: let the caller judge it
  }
}

/** One whole line: its length. */
export function lineLength(data: Buffer): number | undefined {
  const end = data.indexOf(0x0a);
  return end === -1 ? undefined : end + 1;
}

/** IMAP: lines up to and including the one tagged `tag`. */
function taggedLength(tag: string): (data: Buffer) => number | undefined {
  return (data) => {
    const text = data.toString('latin1');
    let at = 0;
    for (;;) {
      const end = text.indexOf('\n', at);
      if (end === -1) return undefined;
      const line = text.slice(at, end);
      at = end + 1;
      if (line.startsWith(`${tag} `)) return at;
    }
  };
}

function expectAnswer(answer: Buffer, pattern: RegExp, what: string): void {
  const text = answer.toString('latin1');
  if (!pattern.test(text)) {
    const last = text.trim().split(/\r?\n/).at(-1)?.slice(0, 200) ?? '';
    throw new StartTlsError('STARTTLS_REFUSED', `${what}: ${last === '' ? 'no answer' : last}`);
  }
}

/** PostgreSQL's SSLRequest message: length 8, code 80877103 (1234 and 5679). */
export function sslRequest(): Buffer {
  const message = Buffer.alloc(8);
  message.writeInt32BE(8, 0);
  message.writeInt32BE(80877103, 4);
  return message;
}

/**
 * Asks the service on `socket` (connected, plain) to switch to TLS, the protocol's way.
 * Resolves when it agreed and the next bytes are the TLS handshake; rejects with
 * `StartTlsError` otherwise. Time limits are the caller's (it destroys the socket).
 */
export async function negotiateStartTls(socket: Socket, protocol: StartTlsProtocol): Promise<void> {
  const reader = new PlainReader(socket);
  let unread: number;
  try {
    await exchange(socket, reader, protocol);
  } finally {
    unread = reader.release();
  }
  // RFC 3207 §4.2 and its peers: nothing may come between the go-ahead and the handshake;
  // bytes here would be taken for TLS (the flaw behind STARTTLS command injection).
  if (unread > 0) {
    throw new StartTlsError('STARTTLS_REFUSED', 'the service sent more data after agreeing to the upgrade');
  }
}

async function exchange(socket: Socket, reader: PlainReader, protocol: StartTlsProtocol): Promise<void> {
  switch (protocol) {
    case 'smtp':
      expectAnswer(await reader.read(replyLength), /(^|\n)220 /, 'SMTP greeting');
      socket.write('EHLO scanward.invalid\r\n');
      expectAnswer(await reader.read(replyLength), /(^|\n)250 /, 'EHLO');
      socket.write('STARTTLS\r\n');
      expectAnswer(await reader.read(replyLength), /^220[ \r\n]/, 'STARTTLS');
      return;
    case 'ftp':
      expectAnswer(await reader.read(replyLength), /(^|\n)220 /, 'FTP greeting');
      socket.write('AUTH TLS\r\n');
      expectAnswer(await reader.read(replyLength), /^234[ \r\n]/, 'AUTH TLS');
      return;
    case 'imap':
      expectAnswer(await reader.read(lineLength), /^\* OK\b/i, 'IMAP greeting');
      socket.write('S1 STARTTLS\r\n');
      expectAnswer(await reader.read(taggedLength('S1')), /(^|\n)S1 OK\b/i, 'STARTTLS');
      return;
    case 'pop3':
      expectAnswer(await reader.read(lineLength), /^\+OK\b/, 'POP3 greeting');
      socket.write('STLS\r\n');
      expectAnswer(await reader.read(lineLength), /^\+OK\b/, 'STLS');
      return;
    case 'postgresql':
      socket.write(sslRequest());
      expectAnswer(await reader.read((data) => (data.length > 0 ? 1 : undefined)), /^S$/, 'SSLRequest');
      return;
  }
}
