/**
 * Runs network templates (`tcp:`, network.ts) against one identified service. A template runs
 * on a service when the service's port is one the template names (`port: 6379,6380`, nuclei's
 * own rule) or when one of its tags names the identified protocol (`redis` on a Redis found on
 * port 7000, which nuclei would reach given that port); a template naming neither runs nowhere.
 *
 * Every connection is `connectService`'s: the scan's scope guard, then the literal address
 * discovery approved; TLS (`tls://{{Hostname}}`) only on services identified inside TLS, plain
 * otherwise. Inputs are written in order; a read (`read: N`, the final `read-size`) ends at N
 * bytes, when the peer closes, READ_IDLE_MS after the last bytes, or READ_TIMEOUT_MS after it
 * began. The default part (`data`) is the final read, `raw` everything read on the connection.
 */
import type { Socket } from 'node:net';
import type { ServiceIdentification } from '../net/services.ts';
import { urlHost } from '../net/target-address.ts';
import { connectService, hostTarget } from '../net/service-connect.ts';
import type { PhaseContext } from '../types.ts';
import { substitute } from './execute.ts';
import {
  judge,
  protocolDetection,
  RawView,
  renderEvidence,
  runProtocolTemplates,
  type ProtocolRun,
} from './protocol-run.ts';
import type { CompiledNetworkRequest, NetworkTemplate } from './schema.ts';

/** Most time one read waits. */
export const READ_TIMEOUT_MS = 5_000;
/** Silence after which a read that has bytes is complete. */
export const READ_IDLE_MS = 500;

/** Whether a network template is for this service: by port, or by a tag naming its protocol. */
export function networkTemplateApplies(template: NetworkTemplate, service: ServiceIdentification): boolean {
  const tls = service.tls === true;
  if (!template.requests.some((r) => r.tls.includes(tls))) return false;
  if (template.ports.includes(service.port)) return true;
  return service.service !== 'unknown' && template.info.tags.includes(service.service);
}

function read(socket: Socket, max: number, signal: AbortSignal): Promise<Buffer> {
  if (max <= 0) return Promise.resolve(Buffer.alloc(0));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let idle: NodeJS.Timeout | undefined;
    const finish = (): void => {
      clearTimeout(timer);
      clearTimeout(idle);
      socket.off('data', onData);
      socket.off('close', finish);
      signal.removeEventListener('abort', finish);
      socket.pause();
      if (signal.aborted) reject(signal.reason);
      else resolve(Buffer.concat(chunks));
    };
    const onData = (chunk: Buffer): void => {
      const kept = chunk.subarray(0, max - size);
      chunks.push(kept);
      size += kept.length;
      clearTimeout(idle);
      if (size < max) {
        idle = setTimeout(finish, READ_IDLE_MS);
        return;
      }
      // Stop listening (and pause) before handing back the bytes past this read's size: a
      // socket read of N bytes leaves them for the next read, and `unshift` on a flowing
      // socket with this listener still attached would emit them straight back to it.
      finish();
      if (kept.length < chunk.length) socket.unshift(chunk.subarray(kept.length));
    };
    const timer = setTimeout(finish, READ_TIMEOUT_MS);
    signal.addEventListener('abort', finish, { once: true });
    socket.on('data', onData);
    socket.once('close', finish);
    socket.resume();
    if (signal.aborted || socket.destroyed) finish();
  });
}

interface Exchange {
  sent: string;
  final: Buffer;
  raw: Buffer;
  named: Map<string, string>;
}

async function exchange(
  ctx: PhaseContext,
  service: ServiceIdentification,
  request: CompiledNetworkRequest,
  variables: ReadonlyMap<string, string>,
): Promise<Exchange> {
  const tls = service.tls === true;
  const socket = await connectService(ctx, service, {
    ...(tls && { tls: { minVersion: 'TLSv1', ciphers: 'DEFAULT:@SECLEVEL=0' } }),
  });
  try {
    socket.pause();
    const reads: Buffer[] = [];
    const named = new Map<string, string>();
    let sent = '';
    for (const input of request.inputs) {
      const data = substitute(input.data, variables);
      sent += data;
      if (!socket.destroyed) socket.write(Buffer.from(data, 'latin1'));
      if (input.read > 0) {
        const got = await read(socket, input.read, ctx.signal);
        reads.push(got);
        if (input.name) named.set(input.name, got.toString('latin1'));
      }
    }
    const final = await read(socket, request.readSize, ctx.signal);
    reads.push(final);
    return { sent, final, raw: Buffer.concat(reads), named };
  } finally {
    socket.destroy();
  }
}

/** Runs the network templates meant for this service; throws when none could connect at all. */
export async function runNetworkTemplates(
  ctx: PhaseContext,
  service: ServiceIdentification,
  templates: readonly NetworkTemplate[],
): Promise<ProtocolRun> {
  const target = hostTarget(ctx, service);
  const host = urlHost(target);
  const variables = new Map([
    ['Hostname', `${host}:${service.port}`],
    ['Host', host],
    ['Port', String(service.port)],
  ]);
  const run: ProtocolRun = { detections: [], coverage: [], connections: 0 };
  let answered = 0;
  return runProtocolTemplates(
    ctx,
    run,
    { target, service },
    templates,
    (template) => template.requests,
    async (template, request) => {
      if (!request.tls.includes(service.tls === true)) return undefined;
      run.connections++;
      const vars = new Map([...template.variables, ...variables]);
      const result = await exchange(ctx, service, request, vars);
      answered++;
      const named = new Map<string, string>(result.named);
      const view = new RawView(result.final, result.raw.toString('latin1'), named, template.variables);
      if (!(await judge(ctx, template.id, request, view))) return undefined;
      return protocolDetection(
        template,
        service,
        target,
        {
          request: renderEvidence(Buffer.from(result.sent, 'latin1')),
          response: renderEvidence(result.raw),
        },
        'tcp',
      );
    },
    () => answered,
  );
}
