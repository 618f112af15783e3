import { expect } from 'vitest';
import type { z } from 'zod';
import type { AnyRoute, HttpMethod, RouteSpec } from '../../server/http/contract.ts';
import { rateHeaderStatuses } from '../../server/http/openapi.ts';
import { allRoutes } from '../../server/routes/index.ts';
import { ErrorResponse } from '../../server/schemas/common.ts';

/**
 * The one HTTP client of the tests. It sends JSON (or a form, for routes
 * declared with `bodyType: 'form'`) with one credential, and checks every
 * answer against the route declarations (server/routes/index.ts `allRoutes`):
 * a JSON body must match the schema the route declares for that status, an
 * error must be the `{detail, error_code, field?}` envelope, and a success
 * status the route does not declare fails the test. So /openapi.json stays a
 * promise the tests keep, from the client's side as well as the server's.
 */

/** Who calls: a bearer token, an API key, raw headers, or nobody. */
export type Credential = { token: string } | { apiKey: string } | { headers: Record<string, string> } | null;

export interface Answer<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  /** The parsed JSON body (`{}` when empty; the text itself when not JSON). */
  body: T;
  text: string;
}

export interface CallOptions {
  /** Extra request headers (they win over the credential's). */
  headers?: Record<string, string>;
}

export interface ApiClient {
  get<T = Record<string, unknown>>(path: string, options?: CallOptions): Promise<Answer<T>>;
  post<T = Record<string, unknown>>(path: string, body?: unknown, options?: CallOptions): Promise<Answer<T>>;
  put<T = Record<string, unknown>>(path: string, body?: unknown, options?: CallOptions): Promise<Answer<T>>;
  patch<T = Record<string, unknown>>(path: string, body?: unknown, options?: CallOptions): Promise<Answer<T>>;
  del<T = Record<string, unknown>>(path: string, options?: CallOptions): Promise<Answer<T>>;
  send<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    options?: CallOptions,
  ): Promise<Answer<T>>;
  /**
   * Calls a declared route (the constant `server/routes/` exports) with inputs typed by its
   * schemas, `{name}` in its path filled from `params`; the body is typed as the route's
   * declared success response (`RouteBody<R>`). The answer is checked like any other, so a
   * test reads `okBody(await api.call(getScanRoute, { params: { scan_id } })).status`.
   */
  call<R extends AnyRoute>(
    route: R,
    input?: RouteInput<R>,
    options?: CallOptions,
  ): Promise<Answer<RouteBody<R>>>;
  /** The same client with another credential. */
  as(credential: Credential): ApiClient;
}

type In<T> = T extends z.ZodType ? z.input<T> : never;
export type RouteInput<R> =
  R extends RouteSpec<infer P, infer Q, infer B, infer H>
    ? {
        params?: In<P>;
        query?: Partial<Record<keyof In<Q>, string | number | boolean>>;
        body?: In<B>;
        headers?: In<H>;
      }
    : never;

type SuccessBody<Responses> = {
  [K in keyof Responses]: K extends number
    ? `${K}` extends `2${string}`
      ? Responses[K] extends { schema: infer S extends z.ZodType }
        ? z.output<S>
        : never
      : never
    : never;
}[keyof Responses];

/**
 * What a route answers on success: the output of the schema of its declared 2xx response (a
 * union when it declares several), or a plain record for a route that answers no JSON.
 */
export type RouteBody<R> =
  R extends RouteSpec<infer _P, infer _Q, infer _B, infer _H, infer Responses>
    ? [SuccessBody<Responses>] extends [never]
      ? Record<string, unknown>
      : SuccessBody<Responses>
    : Record<string, unknown>;

/** Where the client sends requests: a test app, or a server process (`{ url }`) serving the production routes. */
export interface ApiTarget {
  url: string;
  routes?: AnyRoute[];
}

function credentialHeaders(credential: Credential): Record<string, string> {
  if (!credential) return {};
  if ('token' in credential) return { authorization: `Bearer ${credential.token}` };
  if ('apiKey' in credential) return { 'x-api-key': credential.apiKey };
  return credential.headers;
}

const patterns = new WeakMap<AnyRoute, RegExp>();
function patternOf(route: AnyRoute): RegExp {
  let re = patterns.get(route);
  if (!re) {
    const source = route.path
      .split(/\{\w+\}/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^/]+');
    re = new RegExp(`^${source}/?$`);
    patterns.set(route, re);
  }
  return re;
}

/** The route that serves a request, as the router picks it: the first declared whose pattern matches. */
export function routeFor(routes: AnyRoute[], method: string, path: string): AnyRoute | undefined {
  const pathname = new URL(path, 'http://x').pathname;
  const m = method.toLowerCase() as HttpMethod;
  return routes.find((r) => r.method === m && patternOf(r).test(pathname));
}

/**
 * Checks an answer against the route contract; throws (failing the test) with
 * what broke. Answers that are not JSON, and JSON of paths no route declares
 * (docs, metrics), are checked only when they are errors. `X-RateLimit-*` may
 * come only on the statuses the document declares them for, and always comes
 * on a counted route's success.
 */
export function checkAnswer(
  route: AnyRoute | undefined,
  request: string,
  status: number,
  contentType: string,
  body: unknown,
  headers?: Headers,
): void {
  const json = /[/+]json\b/.test(contentType);
  const declared = route?.responses[status];
  if (route && status < 400 && !declared) {
    throw new Error(`${request}: ${route.operationId} answered ${status}, which it does not declare`);
  }
  if (route && headers) {
    const rate = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'].filter((h) =>
      headers.has(h),
    );
    const declaresRate = rateHeaderStatuses(route).has(status);
    if (rate.length > 0 && !declaresRate) {
      throw new Error(
        `${request}: ${route.operationId} answered ${status} with ${rate.join(', ')}, undeclared`,
      );
    }
    if (declaresRate && status < 300 && rate.length !== 3) {
      throw new Error(`${request}: ${route.operationId} answered ${status} without all of X-RateLimit-*`);
    }
  }
  if (!json) return;
  const schema = declared?.schema ?? (status >= 400 ? ErrorResponse : undefined);
  if (!schema) return;
  const check = schema.safeParse(body);
  if (!check.success) {
    throw new Error(
      `${request} answered ${status} with a body that breaks ${route ? route.operationId : 'the error'} contract: ${check.error.message}\n${JSON.stringify(body).slice(0, 2000)}`,
    );
  }
}

function fillPath(path: string, params: Record<string, unknown> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (params[name] === undefined) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(String(params[name]));
  });
}

/** A client of the app (or server process) sending `credential` with every request. */
export function apiClient(target: ApiTarget, credential: Credential = null): ApiClient {
  const routes = target.routes ?? allRoutes;
  const send = async <T>(method: string, path: string, body?: unknown, options: CallOptions = {}) => {
    const upper = method.toUpperCase();
    const route = routeFor(routes, upper, path);
    const form = route?.bodyType === 'form' && body !== undefined && typeof body === 'object';
    // Bytes and multipart forms (file uploads) are sent as they are; fetch writes a form's boundary.
    const bytes = body instanceof Uint8Array;
    const multipart = body instanceof FormData;
    const headers: Record<string, string> = {
      ...credentialHeaders(credential),
      ...(body === undefined || multipart
        ? {}
        : {
            'content-type': bytes
              ? 'application/octet-stream'
              : form
                ? 'application/x-www-form-urlencoded'
                : 'application/json',
          }),
      ...options.headers,
    };
    const encoded =
      body === undefined
        ? undefined
        : bytes || multipart
          ? body
          : form
            ? new URLSearchParams(body as Record<string, string>).toString()
            : JSON.stringify(body);
    const res = await fetch(target.url + path, { method: upper, headers, body: encoded });
    const contentType = res.headers.get('content-type') ?? '';
    // An event stream that opened never ends by itself: its status and headers are the answer
    // (the stream's own tests read it with an EventSource-like reader of their own).
    if (res.ok && /^text\/event-stream/.test(contentType)) {
      await res.body?.cancel();
      return { status: res.status, headers: res.headers, body: {} as T, text: '' };
    }
    const text = await res.text();
    let parsed: unknown = {};
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    checkAnswer(route, `${upper} ${path}`, res.status, contentType, parsed, res.headers);
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  };
  return {
    get: (path, options) => send('GET', path, undefined, options),
    post: (path, body, options) => send('POST', path, body, options),
    put: (path, body, options) => send('PUT', path, body, options),
    patch: (path, body, options) => send('PATCH', path, body, options),
    del: (path, options) => send('DELETE', path, undefined, options),
    send,
    call: (route, input = {} as RouteInput<typeof route>, options = {}) => {
      const { params, query, body, headers } = input as {
        params?: Record<string, unknown>;
        query?: Record<string, string | number | boolean>;
        body?: unknown;
        headers?: Record<string, string>;
      };
      const search = query
        ? `?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString()}`
        : '';
      return send<RouteBody<typeof route>>(route.method, fillPath(route.path, params) + search, body, {
        headers: { ...headers, ...options.headers },
      });
    },
    as: (other) => apiClient(target, other),
  };
}

/** A timestamp as the API writes it: ISO 8601 UTC with milliseconds and a `Z`. */
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * Asserts an error answer: its status, a JSON `{detail, error_code, field?}`
 * envelope with nothing beside it, the code, and the field when given. Takes an
 * answer of the client or a raw `Response` (for the requests the client cannot
 * make: raw bytes, odd headers). Answers the body.
 */
export async function expectError(
  answer: Answer<unknown> | Response,
  status: number,
  code: string,
  field?: string,
): Promise<ErrorResponse> {
  expect(answer.status).toBe(status);
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  const body: unknown = answer instanceof Response ? await answer.json() : answer.body;
  const error = ErrorResponse.strict().parse(body);
  expect(error.error_code).toBe(code);
  if (field !== undefined) expect(error.field).toBe(field);
  return error;
}

/** The body of a successful answer (of exactly `status` when given); fails the test, showing the answer, otherwise. */
export function okBody<T>(answer: Answer<T>, status?: number): T {
  const request = `answered ${answer.status}: ${answer.text.slice(0, 500)}`;
  if (status === undefined) expect(answer.status, request).toBeLessThan(300);
  else expect(answer.status, request).toBe(status);
  return answer.body;
}
