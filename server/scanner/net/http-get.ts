/**
 * One HTTP request of the web checks on its own connection (`httpGet`), and the home page
 * fetched once per service and scan (`getRoot`), shared by the web checks and the crawl
 * (checks/web*.ts). The response is read as the HTTP probe reads it (`probes/http.ts`).
 */
import type { ServiceIdentification } from './services.ts';
import { httpResponseComplete, parseHttpResponse, type HttpResponse } from './probes/http.ts';
import { renderBytes } from './probe-session.ts';
import { urlHost } from './target-address.ts';
import type { PhaseContext, ScanState } from '../types.ts';
import { exchangeHttp, isTlsService } from './http-exchange.ts';
import { hostTarget, sharedExchange } from './service-connect.ts';

/** Most bytes read of one response. */
export const MAX_RESPONSE_BYTES = 64 * 1024;
/** Most time for one request, connecting included. */
export const REQUEST_TIMEOUT_MS = 10_000;

export interface HttpExchange {
  /** The request as sent, as text. */
  request: string;
  /** Status line and headers as received, as text. */
  head: string;
  response: HttpResponse | undefined;
  /** Every `Set-Cookie` header, in order (the parsed headers keep only the last). */
  setCookies: string[];
}

function hostHeader(ctx: PhaseContext, service: ServiceIdentification): string {
  const defaultPort = isTlsService(service) ? 443 : 80;
  const host = urlHost(hostTarget(ctx, service));
  return service.port === defaultPort ? host : `${host}:${service.port}`;
}

/** A request with an extra header (`Origin`, a marker) or another method, on its own connection. */
export interface HttpRequestOptions {
  method?: string;
  headers?: Record<string, string>;
}

/** `GET path` (or `method path`) on its own connection; rejects when the service cannot be reached or the scan aborts. */
export async function httpGet(
  ctx: PhaseContext,
  service: ServiceIdentification,
  path: string,
  options: HttpRequestOptions = {},
): Promise<HttpExchange> {
  const extra = Object.entries(options.headers ?? {})
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const request =
    `${options.method ?? 'GET'} ${path} HTTP/1.1\r\nHost: ${hostHeader(ctx, service)}\r\nUser-Agent: scanward-web\r\n` +
    `Accept: */*\r\n${extra}Connection: close\r\n\r\n`;
  const { data: raw } = await exchangeHttp(ctx, service, request, {
    maxBytes: MAX_RESPONSE_BYTES,
    timeoutMs: REQUEST_TIMEOUT_MS,
    complete: httpResponseComplete,
  });
  const headerEnd = raw.indexOf('\r\n\r\n');
  const rawHead = (headerEnd === -1 ? raw : raw.subarray(0, headerEnd)).toString('latin1');
  const response = parseHttpResponse(raw);
  return {
    request: renderBytes(Buffer.from(request.trimEnd(), 'latin1')),
    head: renderBytes(headerEnd === -1 ? raw : raw.subarray(0, headerEnd)),
    // A copy of the (at most 16 KiB) body, so a shared `GET /` does not keep the whole read alive.
    response: response && { ...response, body: Buffer.from(response.body) },
    setCookies: rawHead
      .split(/\r?\n/)
      .filter((line) => /^set-cookie\s*:/i.test(line))
      .map((line) => line.slice(line.indexOf(':') + 1).trim()),
  };
}

const rootResponses = new WeakMap<ScanState, Map<string, Promise<HttpExchange>>>();

/** `GET /`, fetched once per service and scan for the header and listing checks. */
export function getRoot(ctx: PhaseContext, service: ServiceIdentification): Promise<HttpExchange> {
  return sharedExchange(rootResponses, ctx, `${service.address}|${service.port}`, () =>
    httpGet(ctx, service, '/'),
  );
}
