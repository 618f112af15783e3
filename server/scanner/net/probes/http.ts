/**
 * HTTP/1.x on any port: `GET /` and read the status line, headers and the start of the body.
 * The `Server` header names the product; an Elasticsearch (or OpenSearch) node is recognised
 * from its `X-elastic-product` header or the JSON banner it serves on `/`.
 */
import type { ProbeSession } from '../probe-session.ts';
import { urlHost } from '../target-address.ts';
import {
  compact,
  productAndVersion,
  type ClientFirstProbe,
  type ProbeContext,
  type ProbeFinding,
} from './probe.ts';

/** Most body bytes looked at. */
const BODY_LIMIT = 16 * 1024;

export interface HttpResponse {
  httpVersion: string;
  status: number;
  reason: string;
  headers: Map<string, string>;
  body: Buffer;
}

export const http: ClientFirstProbe = {
  name: 'http',
  async run(session, context) {
    const response = await get(session, context);
    return response ? identifyHttp(response, context) : null;
  },
};

async function get(session: ProbeSession, context: ProbeContext): Promise<HttpResponse | undefined> {
  session.write(
    `GET / HTTP/1.1\r\nHost: ${urlHost(context.address)}:${context.port}\r\n` +
      'User-Agent: scanward-probe\r\nAccept: */*\r\nConnection: close\r\n\r\n',
  );
  return parseHttpResponse(await session.read(httpResponseComplete, context.replyWaitMs));
}

/** Headers received and the body complete (by Content-Length or chunked end) or past the limit; or not HTTP at all. */
export function httpResponseComplete(data: Buffer): boolean {
  if (data.length >= 5 && data.toString('latin1', 0, 5) !== 'HTTP/') return true;
  const headerEnd = data.indexOf('\r\n\r\n');
  if (headerEnd === -1) return data.length > 64 * 1024;
  const body = data.length - headerEnd - 4;
  if (body >= BODY_LIMIT) return true;
  const head = data.toString('latin1', 0, headerEnd);
  const length = /^content-length:\s*(\d+)/im.exec(head);
  if (length) return body >= Number(length[1]);
  if (/^transfer-encoding:\s*chunked/im.test(head)) {
    return data.subarray(-5).toString('latin1') === '0\r\n\r\n';
  }
  return /^HTTP\/1\.\d (?:1\d\d|204|304)/.test(head);
}

export function parseHttpResponse(data: Buffer): HttpResponse | undefined {
  const statusLine = /^HTTP\/(\d(?:\.\d)?) (\d{3})(?: ([^\r\n]*))?\r?\n/.exec(
    data.toString('latin1', 0, 1024),
  );
  if (!statusLine) return undefined;
  const headerEnd = data.indexOf('\r\n\r\n');
  const head = data.toString('latin1', 0, headerEnd === -1 ? data.length : headerEnd);
  const headers = new Map<string, string>();
  for (const line of head.split(/\r?\n/).slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  let body = headerEnd === -1 ? Buffer.alloc(0) : data.subarray(headerEnd + 4, headerEnd + 4 + BODY_LIMIT);
  if (/chunked/i.test(headers.get('transfer-encoding') ?? '')) body = dechunk(body);
  return {
    httpVersion: statusLine[1] as string,
    status: Number(statusLine[2]),
    reason: statusLine[3] ?? '',
    headers,
    body,
  };
}

export function identifyHttp(response: HttpResponse, context: Pick<ProbeContext, 'tls'>): ProbeFinding {
  const server = response.headers.get('server');
  const statusLine = `HTTP/${response.httpVersion} ${response.status} ${response.reason}`.trim();
  const elastic = elasticsearchBanner(response);
  if (elastic) return elastic;
  return compact<ProbeFinding>({
    service: context.tls ? 'https' : 'http',
    ...(server ? productAndVersion(server) : {}),
    banner: server ? `${statusLine}\nServer: ${server}` : statusLine,
    details: compact({
      status: response.status,
      server,
      powered_by: response.headers.get('x-powered-by'),
      title: title(response.body),
      location: response.headers.get('location'),
    }),
  });
}

function elasticsearchBanner(response: HttpResponse): ProbeFinding | null {
  const header = response.headers.get('x-elastic-product');
  const json = jsonBody(response.body);
  const version = json?.version as Record<string, unknown> | undefined;
  const number = typeof version?.number === 'string' ? version.number : undefined;
  const tagline = typeof json?.tagline === 'string' ? json.tagline : '';
  const looksElastic =
    number !== undefined && (/for Search/i.test(tagline) || version?.lucene_version !== undefined);
  if (!header && !looksElastic) return null;
  const product = version?.distribution === 'opensearch' ? 'OpenSearch' : 'Elasticsearch';
  return compact<ProbeFinding>({
    service: 'elasticsearch',
    product,
    version: looksElastic ? number : undefined,
    banner: looksElastic ? `${product} ${number}` : `HTTP ${response.status}, X-elastic-product: ${header}`,
    anonymousAccess:
      response.status === 200 ? true : response.status === 401 || response.status === 403 ? false : undefined,
    details: compact({
      status: response.status,
      cluster_name: typeof json?.cluster_name === 'string' ? json.cluster_name : undefined,
      build_flavor: typeof version?.build_flavor === 'string' ? version.build_flavor : undefined,
      lucene_version: typeof version?.lucene_version === 'string' ? version.lucene_version : undefined,
    }),
  });
}

function jsonBody(body: Buffer): Record<string, unknown> | undefined {
  const text = body.toString('utf8').trim();
  if (!text.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function title(body: Buffer): string | undefined {
  const match = /<title[^>]*>([^<]{1,200})<\/title>/i.exec(body.toString('utf8'));
  return match?.[1]?.trim().replace(/\s+/g, ' ') || undefined;
}

function dechunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  while (at < body.length) {
    const lineEnd = body.indexOf('\r\n', at);
    if (lineEnd === -1) break;
    const size = parseInt(body.toString('latin1', at, lineEnd), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}
