/**
 * Requests as templates write them, and responses as their matchers read them. The raw
 * HTTP/1.1 request and response code is the scanner's network layer (net/http-client.ts),
 * shared with the web checks' exchange; templates read up to MAX_TEMPLATE_RESPONSE_BYTES
 * and note when an answer was cut.
 */
import type { ServiceIdentification } from '../net/services.ts';
import { sendHttpRequest, type IncomingResponse, type OutgoingRequest } from '../net/http-client.ts';
import type { PhaseContext } from '../types.ts';

/** Most bytes read of one response. */
export const MAX_TEMPLATE_RESPONSE_BYTES = 256 * 1024;
/** Most time for one request, connecting included. */
export const TEMPLATE_REQUEST_TIMEOUT_MS = 10_000;

/** A response as the template matchers read it. */
export type TemplateResponse = IncomingResponse;

/** Sends one request; rejects when the service cannot be reached or the scan aborts. */
export function sendTemplateRequest(
  ctx: PhaseContext,
  service: ServiceIdentification,
  req: OutgoingRequest,
): Promise<{ request: string; response: TemplateResponse | undefined }> {
  return sendHttpRequest(ctx, service, req, {
    maxBytes: MAX_TEMPLATE_RESPONSE_BYTES,
    timeoutMs: TEMPLATE_REQUEST_TIMEOUT_MS,
    userAgent: 'scanward-templates',
  });
}
