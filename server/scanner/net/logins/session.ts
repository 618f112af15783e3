/**
 * The connection a default-credential login uses: the scope guard first, then one
 * `ProbeSession` to the literal address (inside TLS when the service speaks it), with a
 * byte stream reader on top for protocols that frame their messages.
 */
import { ProbeSession } from '../probe-session.ts';
import { approveTarget, type AssertAllowed } from '../target-address.ts';

/** Longest a whole login exchange (connect, log in, one harmless read, goodbye) may take. */
export const LOGIN_TIMEOUT_MS = 10_000;
/** Longest wait for one answer. */
export const REPLY_WAIT_MS = 3_000;

export interface LoginTarget {
  address: string;
  port: number;
  tls?: boolean;
  assertAllowed: AssertAllowed;
  signal: AbortSignal;
}

/** What a login attempt learned. `accepted: false` means the service refused the credential. */
export interface LoginResult {
  accepted: boolean;
  /** The exchange in words, for the finding's evidence: what was sent, what came back. */
  request: string;
  response: string;
}

export async function openLoginSession(target: LoginTarget): Promise<ProbeSession> {
  const family = await approveTarget(target.address, target.assertAllowed, target.signal);
  const now = performance.now();
  return ProbeSession.open({
    address: target.address,
    family,
    port: target.port,
    tls: target.tls === true,
    signal: target.signal,
    deadline: now + LOGIN_TIMEOUT_MS,
    handshakeDeadline: now + REPLY_WAIT_MS,
  });
}

/** Reads whole messages from a session: `take(size)` waits until `size(buffered)` says one is there. */
export class MessageReader {
  private buffer = Buffer.alloc(0);

  constructor(private readonly session: ProbeSession) {}

  /**
   * The next message: `length` answers the whole message's length from the bytes buffered
   * (or undefined while that is not known yet). Rejects when the peer stops sending first.
   */
  async next(length: (data: Buffer) => number | undefined): Promise<Buffer> {
    for (;;) {
      const size = length(this.buffer);
      if (size !== undefined && this.buffer.length >= size) {
        const message = this.buffer.subarray(0, size);
        this.buffer = this.buffer.subarray(size);
        return message;
      }
      const more = await this.session.read(() => true, REPLY_WAIT_MS);
      if (more.length === 0) throw new Error('the service stopped answering');
      this.buffer = Buffer.concat([this.buffer, more]);
    }
  }

  /** Reads until a line ending in CRLF that `complete` accepts; answers the text read. */
  async lines(complete: (text: string) => boolean): Promise<string> {
    for (;;) {
      const text = this.buffer.toString('latin1');
      if (text.endsWith('\n') && complete(text)) {
        this.buffer = Buffer.alloc(0);
        return text;
      }
      const more = await this.session.read(() => true, REPLY_WAIT_MS);
      if (more.length === 0) throw new Error('the service stopped answering');
      this.buffer = Buffer.concat([this.buffer, more]);
    }
  }
}
