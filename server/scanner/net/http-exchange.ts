/**
 * One HTTP/1.1 exchange with a scanned service, under both the web checks (`http-get.ts`)
 * and the template engine (`http-client.ts`): a connection of its own opened with
 * `connectService` (the scan's scope guard, then the literal approved address; TLS for
 * HTTPS services, old protocols allowed so a server that only speaks TLS 1.0 is still
 * examined), the request written, the answer read until the caller's `complete` says it
 * is whole, the peer closes, the byte budget or the deadline is reached. The scan's signal
 * tears it down at once.
 */
import type { Socket } from 'node:net';
import type { ServiceIdentification } from './services.ts';
import type { PhaseContext } from '../types.ts';
import { connectService } from './service-connect.ts';

export const isTlsService = (service: ServiceIdentification): boolean =>
  service.service === 'https' || service.tls === true;

export interface ExchangeLimits {
  maxBytes: number;
  /** Connecting included. */
  timeoutMs: number;
  /** Whether the bytes read so far are a whole response. */
  complete(data: Buffer): boolean;
}

export interface RawExchange {
  data: Buffer;
  /** Cut at the byte budget or the deadline. */
  truncated: boolean;
}

/** Sends `request` and reads the answer; rejects when the service cannot be reached or the scan aborts. */
export async function exchangeHttp(
  ctx: PhaseContext,
  service: ServiceIdentification,
  request: string,
  limits: ExchangeLimits,
): Promise<RawExchange> {
  const deadline = performance.now() + limits.timeoutMs;
  const socket = await connectService(ctx, service, {
    ...(isTlsService(service) && { tls: { minVersion: 'TLSv1', ciphers: 'DEFAULT:@SECLEVEL=0' } }),
    timeoutMs: limits.timeoutMs,
  });
  try {
    socket.write(request, 'utf8');
    return await readAnswer(socket, ctx.signal, deadline, limits);
  } finally {
    socket.destroy();
  }
}

function readAnswer(
  socket: Socket,
  signal: AbortSignal,
  deadline: number,
  limits: ExchangeLimits,
): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    const finish = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', finish);
      socket.removeListener('data', onData);
      socket.removeListener('end', finish);
      socket.removeListener('close', finish);
      if (signal.aborted) reject(signal.reason);
      else resolve({ data: Buffer.concat(chunks), truncated });
    };
    const onData = (chunk: Buffer): void => {
      const kept = chunk.subarray(0, limits.maxBytes - size);
      chunks.push(kept);
      size += kept.length;
      if (size >= limits.maxBytes) {
        truncated = true;
        finish();
      } else if (limits.complete(Buffer.concat(chunks))) finish();
    };
    const timer = setTimeout(
      () => {
        truncated = true;
        finish();
      },
      Math.max(0, deadline - performance.now()),
    );
    signal.addEventListener('abort', finish, { once: true });
    socket.on('data', onData);
    socket.once('end', finish);
    socket.once('close', finish);
    if (signal.aborted) finish();
  });
}
