import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { checkWebhookUrl } from './url-policy.ts';

/**
 * One outgoing HTTP request to an address the receiver policy (url-policy.ts) allows,
 * connecting only to the addresses it checked (no DNS rebinding in between), with a
 * timeout and a bounded answer. Webhook deliveries and the integrations
 * (notifications/) both send through it.
 */

export interface OutboundRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  allowPrivate: boolean;
  timeoutMs: number;
  /** The answer is cut off beyond this many bytes. */
  maxResponseBytes?: number;
  userAgent?: string;
}

export interface OutboundAnswer {
  /** 0 when no answer came (refused address, network error, timeout). */
  status: number;
  headers: Record<string, string>;
  body: string;
  ms: number;
  /** Why no answer came. */
  error?: string;
}

export async function sendOutbound(request: OutboundRequest): Promise<OutboundAnswer> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failed = (error: string): OutboundAnswer => ({
    status: 0,
    headers: {},
    body: '',
    ms: elapsed(),
    error,
  });
  let checked: { url: URL; addresses: string[] };
  try {
    checked = await checkWebhookUrl(request.url, request.allowPrivate);
  } catch (err) {
    return failed(err instanceof Error ? err.message : 'url refused');
  }
  const address = checked.addresses[0]!;
  const family = address.includes(':') ? 6 : 4;
  const pinnedLookup: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all) {
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
        { address, family },
      ]);
    } else {
      callback(null, address, family);
    }
  };
  const client = checked.url.protocol === 'https:' ? https : http;
  const limit = request.maxResponseBytes ?? 64 * 1024;
  return new Promise<OutboundAnswer>((resolve) => {
    const req = client.request(
      checked.url,
      {
        method: request.method ?? 'POST',
        headers: {
          ...request.headers,
          ...(request.body !== undefined ? { 'content-length': Buffer.byteLength(request.body) } : {}),
          'user-agent': request.userAgent ?? 'Scanward/1',
        },
        lookup: pinnedLookup,
        signal: AbortSignal.timeout(request.timeoutMs),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let received = 0;
        res.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > limit) res.destroy();
          else chunks.push(chunk);
        });
        let answered = false;
        const done = () => {
          if (answered) return;
          answered = true;
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(res.headers)) {
            if (typeof value === 'string') headers[name] = value;
            else if (Array.isArray(value)) headers[name] = value.join(', ');
          }
          resolve({
            status: res.statusCode ?? 0,
            headers,
            body: Buffer.concat(chunks).toString('utf8'),
            ms: elapsed(),
          });
        };
        res.on('end', done);
        res.on('close', done);
      },
    );
    req.on('error', (err) =>
      resolve(
        failed(err.name === 'AbortError' ? `timed out after ${request.timeoutMs / 1000} s` : err.message),
      ),
    );
    req.end(request.body);
  });
}
