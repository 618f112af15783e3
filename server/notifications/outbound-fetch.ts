import { sendOutbound } from '../webhooks/outbound.ts';

/**
 * A `fetch` over the receiver address policy (webhooks/outbound.ts), for clients that take
 * one (Octokit): every request connects only to an allowed, checked address. A request that
 * gets no answer rejects, as fetch does.
 */
export function policyFetch(allowPrivate: boolean, timeoutMs = 15_000): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url;
    const headers: Record<string, string> = {};
    new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined)).forEach((v, k) => {
      headers[k] = v;
    });
    const body = typeof init?.body === 'string' ? init.body : init?.body ? String(init.body) : undefined;
    const answer = await sendOutbound({
      url,
      method: init?.method ?? 'GET',
      headers,
      ...(body !== undefined ? { body } : {}),
      allowPrivate,
      timeoutMs,
      maxResponseBytes: 1024 * 1024,
    });
    if (answer.status === 0) throw new TypeError(`fetch failed: ${answer.error ?? 'no answer'}`);
    const empty = answer.status === 204 || answer.status === 304;
    return new Response(empty ? null : answer.body, { status: answer.status, headers: answer.headers });
  }) as typeof fetch;
}

/** A JSON call through the policy; answers the status and the parsed body (or the text). */
export async function jsonCall(
  allowPrivate: boolean,
  request: { url: string; method: string; headers: Record<string, string>; body?: unknown },
): Promise<{ status: number; body: unknown; error?: string }> {
  const answer = await sendOutbound({
    url: request.url,
    method: request.method,
    headers: {
      accept: 'application/json',
      ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...request.headers,
    },
    ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
    allowPrivate,
    timeoutMs: 15_000,
    maxResponseBytes: 1024 * 1024,
  });
  if (answer.status === 0) return { status: 0, body: null, error: answer.error ?? 'no answer' };
  let body: unknown = answer.body;
  try {
    body = answer.body ? JSON.parse(answer.body) : null;
  } catch {
    // not JSON: keep the text
  }
  return { status: answer.status, body };
}
