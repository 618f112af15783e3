import type { z } from 'zod';
import { ApiError } from './errors.ts';
import { requestWithRetry, type HttpDeps } from './http.ts';
import {
  FindingRefBody,
  HealthBody,
  ScanBody,
  ScanCancelledBody,
  ScanCreatedBody,
  ScanFindingBody,
  TokenBody,
  pageBody,
} from './responses.ts';

/**
 * A small typed client of the Scanward REST API (interface-spec.md "Scans",
 * "Findings", "Authentication"), over fetch. Every call retries 429 and
 * transient failures (see http.ts); error answers become `ApiError`s whose
 * message says what the user can do.
 */

export type Credentials = { kind: 'api-key'; apiKey: string } | { kind: 'token'; token: string };

export interface CreateScanInput {
  target: string;
  scan_type: 'quick' | 'full' | 'compliance';
  ports?: string | undefined;
  frameworks?: string[] | undefined;
  credential_checks?: 'defaults' | 'none' | undefined;
}

export interface ScanwardClientOptions {
  /** The service base, e.g. `https://scanward.example.com` (no `/api/v1`). */
  baseUrl: string;
  credentials: Credentials;
  http: HttpDeps;
  userAgent: string;
  /** Told every new secret (a refreshed bearer token), so the log masks it. */
  onSecret?: ((secret: string) => void) | undefined;
}

/** Largest page the API serves (interface-spec.md "Other constants"). */
export const PER_PAGE = 100;
/** Refresh a bearer token this long before it expires (tokens live one hour). */
const TOKEN_REFRESH_MARGIN_MS = 5 * 60_000;
/** No scan has this many findings pages; stops a server that never says "last page". */
const MAX_PAGES = 1000;

export class ScanwardClient {
  private credentials: Credentials;

  constructor(private readonly options: ScanwardClientOptions) {
    this.credentials = options.credentials;
  }

  /** `POST /api/v1/scans`; the key makes a retried or repeated create return the same scan. */
  async createScan(
    input: CreateScanInput,
    idempotencyKey: string,
    deadline?: number,
  ): Promise<ScanCreatedBody> {
    const body: Record<string, unknown> = {
      target: input.target,
      scan_type: input.scan_type,
      authorized: true,
    };
    if (input.ports !== undefined) body.ports = input.ports;
    if (input.frameworks !== undefined && input.frameworks.length > 0) body.frameworks = input.frameworks;
    if (input.credential_checks !== undefined) body.credential_checks = input.credential_checks;
    return this.call('POST', '/api/v1/scans', ScanCreatedBody, {
      body,
      headers: { 'Idempotency-Key': idempotencyKey },
      deadline,
      what: 'create the scan',
    });
  }

  getScan(scanId: string, deadline?: number): Promise<ScanBody> {
    return this.call('GET', `/api/v1/scans/${encodeURIComponent(scanId)}`, ScanBody, {
      deadline,
      what: `read scan ${scanId}`,
    });
  }

  /**
   * `DELETE /api/v1/scans/{id}`. Runs even after the job was cancelled (that is
   * when it matters most), with few, short tries: the runner kills the step soon.
   */
  cancelScan(scanId: string): Promise<z.infer<typeof ScanCancelledBody>> {
    const { retry } = this.options.http;
    return this.call('DELETE', `/api/v1/scans/${encodeURIComponent(scanId)}`, ScanCancelledBody, {
      what: `cancel scan ${scanId}`,
      http: {
        ...this.options.http,
        signal: undefined,
        retry: {
          ...retry,
          attempts: Math.min(retry.attempts, 2),
          requestTimeoutMs: Math.min(retry.requestTimeoutMs, 5000),
        },
      },
    });
  }

  /** Every finding the scan observed: `GET /api/v1/scans/{id}/findings`, all pages. */
  listScanFindings(scanId: string): Promise<ScanFindingBody[]> {
    return this.listAll(
      `/api/v1/scans/${encodeURIComponent(scanId)}/findings`,
      {},
      ScanFindingBody,
      'findings',
    );
  }

  /** Template ids, CWE ids and frameworks of the scan's findings: `GET /api/v1/findings?scan_id=`, all pages. */
  listFindingRefs(scanId: string): Promise<FindingRefBody[]> {
    return this.listAll('/api/v1/findings', { scan_id: scanId }, FindingRefBody, 'finding details');
  }

  /** The service version from `GET /api/health`; undefined when it cannot be read. */
  async serviceVersion(): Promise<string | undefined> {
    try {
      const res = await requestWithRetry(
        { ...this.options.http, retry: { ...this.options.http.retry, attempts: 1 } },
        this.url('/api/health'),
        { headers: { accept: 'application/json', 'user-agent': this.options.userAgent } },
        'read the service version',
      );
      if (!res.ok) return undefined;
      return HealthBody.parse(await res.json()).version;
    } catch {
      return undefined;
    }
  }

  private async listAll<T extends z.ZodType>(
    path: string,
    query: Record<string, string>,
    item: T,
    what: string,
  ): Promise<z.infer<T>[]> {
    const schema = pageBody(item);
    const all: z.infer<T>[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const params = new URLSearchParams({ ...query, page: String(page), per_page: String(PER_PAGE) });
      const body = await this.call('GET', `${path}?${params}`, schema, {
        what: `read ${what} (page ${page})`,
      });
      all.push(...body.items);
      const lastPage = body.pages !== undefined ? page >= body.pages : body.items.length < PER_PAGE;
      if (lastPage || body.items.length === 0) break;
    }
    return all;
  }

  private async call<T extends z.ZodType>(
    method: string,
    path: string,
    schema: T,
    options: {
      body?: unknown;
      headers?: Record<string, string>;
      deadline?: number | undefined;
      what: string;
      http?: HttpDeps;
    },
  ): Promise<z.infer<T>> {
    await this.refreshTokenIfDue();
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.options.userAgent,
      ...this.authHeaders(),
      ...options.headers,
    };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const res = await requestWithRetry(
      options.http ?? this.options.http,
      this.url(path),
      { method, headers, ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}) },
      `Scanward: ${options.what}`,
      options.deadline,
    );
    if (!res.ok) throw await scanwardError(res, options.what);
    const json: unknown = await res.json().catch(() => undefined);
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

  private url(path: string): string {
    return `${this.options.baseUrl}${path}`;
  }

  private authHeaders(): Record<string, string> {
    return this.credentials.kind === 'api-key'
      ? { 'x-api-key': this.credentials.apiKey }
      : { authorization: `Bearer ${this.credentials.token}` };
  }

  /**
   * Bearer tokens live one hour and a full scan can take most of that: swap the
   * token for a fresh one of the same session (POST /api/v1/auth/refresh)
   * shortly before it expires. An API key needs nothing.
   */
  private async refreshTokenIfDue(): Promise<void> {
    if (this.credentials.kind !== 'token') return;
    const expiresAt = tokenExpiry(this.credentials.token);
    const now = this.options.http.now();
    if (expiresAt === undefined || expiresAt - now > TOKEN_REFRESH_MARGIN_MS || expiresAt <= now) return;
    const res = await requestWithRetry(
      this.options.http,
      this.url('/api/v1/auth/refresh'),
      {
        method: 'POST',
        headers: { accept: 'application/json', 'user-agent': this.options.userAgent, ...this.authHeaders() },
      },
      'Scanward: refresh the bearer token',
    );
    if (!res.ok) throw await scanwardError(res, 'refresh the bearer token');
    const { access_token } = TokenBody.parse(await res.json());
    this.options.onSecret?.(access_token);
    this.credentials = { kind: 'token', token: access_token };
  }
}

/** The `exp` of a JWT in epoch ms, read without verifying; undefined for anything else. */
export function tokenExpiry(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof claims.exp === 'number' ? claims.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/** What the user can do about an error code (decisions.md "Success and error statuses"). */
const HINTS: Record<string, string> = {
  TARGET_NOT_ALLOWED:
    "The target is outside the server's scan scope policy. Scan a host you own that is in scope, or ask the Scanward operator to add it to SCANWARD_SCAN_ALLOW (and check SCANWARD_SCAN_DENY)",
  SCAN_QUOTA_EXCEEDED:
    "The organization's monthly scan quota is used up. GET /api/v1/scans/quota shows when it resets; an operator can raise it with `scanward admin org set-limits`",
  CONCURRENT_SCAN_LIMIT:
    "The plan's concurrent-scan ceiling stayed reached while the Action retried. Let running scans finish, or add `concurrency:` to the workflow so runs queue instead of overlapping",
  RATE_LIMIT_EXCEEDED:
    "The organization's API request limit is used up. Raise poll-interval-seconds so each run makes fewer requests",
  INVALID_API_KEY:
    'The api-key is unknown, revoked or expired. Create a new key (Settings, API Keys) and store it as a repository secret',
  AUTHENTICATION_REQUIRED: 'Set the api-key input (or token) from a repository secret',
  INVALID_TOKEN:
    'The token cannot be validated or its session was revoked. Obtain a new token, or use an api-key',
  TOKEN_EXPIRED: 'The bearer token has expired. Obtain a new token right before this step, or use an api-key',
  INSUFFICIENT_PERMISSION:
    "The API key lacks a permission. The Action needs 'read:scans' and 'write:scans', and 'read:findings' for rule ids in the SARIF",
  PLAN_UPGRADE_REQUIRED: "This feature is not on the organization's plan",
};

const FIELD_INPUTS: Record<string, string> = {
  target: 'target',
  scan_type: 'scan-type',
  ports: 'ports',
  frameworks: 'frameworks',
  credential_checks: 'credential-checks',
  'Idempotency-Key': 'idempotency-key',
};

/** Turns an error answer into an `ApiError`, reading the spec's `{detail, error_code, field?}` shape. */
export async function scanwardError(res: Response, what: string): Promise<ApiError> {
  const text = await res.text().catch(() => '');
  let code = `HTTP_${res.status}`;
  let detail = text.slice(0, 300).trim() || res.statusText || 'no details';
  let field: string | undefined;
  try {
    const body = JSON.parse(text) as { detail?: unknown; error_code?: unknown; field?: unknown };
    if (typeof body.error_code === 'string') code = body.error_code;
    if (typeof body.detail === 'string') detail = body.detail;
    if (typeof body.field === 'string') field = body.field;
  } catch {
    // Not JSON: a proxy or another service answered; keep the text.
  }
  let hint = HINTS[code];
  const input = field ? FIELD_INPUTS[field.split('.')[0]!] : undefined;
  if (code === 'VALIDATION_ERROR' && input) {
    hint =
      input === 'idempotency-key'
        ? 'This idempotency-key was already used with different scan inputs in the last 24 hours; use a new key'
        : `Check the \`${input}\` input`;
  }
  if (code === 'NOT_FOUND' && !hint) hint = 'Check api-url: it should be the address of the Scanward service';
  return new ApiError('Scanward', res.status, code, `could not ${what}: ${detail}`, field, hint);
}
