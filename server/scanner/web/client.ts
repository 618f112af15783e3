/**
 * The HTTP client of the web application assessment (issue 33): one per service and scan,
 * shared by the crawler and every attack check. It
 *
 * - sends each request in the wire form of net/http-client.ts over a kept-alive connection
 *   (connections.ts: opened through the scan's scope guard to the literal approved address),
 *   bounded in bytes and time;
 * - keeps the session's cookies (a jar per origin) and adds the configured sign-in headers;
 * - holds the per-target rate (requests started per second), the concurrency and the request
 *   budget, and an exclusive mode in which one timing proof runs alone (a delay measured while
 *   other requests queue on the same server would prove nothing);
 * - never sends `DELETE` or `PUT`, never a path the scan excludes, never another origin;
 * - renders every request it stores for evidence with cookie values, `Authorization`, the
 *   configured header values and the password replaced by `***` (`redact`).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { parseResponse, renderRequest, type IncomingResponse } from '../net/http-client.ts';
import { Connections } from './connections.ts';
import { isTlsService } from '../net/http-exchange.ts';
import { hostTarget } from '../net/service-connect.ts';
import type { ServiceIdentification } from '../net/services.ts';
import { urlHost } from '../net/target-address.ts';
import type { PhaseContext } from '../check.ts';

/** Most bytes read of one response. */
export const MAX_RESPONSE_BYTES = 512 * 1024;
/** Most time for one request, connecting included (time-based proofs add their delay). */
export const REQUEST_TIMEOUT_MS = 15_000;
/** Requests in flight at once against one target. */
export const CONCURRENCY = 8;
/** Requests started per second against one target. */
export const RATE_PER_SECOND = 300;
/** Most requests of one assessment against one target (crawl, sign-in and checks together). */
export const REQUEST_BUDGET = 20_000;

export type Method = 'GET' | 'POST' | 'HEAD';

export interface WebRequest {
  method: Method;
  /** Path and query, as sent. */
  path: string;
  body?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface WebResponse {
  status: number;
  head: string;
  headers: Map<string, string>;
  /** Every `Set-Cookie` header, in order. */
  setCookies: string[];
  body: string;
  location: string | undefined;
  /** From the request's start to the whole answer, in milliseconds. */
  elapsedMs: number;
}

export interface WebExchange {
  request: WebRequest;
  /** The request as sent, redacted (`redact`): what evidence stores. */
  sent: string;
  response: WebResponse | undefined;
}

/** The request budget is spent: the assessment stops sending. */
export class BudgetExhaustedError extends Error {
  constructor() {
    super('the request budget of the web assessment is spent');
    this.name = 'BudgetExhaustedError';
  }
}

/** A hook the session installs: after each answer, whether the session was lost (and signs in again). */
export interface SessionKeeper {
  /** Headers sent with every request (header authentication). */
  headers(): Record<string, string>;
  /** Whether `response` to `request` means the session is lost. */
  lost(request: WebRequest, response: WebResponse): boolean;
  /** Signs in again; false when it may not (bounded) or cannot. */
  renew(): Promise<boolean>;
}

interface Waiter {
  exclusive: boolean;
  grant: () => void;
}

export class WebClient {
  readonly origin: string;
  readonly host: string;
  private readonly cookies = new Map<string, string>();
  /** Each cookie's SameSite attribute as the server set it (lower case; undefined: none). */
  readonly sameSite = new Map<string, string | undefined>();
  private readonly secrets = new Set<string>();
  private readonly secretHeaders = new Set<string>(['authorization', 'proxy-authorization']);
  private keeper: SessionKeeper | undefined;
  private active = 0;
  private exclusiveHeld = false;
  private readonly waiters: Waiter[] = [];
  private nextStart = 0;
  private renewing: Promise<boolean> | undefined;
  /** Keep-alive connections to the service (connections.ts). */
  readonly connections: Connections;
  sent = 0;

  constructor(
    private readonly ctx: PhaseContext,
    private readonly service: ServiceIdentification,
    private readonly exclusions: (path: string) => boolean,
    private readonly limits = { rate: RATE_PER_SECOND, concurrency: CONCURRENCY, budget: REQUEST_BUDGET },
  ) {
    const scheme = isTlsService(service) ? 'https' : 'http';
    const defaultPort = scheme === 'https' ? 443 : 80;
    const host = urlHost(hostTarget(ctx, service));
    this.host = service.port === defaultPort ? host : `${host}:${service.port}`;
    this.origin = `${scheme}://${this.host}`;
    this.connections = new Connections(ctx, service);
  }

  /** A value never stored in clear (the password, a header's value). */
  addSecret(value: string): void {
    if (value.length >= 3) this.secrets.add(value);
  }

  /** A header whose value is never stored in clear. */
  addSecretHeader(name: string): void {
    this.secretHeaders.add(name.toLowerCase());
  }

  setKeeper(keeper: SessionKeeper): void {
    this.keeper = keeper;
  }

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** Whether `path` may be requested at all (not excluded). */
  allowed(path: string): boolean {
    return !this.exclusions(path);
  }

  /** Replaces every secret, cookie value and authorization in `text` by `***`. */
  redact(text: string): string {
    let out = text;
    for (const secret of this.secrets) {
      out = out.split(secret).join('***');
      const encoded = encodeURIComponent(secret);
      if (encoded !== secret) out = out.split(encoded).join('***');
      const plus = new URLSearchParams({ v: secret }).toString().slice(2);
      if (plus !== secret && plus !== encoded) out = out.split(plus).join('***');
    }
    return out.replace(/^([A-Za-z0-9-]+):[ \t]*(.*)$/gm, (line, name: string, value: string) => {
      const lower = name.toLowerCase();
      if (lower === 'cookie') {
        return `${name}: ${value.replace(/(^|;\s*)([^=;\s]+)=([^;]*)/g, '$1$2=***')}`;
      }
      if (lower === 'set-cookie') return `${name}: ${value.replace(/^([^=;\s]+)=([^;]*)/, '$1=***')}`;
      if (this.secretHeaders.has(lower)) return `${name}: ***`;
      return line;
    });
  }

  private grantNext(): void {
    while (this.waiters.length > 0) {
      const next = this.waiters[0] as Waiter;
      if (next.exclusive) {
        if (this.active > 0 || this.exclusiveHeld) return;
        this.waiters.shift();
        this.exclusiveHeld = true;
        next.grant();
        return;
      }
      if (this.exclusiveHeld || this.active >= this.limits.concurrency) return;
      this.waiters.shift();
      this.active += 1;
      next.grant();
    }
  }

  private acquire(exclusive: boolean): Promise<void> {
    return new Promise((resolve) => {
      this.waiters.push({ exclusive, grant: resolve });
      this.grantNext();
    });
  }

  private release(exclusive: boolean): void {
    if (exclusive) this.exclusiveHeld = false;
    else this.active -= 1;
    this.grantNext();
  }

  private readonly owner = new AsyncLocalStorage<true>();

  /** Whether the running code is inside `alone` (its requests skip the gate: they own it). */
  private get inside(): boolean {
    return this.owner.getStore() === true;
  }

  /**
   * Runs `work` alone: every other request waits until it is done, and the requests of `work`
   * go out one at a time. For timing proofs (a delay measured while other requests queue on
   * the same server proves nothing) and for signing in.
   */
  async alone<T>(work: () => Promise<T>): Promise<T> {
    if (this.inside) return work();
    await this.acquire(true);
    try {
      return await this.owner.run(true, work);
    } finally {
      this.release(true);
    }
  }

  private async pace(): Promise<void> {
    const gap = 1000 / this.limits.rate;
    const now = performance.now();
    const start = Math.max(now, this.nextStart);
    this.nextStart = start + gap;
    if (start > now) await new Promise((resolve) => setTimeout(resolve, start - now));
  }

  /**
   * Sends one request with the session's cookies and headers. A lost session is renewed (a
   * bounded number of times) and the request sent once more. Rejects with
   * `BudgetExhaustedError`, or when the service cannot be reached or the scan aborts.
   */
  async send(
    request: WebRequest,
    options: { timeoutMs?: number; session?: boolean } = {},
  ): Promise<WebExchange> {
    const exchange = await this.sendOnce(request, options);
    const { response } = exchange;
    if (response && options.session !== false && this.keeper?.lost(request, response)) {
      if (await this.renewSession()) return this.sendOnce(request, options);
    }
    return exchange;
  }

  /** One sign-in at a time; concurrent callers share its outcome. */
  renewSession(): Promise<boolean> {
    if (!this.keeper) return Promise.resolve(false);
    const keeper = this.keeper;
    this.renewing ??= this.alone(() => keeper.renew()).finally(() => {
      this.renewing = undefined;
    });
    return this.renewing;
  }

  /** Forgets the session's cookies (before signing in again). */
  clearCookies(): void {
    this.cookies.clear();
  }

  private async sendOnce(
    request: WebRequest,
    options: { timeoutMs?: number; session?: boolean },
  ): Promise<WebExchange> {
    if (!/^(GET|POST|HEAD)$/.test(request.method)) throw new Error(`method ${request.method} is never sent`);
    if (this.exclusions(request.path)) throw new Error(`${request.path} is excluded from the scan`);
    const gated = !this.inside;
    if (gated) await this.acquire(false);
    try {
      if (this.sent >= this.limits.budget) throw new BudgetExhaustedError();
      this.sent += 1;
      await this.pace();
      const headers: Array<[string, string]> = [];
      for (const [name, value] of Object.entries(this.keeper?.headers() ?? {})) {
        if (name.toLowerCase() !== 'cookie') headers.push([name, value]);
      }
      const configuredCookie = Object.entries(this.keeper?.headers() ?? {}).find(
        ([name]) => name.toLowerCase() === 'cookie',
      )?.[1];
      const merged = new Map<string, string>();
      for (const part of (configuredCookie ?? '').split(/;\s*/)) {
        const eq = part.indexOf('=');
        if (eq > 0) merged.set(part.slice(0, eq).trim(), part.slice(eq + 1));
      }
      for (const [name, value] of this.cookies) merged.set(name, value);
      const cookie = [...merged].map(([name, value]) => `${name}=${value}`).join('; ');
      if (cookie) headers.push(['Cookie', cookie]);
      if (request.contentType) headers.push(['Content-Type', request.contentType]);
      for (const [name, value] of Object.entries(request.headers ?? {})) headers.push([name, value]);
      const started = performance.now();
      // The wire form of net/http-client.ts, kept alive (connections.ts) instead of closed.
      const raw = renderRequest(
        { method: request.method, target: request.path, host: this.host, headers, body: request.body },
        'scanward-web',
      ).replace(/\r\nConnection: close\r\n\r\n/, '\r\nConnection: keep-alive\r\n\r\n');
      const { data, truncated } = await this.connections.exchange(
        raw,
        request.method,
        MAX_RESPONSE_BYTES,
        options.timeoutMs ?? REQUEST_TIMEOUT_MS,
      );
      const response = parseResponse(data, truncated);
      const elapsedMs = performance.now() - started;
      const answer = response && this.answer(response, elapsedMs);
      if (answer) this.keep(answer.setCookies);
      return { request, sent: this.redact(raw.trimEnd()), response: answer };
    } finally {
      if (gated) this.release(false);
    }
  }

  private answer(response: IncomingResponse, elapsedMs: number): WebResponse {
    return {
      status: response.status,
      head: response.head,
      headers: response.headers,
      setCookies: response.head
        .split(/\r?\n/)
        .filter((line) => /^set-cookie\s*:/i.test(line))
        .map((line) => line.slice(line.indexOf(':') + 1).trim()),
      body: response.body.toString('utf8'),
      location: response.headers.get('location'),
      elapsedMs,
    };
  }

  private keep(setCookies: string[]): void {
    for (const line of setCookies) {
      const match = /^\s*([^=;\s]+)=([^;]*)/.exec(line);
      if (!match) continue;
      const [, name, value] = match as unknown as [string, string, string];
      const expired =
        /;\s*max-age=(-?\d+)/i.test(line) && Number(/;\s*max-age=(-?\d+)/i.exec(line)?.[1]) <= 0;
      const past = /;\s*expires=([^;]+)/i.exec(line);
      if (expired || value === 'deleted' || (past && Date.parse(past[1] as string) < Date.now())) {
        this.cookies.delete(name);
      } else {
        this.cookies.set(name, value);
        this.sameSite.set(name, /;\s*samesite=(\w+)/i.exec(line)?.[1]?.toLowerCase());
      }
    }
  }
}
