/**
 * Raw HTTP/1.1 requests written as given, and responses read whole and parsed: status line,
 * headers (repeated ones joined) and a de-chunked body, noting when the answer was cut at
 * the byte budget or the deadline. The exchange itself is `exchangeHttp` (http-exchange.ts),
 * shared with the web checks' `httpGet`; the template engine sends every template request
 * through `sendHttpRequest` (templates/http-client.ts).
 */
import type { ServiceIdentification } from './services.ts';
import { exchangeHttp } from './http-exchange.ts';
import type { PhaseContext } from '../types.ts';

export interface IncomingResponse {
  status: number;
  /** Status line and headers as received. */
  head: string;
  /** Header name (lowercase) → value; repeated headers joined with `, `. */
  headers: Map<string, string>;
  body: Buffer;
  /** The response was cut at the byte budget or the deadline. */
  truncated: boolean;
}

export interface OutgoingRequest {
  method: string;
  /** Request target: `/path?query`. */
  target: string;
  /** Host header value. */
  host: string;
  headers: Array<[string, string]>;
  body: string | undefined;
}

export interface RequestLimits {
  /** Most bytes read of the response. */
  maxBytes: number;
  /** Most time for the request, connecting included. */
  timeoutMs: number;
  /** Sent unless the request names its own `User-Agent`. */
  userAgent: string;
}

/** The request as sent on the wire. */
export function renderRequest(req: OutgoingRequest, userAgent: string): string {
  const lines = [`${req.method} ${req.target} HTTP/1.1`, `Host: ${req.host}`];
  const names = new Set(req.headers.map(([n]) => n.toLowerCase()));
  if (!names.has('user-agent')) lines.push(`User-Agent: ${userAgent}`);
  if (!names.has('accept')) lines.push('Accept: */*');
  for (const [name, value] of req.headers) {
    if (/^(host|content-length|connection|transfer-encoding)$/i.test(name)) continue;
    lines.push(`${name}: ${value}`);
  }
  if (req.body !== undefined) lines.push(`Content-Length: ${Buffer.byteLength(req.body, 'utf8')}`);
  lines.push('Connection: close');
  return `${lines.join('\r\n')}\r\n\r\n${req.body ?? ''}`;
}

/** Sends one request; rejects when the service cannot be reached or the scan aborts. */
export async function sendHttpRequest(
  ctx: PhaseContext,
  service: ServiceIdentification,
  req: OutgoingRequest,
  limits: RequestLimits,
): Promise<{ request: string; response: IncomingResponse | undefined }> {
  const request = renderRequest(req, limits.userAgent);
  const { data, truncated } = await exchangeHttp(ctx, service, request, {
    maxBytes: limits.maxBytes,
    timeoutMs: limits.timeoutMs,
    complete: expectedEnd,
  });
  return { request, response: parseResponse(data, truncated) };
}

function expectedEnd(data: Buffer): boolean {
  const headerEnd = data.indexOf('\r\n\r\n');
  if (headerEnd === -1) return false;
  const head = data.toString('latin1', 0, headerEnd);
  const body = data.length - headerEnd - 4;
  const length = /^content-length:\s*(\d+)/im.exec(head);
  if (length) return body >= Number(length[1]);
  if (/^transfer-encoding:\s*chunked/im.test(head))
    return data.subarray(-5).toString('latin1') === '0\r\n\r\n';
  return /^HTTP\/1\.\d (?:1\d\d|204|304)/.test(head);
}

function dechunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let pos = 0;
  while (pos < body.length) {
    const lineEnd = body.indexOf('\r\n', pos);
    if (lineEnd === -1) break;
    const size = parseInt(body.toString('latin1', pos, lineEnd).split(';')[0] as string, 16);
    if (!Number.isFinite(size) || size <= 0) break;
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    pos = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/** Status line, headers and body (de-chunked); undefined when the answer is not HTTP. */
export function parseResponse(data: Buffer, truncated = false): IncomingResponse | undefined {
  const status = /^HTTP\/\d(?:\.\d)? (\d{3})/.exec(data.toString('latin1', 0, 64));
  if (!status) return undefined;
  const headerEnd = data.indexOf('\r\n\r\n');
  const head = data.toString('latin1', 0, headerEnd === -1 ? data.length : headerEnd);
  const headers = new Map<string, string>();
  for (const line of head.split(/\r?\n/).slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    const seen = headers.get(name);
    headers.set(name, seen === undefined ? value : `${seen}, ${value}`);
  }
  let body = headerEnd === -1 ? Buffer.alloc(0) : data.subarray(headerEnd + 4);
  if (/chunked/i.test(headers.get('transfer-encoding') ?? '')) body = dechunk(body);
  return { status: Number(status[1]), head, headers, body, truncated };
}
