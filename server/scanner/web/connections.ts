/**
 * Connection reuse for the web assessment: HTTP/1.1 keep-alive connections to one service,
 * each opened with `connectService` (the scan's scope guard, the literal approved address,
 * TLS for HTTPS services), kept idle for IDLE_MS after an answer whose end was known (a
 * `Content-Length`, a chunked body's last chunk, a status or method without a body) and the
 * server did not ask to close. A request on a reused connection that the server had closed
 * meanwhile is sent again once on a fresh one. Idle sockets are unreferenced (they never keep
 * the process alive) and destroyed when the scan's signal aborts.
 */
import { getMaxListeners, setMaxListeners } from 'node:events';
import type { Socket } from 'node:net';
import type { PhaseContext } from '../check.ts';
import { isTlsService } from '../net/http-exchange.ts';
import { connectService } from '../net/service-connect.ts';
import type { ServiceIdentification } from '../net/services.ts';

/** How long an idle connection is kept. */
export const IDLE_MS = 2_000;
/** Idle connections kept per service. */
const MAX_IDLE = 8;

export interface Answer {
  data: Buffer;
  truncated: boolean;
}

interface Read extends Answer {
  /** The answer's end was known and the server keeps the connection open. */
  reusable: boolean;
}

/** Where a response ends, from its head: a length, the chunked terminator, none (no body), or the close. */
function bodyEnd(
  head: string,
  method: string,
): { kind: 'length'; length: number } | { kind: 'chunked' | 'none' | 'close' } {
  const status = Number(/^HTTP\/\d(?:\.\d)? (\d{3})/.exec(head)?.[1] ?? 0);
  if (method === 'HEAD' || status === 204 || status === 304 || (status >= 100 && status < 200))
    return { kind: 'none' };
  if (/^transfer-encoding:[^\r\n]*chunked/im.test(head)) return { kind: 'chunked' };
  const length = /^content-length:\s*(\d+)/im.exec(head);
  if (length) return { kind: 'length', length: Number(length[1]) };
  return { kind: 'close' };
}

function readAnswer(
  socket: Socket,
  method: string,
  signal: AbortSignal,
  maxBytes: number,
  timeoutMs: number,
): Promise<Read> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (result: Read | Error): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      socket.removeListener('data', onData);
      socket.removeListener('end', onEnd);
      socket.removeListener('close', onEnd);
      socket.removeListener('error', onError);
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    const whole = (): Buffer => Buffer.concat(chunks);
    const onData = (chunk: Buffer): void => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= maxBytes)
        return finish({ data: whole().subarray(0, maxBytes), truncated: true, reusable: false });
      const data = whole();
      const headerEnd = data.indexOf('\r\n\r\n');
      if (headerEnd === -1) return;
      const head = data.toString('latin1', 0, headerEnd);
      const end = bodyEnd(head, method);
      const body = data.length - headerEnd - 4;
      const keep = !/^connection:\s*close/im.test(head) && /^HTTP\/1\.1 /.test(head);
      if (end.kind === 'none') finish({ data, truncated: false, reusable: keep && body === 0 });
      else if (end.kind === 'length' && body >= end.length)
        finish({ data, truncated: false, reusable: keep && body === end.length });
      else if (end.kind === 'chunked' && data.subarray(-5).toString('latin1') === '0\r\n\r\n')
        finish({ data, truncated: false, reusable: keep });
    };
    const onEnd = (): void => finish({ data: whole(), truncated: false, reusable: false });
    const onError = (): void => finish({ data: whole(), truncated: false, reusable: false });
    const onAbort = (): void => {
      socket.destroy();
      finish(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    };
    const timer = setTimeout(() => finish({ data: whole(), truncated: true, reusable: false }), timeoutMs);
    signal.addEventListener('abort', onAbort, { once: true });
    socket.on('data', onData);
    socket.once('end', onEnd);
    socket.once('close', onEnd);
    socket.once('error', onError);
  });
}

export class Connections {
  private readonly idle: Array<{ socket: Socket; timer: NodeJS.Timeout }> = [];
  /** Connections opened and requests sent over a reused one (for the scan's notes and tests). */
  opened = 0;
  reused = 0;

  constructor(
    private readonly ctx: PhaseContext,
    private readonly service: ServiceIdentification,
  ) {
    // Each request in flight listens for the abort (8 at a time, plus the connections being opened).
    if (listenerLimit(ctx.signal) < 64 && listenerLimit(ctx.signal) !== 0) setMaxListeners(64, ctx.signal);
    ctx.signal.addEventListener('abort', () => this.closeAll(), { once: true });
  }

  closeAll(): void {
    for (const { socket, timer } of this.idle.splice(0)) {
      clearTimeout(timer);
      socket.destroy();
    }
  }

  private take(): Socket | undefined {
    while (this.idle.length > 0) {
      const { socket, timer } = this.idle.pop()!;
      clearTimeout(timer);
      if (!socket.destroyed && socket.readyState === 'open') return socket;
      socket.destroy();
    }
    return undefined;
  }

  private keep(socket: Socket): void {
    if (this.idle.length >= MAX_IDLE || socket.destroyed) {
      socket.destroy();
      return;
    }
    socket.unref();
    const entry = {
      socket,
      timer: setTimeout(() => {
        const at = this.idle.indexOf(entry);
        if (at >= 0) this.idle.splice(at, 1);
        socket.destroy();
      }, IDLE_MS),
    };
    entry.timer.unref();
    this.idle.push(entry);
  }

  private async open(timeoutMs: number): Promise<Socket> {
    this.opened += 1;
    return connectService(this.ctx, this.service, {
      ...(isTlsService(this.service) && { tls: { minVersion: 'TLSv1', ciphers: 'DEFAULT:@SECLEVEL=0' } }),
      timeoutMs,
    });
  }

  /** Sends `request` (method `method`) and reads the answer, over an idle connection when there is one. */
  async exchange(request: string, method: string, maxBytes: number, timeoutMs: number): Promise<Answer> {
    const reused = this.take();
    if (reused) {
      reused.ref();
      this.reused += 1;
      reused.write(request, 'utf8');
      const answer = await readAnswer(reused, method, this.ctx.signal, maxBytes, timeoutMs);
      // The server closed the idle connection meanwhile: once more, on a fresh one.
      if (answer.data.length > 0) return this.settle(reused, answer);
      reused.destroy();
    }
    const socket = await this.open(timeoutMs);
    socket.write(request, 'utf8');
    return this.settle(socket, await readAnswer(socket, method, this.ctx.signal, maxBytes, timeoutMs));
  }

  private settle(socket: Socket, answer: Read): Answer {
    if (answer.reusable) this.keep(socket);
    else socket.destroy();
    return { data: answer.data, truncated: answer.truncated };
  }
}

/**
 * The listener limit of a signal, 0 for none. Node 20's `getMaxListeners` throws for an
 * EventTarget whose limit was set to 0 (unlimited), as the scan pipeline sets its signal's:
 * every attack check of a scan through the runner failed on it.
 */
function listenerLimit(signal: AbortSignal): number {
  try {
    return getMaxListeners(signal);
  } catch {
    return 0;
  }
}
