import type { Context, Next } from 'koa';
import { z } from 'zod';
import { idParamNouns } from '../schemas/common.ts';
import type { Principal } from '../policies/principal.ts';
import { authorize, type AccessRule } from '../policies/roles.ts';
import type { Services } from '../services.ts';
import { AppError, notFound } from '../errors.ts';
import { readBody } from './middleware/body.ts';
import { findUnstorable } from '../schemas/text.ts';

/**
 * A route is declared once: method, path, inputs and outputs as zod, the rule for
 * who may call it, and a handler. The same declaration validates requests,
 * checks responses in tests, and generates /openapi.json, so the document can
 * never drift from the code.
 */

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Who may call a route: the policies' rule (policies/roles.ts), declared on each route. */
export type { AccessRule };

export type ErrorCode =
  | 'BAD_REQUEST'
  | 'INVALID_CREDENTIALS'
  | 'MFA_REQUIRED'
  | 'INVALID_MFA_CODE'
  | 'AUTHENTICATION_REQUIRED'
  | 'TOKEN_EXPIRED'
  | 'INVALID_TOKEN'
  | 'INVALID_API_KEY'
  | 'INSUFFICIENT_PERMISSION'
  | 'PASSWORD_LOGIN_DISABLED'
  | 'PLAN_UPGRADE_REQUIRED'
  | 'SCAN_QUOTA_EXCEEDED'
  | 'AI_QUOTA_EXCEEDED'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'SCAN_NOT_CANCELLABLE'
  | 'CONFLICT'
  | 'REQUEST_TIMEOUT'
  | 'PAYLOAD_TOO_LARGE'
  | 'EXPECTATION_FAILED'
  | 'VALIDATION_ERROR'
  | 'TARGET_NOT_ALLOWED'
  | 'RATE_LIMIT_EXCEEDED'
  | 'CONCURRENT_SCAN_LIMIT'
  | 'INTERNAL_ERROR'
  | 'SERVICE_UNAVAILABLE';

/** HTTP status of every error code (decisions.md, "Success and error statuses"). */
export const errorStatus: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  INVALID_CREDENTIALS: 401,
  MFA_REQUIRED: 401,
  INVALID_MFA_CODE: 401,
  AUTHENTICATION_REQUIRED: 401,
  TOKEN_EXPIRED: 401,
  INVALID_TOKEN: 401,
  INVALID_API_KEY: 401,
  INSUFFICIENT_PERMISSION: 403,
  PASSWORD_LOGIN_DISABLED: 403,
  PLAN_UPGRADE_REQUIRED: 403,
  SCAN_QUOTA_EXCEEDED: 403,
  AI_QUOTA_EXCEEDED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  SCAN_NOT_CANCELLABLE: 409,
  CONFLICT: 409,
  REQUEST_TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  EXPECTATION_FAILED: 417,
  VALIDATION_ERROR: 422,
  TARGET_NOT_ALLOWED: 422,
  RATE_LIMIT_EXCEEDED: 429,
  CONCURRENT_SCAN_LIMIT: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
};

type AnyObject = z.ZodObject<z.ZodRawShape>;

export interface ResponseSpec {
  description: string;
  /** JSON body schema; omit for non-JSON bodies (files, HTML). */
  schema?: z.ZodType;
  /** Media type for non-JSON bodies, e.g. `text/csv`. */
  contentTypes?: string[];
}

export interface RouteSpec<
  P extends AnyObject | undefined = AnyObject | undefined,
  Q extends AnyObject | undefined = AnyObject | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  H extends AnyObject | undefined = AnyObject | undefined,
  R extends Record<number, ResponseSpec> = Record<number, ResponseSpec>,
> {
  method: HttpMethod;
  /** OpenAPI-style path: `/api/v1/scans/{scan_id}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  access: AccessRule;
  /** Whether the call counts against the organization's request rate (default: when authenticated). */
  rateLimited?: boolean;
  params?: P;
  query?: Q;
  body?: B;
  /** `json` (default) or `form` (application/x-www-form-urlencoded). */
  bodyType?: 'json' | 'form';
  /**
   * A file upload the handler reads itself (`readUpload`): documented as `multipart/form-data`
   * with these fields and as a raw `application/octet-stream` body. Not read or validated here.
   */
  upload?: z.ZodType;
  headers?: H;
  /** Keyed by status; the declared type is kept, so a test client can answer a route's own body type. */
  responses: R;
  /** Error codes this route can answer with, beyond the ones every route shares. */
  errors?: ErrorCode[];
  /**
   * Headers every answer of the route carries, success or error, set after the route ran
   * (the log-in routes' `X-RateLimit-*` of the per-address failed log-in limit). Declared on
   * every response of the route in the OpenAPI document.
   */
  answerHeaders?: (ctx: Context, services: Services) => Promise<Record<string, string>>;
  handler: (req: RouteRequest<P, Q, B, H>) => Promise<RouteResult | void>;
}

type Out<T> = T extends z.ZodType ? z.output<T> : undefined;

export interface RouteRequest<P, Q, B, H> {
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
  headers: Out<H>;
  /** Present on every route that is not public. */
  principal: Principal;
  services: Services;
  ctx: Context;
}

export interface RouteResult {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}

// The handler's request type is computed from the schemas; once stored in a list,
// routes are handled generically.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRoute = RouteSpec<any, any, any, any>;

/**
 * Declares a route. A JSON request body is made strict here, at one depth for every route
 * (`strictBody`): a field the contract does not declare is a 422 naming it, and the OpenAPI
 * document says `additionalProperties: false`. A form body (`bodyType: 'form'`, the OAuth2
 * password grant of `POST /api/v1/auth/token`) is not: OAuth clients send `grant_type`,
 * `scope`, `client_id` and the like, which it ignores. Responses are never made strict.
 */
export function defineRoute<
  P extends AnyObject | undefined = undefined,
  Q extends AnyObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  H extends AnyObject | undefined = undefined,
  R extends Record<number, ResponseSpec> = Record<number, ResponseSpec>,
>(spec: RouteSpec<P, Q, B, H, R>): RouteSpec<P, Q, B, H, R> {
  if (!spec.body || spec.bodyType === 'form') return spec;
  return { ...spec, body: strictBody(spec.body) };
}

const strictCopies = new WeakMap<z.ZodType, z.ZodType>();

/**
 * The schema with every object in it strict: an object that strips unknown keys (zod's default)
 * refuses them instead (`unrecognized_keys`), nested objects too, through optional, nullable,
 * default, array, union, intersection, record, tuple, pipe and lazy. An object that says what
 * to do with other keys itself (`z.looseObject`, a `catchall`) keeps its rule. The copies keep
 * their checks (refinements) and metadata, id included, so the OpenAPI document names the same
 * components; one copy per schema, so a component used twice is one component.
 */
export function strictBody<T extends z.ZodType>(schema: T): T {
  return strictCopy(schema) as T;
}

function strictCopy(schema: z.ZodType): z.ZodType {
  const known = strictCopies.get(schema);
  if (known) return known;
  const copy = rebuild(schema);
  strictCopies.set(schema, copy);
  return copy;
}

type Def = Record<string, unknown> & { type: string };

function rebuild(schema: z.ZodType): z.ZodType {
  const def = schema._zod.def as unknown as Def;
  const inner = (key: string): Partial<Def> => (def[key] ? { [key]: strictCopy(def[key] as z.ZodType) } : {});
  switch (def.type) {
    case 'object': {
      const shape = Object.fromEntries(
        Object.entries(def.shape as Record<string, z.ZodType>).map(([key, value]) => [
          key,
          strictCopy(value),
        ]),
      );
      return copyWith(schema, { ...def, shape, catchall: def.catchall ?? z.never() });
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return copyWith(schema, { ...def, ...inner('innerType') });
    case 'array':
      return copyWith(schema, { ...def, ...inner('element') });
    case 'record':
      return copyWith(schema, { ...def, ...inner('valueType') });
    case 'union':
      return copyWith(schema, { ...def, options: (def.options as z.ZodType[]).map(strictCopy) });
    case 'intersection':
      return copyWith(schema, { ...def, ...inner('left'), ...inner('right') });
    case 'tuple':
      return copyWith(schema, {
        ...def,
        items: (def.items as z.ZodType[]).map(strictCopy),
        ...(def.rest ? inner('rest') : {}),
      });
    case 'pipe':
      return copyWith(schema, { ...def, ...inner('in'), ...inner('out') });
    case 'lazy': {
      const getter = def.getter as () => z.ZodType;
      return copyWith(schema, { ...def, getter: () => strictCopy(getter()) });
    }
    default:
      return schema;
  }
}

/**
 * A copy of the schema with another definition, its metadata (and id) carried over; the schema
 * itself when nothing in the definition changed (a leaf, or a wrapper of one).
 */
function copyWith(schema: z.ZodType, def: Def): z.ZodType {
  const old = schema._zod.def as unknown as Def;
  const same = (a: unknown, b: unknown): boolean =>
    a === b ||
    (Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => x === b[i])) ||
    (def.type === 'object' &&
      a === def.shape &&
      Object.entries(a as Record<string, unknown>).every(
        ([k, v]) => (b as Record<string, unknown>)[k] === v,
      ));
  if (Object.keys(def).every((key) => same(def[key], old[key]))) return schema;
  const copy = schema.clone(def as unknown as typeof schema._zod.def, { parent: true });
  const id = (z.globalRegistry.get(schema) as { id?: string } | undefined)?.id;
  if (id !== undefined) z.globalRegistry.add(copy, { id });
  return copy;
}

/** Koa path syntax of an OpenAPI path. */
export function koaPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/** The first 2xx status a route declares: what its handler answers by default. */
export function successStatus(route: AnyRoute): number {
  return Number(Object.keys(route.responses).find((s) => s.startsWith('2')) ?? 200);
}

/**
 * The `field` of a validation error: the path to the offending value, without
 * array positions (`events`, not `events.1`: the field is the list, the
 * message says what is wrong in it).
 */
function issueField(issue: z.core.$ZodIssue): string | undefined {
  const path = issue.path
    .filter((segment) => typeof segment !== 'number')
    .map(String)
    .join('.');
  return path || undefined;
}

/** Where a request input comes from; header fields are named as HTTP spells them (`Idempotency-Key`). */
type InputSource = 'query' | 'headers' | 'body';

function fieldName(path: string, source: InputSource): string {
  if (source !== 'headers') return path;
  return path.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());
}

function invalid(field: string | undefined, message: string): AppError {
  return new AppError(422, 'VALIDATION_ERROR', field ? `${field}: ${message}` : message, field);
}

/**
 * Validates one input of a request against its schema, then checks that every
 * string of the result can be stored (no NUL, no lone surrogate): either
 * failure is 422 naming the field, before anything reaches the database.
 */
function parseInput<T extends z.ZodType>(schema: T, value: unknown, source: InputSource): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    if (issue.code === 'unrecognized_keys') {
      // A field the contract does not declare (strictBody): named by its path, as any bad field is.
      const path = issueField({ ...issue, path: [...issue.path, issue.keys[0]!] });
      throw invalid(path, 'is not a field of this request (unknown fields are refused)');
    }
    const path = issueField(issue);
    const field = path === undefined ? undefined : fieldName(path, source);
    const position = issue.path.find((segment) => typeof segment === 'number');
    const message =
      issue.message.replace(/^Invalid input: /, '') +
      (position === undefined ? '' : ` (item ${position + 1})`);
    throw invalid(field, message);
  }
  const unstorable = findUnstorable(result.data);
  if (unstorable) {
    const path = unstorable.path.join('.');
    throw invalid(path ? fieldName(path, source) : undefined, unstorable.problem);
  }
  return result.data;
}

/**
 * Path parameters are ids. One that breaks its schema (wrong characters, too
 * long, a NUL) cannot name anything, so it is answered exactly as an unknown
 * id is: 404 with the noun the schema declares (`scan not found`).
 */
function parseParams<T extends AnyObject>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  const unstorable = result.success ? findUnstorable(result.data) : undefined;
  if (result.success && !unstorable) return result.data;
  const key = result.success ? unstorable!.path[0] : result.error.issues[0]?.path[0];
  const param = typeof key === 'string' ? schema.shape[key] : undefined;
  const noun = param ? idParamNouns.get(param)?.noun : undefined;
  throw notFound(noun);
}

/**
 * The declared query parameters, each with its one value. A declared scalar
 * given twice (`?page=1&page=2`) is ambiguous and answers 422 naming it;
 * parameters the route does not declare are ignored.
 */
function queryValues(
  query: Record<string, string | string[] | undefined>,
  schema: AnyObject,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(schema.shape)) {
    const value = query[key];
    if (value === undefined) continue;
    if (Array.isArray(value)) throw invalid(key, 'must be given once');
    out[key] = value;
  }
  return out;
}

/**
 * What a route needs of authentication and rate limits, handed in by the app (app.ts wires
 * auth/ and ratelimit/ into it: http/ sits below both). Whether the caller may call the route
 * is the policies' answer (policies/roles.ts, `authorize`), asked directly.
 */
export interface Gatekeeper {
  /** Resolves the caller or throws 401. */
  authenticate(ctx: Context): Promise<Principal>;
  /** Counts the call against the organization's limit; sets X-RateLimit-* or throws 429. */
  countRequest(ctx: Context, principal: Principal): Promise<void>;
}

/** Builds the Koa middleware that runs one route: caller → rate limit → access → validate → handler. */
export function routeMiddleware(route: AnyRoute, gate: Gatekeeper, validateResponses: boolean) {
  if (route.answerHeaders) {
    const run = runRoute(route, gate, validateResponses);
    const answerHeaders = route.answerHeaders;
    return async (ctx: Context, next: Next) => {
      try {
        await run(ctx, next);
      } finally {
        // On errors too: the error middleware renders the status and body, and keeps these.
        const headers = await answerHeaders(ctx, ctx.state.services as Services).catch(() => ({}));
        if (!ctx.headerSent) for (const [name, value] of Object.entries(headers)) ctx.set(name, value);
      }
    };
  }
  return runRoute(route, gate, validateResponses);
}

function runRoute(route: AnyRoute, gate: Gatekeeper, validateResponses: boolean) {
  const isPublic = route.access.public === true;
  const rateLimited = route.rateLimited ?? !isPublic;
  const defaultStatus = successStatus(route);
  return async (ctx: Context, _next: Next) => {
    const services = ctx.state.services as Services;
    // Who calls, then the count (a refused call still counts and still gets X-RateLimit-*), then may they.
    const principal = isPublic ? undefined : await gate.authenticate(ctx);
    if (principal && rateLimited) await gate.countRequest(ctx, principal);
    if (principal) authorize(route.access, principal);

    const params = route.params ? parseParams(route.params, ctx.params) : undefined;
    const query = route.query
      ? parseInput(route.query, queryValues(ctx.query, route.query), 'query')
      : undefined;
    const headers = route.headers ? parseInput(route.headers, ctx.headers, 'headers') : undefined;
    let body: unknown;
    if (route.body) {
      const raw = await readBody(ctx, route.bodyType ?? 'json', services.config.bodyLimit);
      body = parseInput(route.body, raw, 'body');
    }

    // Node's parser refused the request while its body streamed in, and the refusal is sent
    // (server.ts, answerClientErrors): nothing of it may run.
    if (ctx.res.headersSent) return;
    const result = await route.handler({
      params,
      query,
      body,
      headers,
      principal: principal as Principal,
      services,
      ctx,
    });
    if (!result) return; // the handler wrote a stream or file itself
    const status = result.status ?? defaultStatus;
    if (validateResponses) {
      const schema = route.responses[status]?.schema;
      if (!schema) throw new Error(`${route.operationId} answered ${status}, which it does not declare`);
      const check = schema.safeParse(result.body);
      if (!check.success) {
        throw new Error(`${route.operationId} ${status} response breaks its schema: ${check.error.message}`);
      }
    }
    ctx.status = status;
    for (const [name, value] of Object.entries(result.headers ?? {})) ctx.set(name, value);
    ctx.body = result.body;
  };
}
