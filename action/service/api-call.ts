import type { z } from 'zod';
import { ConfigurationError } from '../core/errors.ts';
import { NOT_SCANWARD_HINT, describeForeignBody, scanwardError } from './api-errors.ts';
import type { Credentials } from './credentials.ts';
import { requestWithRetry, type HttpDeps } from './http.ts';
import { pageBody } from './responses.ts';

/**
 * One request to the Scanward REST API, as every call of the client (client.ts) makes it:
 * the credentials' headers, retries of 429 and transient failures (http.ts), an error answer
 * as an `ApiError` saying what the user can do (api-errors.ts), and the answer checked against
 * its schema; and a list read page by page.
 */

export interface ScanwardClientOptions {
  /** The service base, e.g. `https://scanward.example.com` (no `/api/v1`). */
  baseUrl: string;
  credentials: Credentials;
  http: HttpDeps;
  userAgent: string;
}

/** Largest page the API serves (interface-spec.md "Other constants"). */
export const PER_PAGE = 100;
/** No scan has this many findings pages; stops a server that never says "last page". */
const MAX_PAGES = 1000;

export async function listAllPages<T extends z.ZodType>(
  client: ScanwardClientOptions,
  path: string,
  query: Record<string, string>,
  item: T,
  what: string,
): Promise<z.infer<T>[]> {
  const schema = pageBody(item);
  const all: z.infer<T>[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const params = new URLSearchParams({ ...query, page: String(page), per_page: String(PER_PAGE) });
    const body = await callApi(client, 'GET', `${path}?${params}`, schema, {
      what: `read ${what} (page ${page})`,
    });
    all.push(...body.items);
    const lastPage = body.pages !== undefined ? page >= body.pages : body.items.length < PER_PAGE;
    if (lastPage || body.items.length === 0) break;
  }
  return all;
}

export async function callApi<T extends z.ZodType>(
  client: ScanwardClientOptions,
  method: string,
  path: string,
  schema: T,
  options: {
    body?: unknown;
    /** A raw body (a report file), sent as application/octet-stream. */
    raw?: Uint8Array;
    headers?: Record<string, string>;
    deadline?: number | undefined;
    what: string;
    http?: HttpDeps;
  },
): Promise<z.infer<T>> {
  const headers: Record<string, string> = {
    accept: 'application/json',
    'user-agent': client.userAgent,
    ...(await client.credentials.headers()),
    ...options.headers,
  };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.raw !== undefined) headers['content-type'] = 'application/octet-stream';
  const body =
    options.raw !== undefined
      ? { body: options.raw as RequestInit['body'] }
      : options.body !== undefined
        ? { body: JSON.stringify(options.body) }
        : {};
  const res = await requestWithRetry(
    options.http ?? client.http,
    `${client.baseUrl}${path}`,
    { method, headers, ...body },
    `Scanward: ${options.what}`,
    options.deadline,
  );
  if (!res.ok) throw await scanwardError(res, options.what);
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // Another web server answered (a page at api-url): the user's to fix, in one line.
    throw new ConfigurationError(
      `Scanward: could not ${options.what}: ${method} ${path} answered ${res.status} with ${describeForeignBody(
        text,
        res.headers.get('content-type'),
      )}. ${NOT_SCANWARD_HINT}.`,
    );
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new Error(
      `Scanward answered ${method} ${path} with an unexpected body (${parsed.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
        .join('; ')}); is api-url the Scanward service?`,
    );
  }
  return parsed.data;
}
