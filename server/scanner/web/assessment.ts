/**
 * One web application assessment per service and scan, shared by every attack check
 * (checks.ts): the client (rate, budget, cookies, redaction), the session (sign-in and its
 * renewal), the crawl, and the attempts the checks make, each a request of a crawled target
 * with one parameter replaced, its anti-CSRF token fresh and its same-origin redirects
 * followed. A parameter is probed once with a unique marker; the checks that need the
 * value echoed (XSS, template injection) skip the parameters whose marker shows nowhere.
 */
import { randomBytes } from 'node:crypto';
import type { PhaseContext } from '../check.ts';
import { originOf, sameOriginPath } from '../net/web-crawl.ts';
import type { ServiceIdentification } from '../net/services.ts';
import { sharedExchange } from '../net/service-connect.ts';
import type { ScanState } from '../types.ts';
import { WebClient, type WebExchange, type WebRequest, type WebResponse } from './client.ts';
import { crawlApplication, type Surface } from './crawler.ts';
import { parsePage } from './html.ts';
import { buildRequest, targetKey, type AttackTarget, type Param } from './parameters.ts';
import { follow, SessionKeeperImpl, type Resolve } from './session.ts';
import { excluded } from './exclusions.ts';

/** Most time the attempts on one slow target may take, all checks together (timing proofs aside). */
export const TARGET_TIME_BUDGET_MS = 20_000;
/** A target whose original request takes longer is slow (a log-in form that sleeps on failure). */
export const SLOW_TARGET_MS = 1_500;

/** The target's time budget is spent: no more attempts on it. */
export class TargetBudgetError extends Error {
  constructor(path: string) {
    super(`the time budget of ${path} is spent`);
    this.name = 'TargetBudgetError';
  }
}

export interface Attempt {
  /** The request that carried the payload, as sent (redacted). */
  exchange: WebExchange;
  /** The answer after same-origin redirects. */
  final: WebResponse | undefined;
  finalPath: string;
}

export interface Probe {
  marker: string;
  /** The marker came back in the answer. */
  reflected: boolean;
  attempt: Attempt;
}

export class WebAssessment {
  readonly client: WebClient;
  readonly resolve: Resolve;
  keeper: SessionKeeperImpl | undefined;
  surface: Surface = { pages: [], targets: [], declined: 0 };
  notes: string[] = [];
  private readonly originals = new Map<string, Promise<Attempt>>();
  private readonly probes = new Map<string, Promise<Probe>>();
  private tokenLock: Promise<unknown> = Promise.resolve();
  /** Time each target's attempts took so far (milliseconds), against TARGET_TIME_BUDGET_MS. */
  private readonly spent = new Map<string, number>();

  /** Whether the target answers slowly (its original request took over SLOW_TARGET_MS): no timing proofs, no fuzzing templates. */
  async slow(target: AttackTarget): Promise<boolean> {
    const original = await this.original(target);
    return (original.exchange.response?.elapsedMs ?? 0) > SLOW_TARGET_MS;
  }

  constructor(
    readonly ctx: PhaseContext,
    readonly service: ServiceIdentification,
  ) {
    const web = ctx.scan.web;
    const patterns = web?.exclude_paths ?? [];
    this.client = new WebClient(ctx, service, (path) => excluded(path, patterns));
    const origin = originOf(ctx, service);
    this.resolve = (href, from) => sameOriginPath(href, from, origin);
  }

  get password(): string | undefined {
    return this.keeper?.password;
  }

  async prepare(): Promise<void> {
    const web = this.ctx.scan.web;
    const auth = web?.authentication;
    const start = ['/'];
    if (auth) {
      const loginPage = auth.type === 'form' ? this.resolve(auth.login_url, '/') : undefined;
      if (auth.type === 'form' && loginPage === undefined) {
        this.notes.push('web: the log-in URL is not on this service; crawled without signing in');
      } else {
        this.keeper = new SessionKeeperImpl(this.client, auth, this.resolve, loginPage);
        const ok = await this.client.alone(() => this.keeper!.signIn());
        if (!ok) this.notes.push(`web: ${this.keeper.session.failure ?? 'signing in failed'}`);
        if (this.keeper.landing) start.push(this.keeper.landing);
      }
    }
    const keeper = this.keeper;
    this.surface = await crawlApplication(this.client, {
      resolve: this.resolve,
      avoid: (path) =>
        !!keeper?.session.signedIn && keeper.session.loginPaths.has(path.split('?')[0] as string),
      password: this.password,
      start,
      signal: this.ctx.signal,
    });
  }

  /** A marker unique to one request: letters and digits only, so no filter changes it. */
  marker(): string {
    return `scw${randomBytes(5).toString('hex')}`;
  }

  /** The current values of the target form's token fields, read from a fresh load of its page. */
  private async freshTokens(target: AttackTarget): Promise<Record<string, string>> {
    const form = target.form;
    if (!form || form.tokens.length === 0) return {};
    const page = await this.client.send({ method: 'GET', path: form.page });
    const body = page.response?.body ?? '';
    const names = new Set(form.fields.map((f) => f.name));
    const match = parsePage(body).forms.find(
      (f) =>
        this.resolve(f.action, form.page) === form.action ||
        f.fields.filter((field) => names.has(field.name)).length === names.size,
    );
    const values: Record<string, string> = {};
    for (const name of form.tokens) {
      const field = match?.fields.find((f) => f.name === name);
      if (field) values[name] = field.value;
    }
    return values;
  }

  /** Sends `target` with `param` set to `value` (undefined: the original request). */
  async attempt(
    target: AttackTarget,
    param: Param | undefined,
    value: string,
    options: { timeoutMs?: number; follow?: boolean; alone?: boolean } = {},
  ): Promise<Attempt> {
    const key = targetKey(target);
    const spent = this.spent.get(key) ?? 0;
    // Only a slow target is held to the budget: a busy machine must not cut a fast page's attempts short.
    if (!options.alone && spent > TARGET_TIME_BUDGET_MS && (await this.slow(target))) {
      throw new TargetBudgetError(target.pathname);
    }
    const run = async (): Promise<Attempt> => {
      const started = performance.now();
      try {
        return await send();
      } finally {
        if (!options.alone) this.spent.set(key, (this.spent.get(key) ?? 0) + performance.now() - started);
      }
    };
    const send = async (): Promise<Attempt> => {
      const tokens = await this.freshTokens(target);
      const request: WebRequest = buildRequest(target, param, value, tokens);
      const exchange = await this.client.send(
        request,
        options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs },
      );
      if (options.follow === false) return { exchange, final: exchange.response, finalPath: request.path };
      const landed = await follow(this.client, exchange, this.resolve, {
        allow: (path) => !this.keeper?.session.loginPaths.has(path.split('?')[0] as string),
      });
      return { exchange, final: landed.response, finalPath: landed.path };
    };
    if (target.form && target.form.tokens.length > 0 && !options.alone) {
      // A token is often valid once: its page load and the submission go together, one form at a time.
      const result = this.tokenLock.then(run, run);
      this.tokenLock = result.catch(() => undefined);
      return result;
    }
    return run();
  }

  /** The original request of a target (memoised). */
  original(target: AttackTarget): Promise<Attempt> {
    const key = targetKey(target);
    let pending = this.originals.get(key);
    if (!pending) {
      const first = target.params[0];
      pending = this.attempt(target, first, first?.value ?? '');
      this.originals.set(key, pending);
    }
    return pending;
  }

  /** The parameter's probe: its value followed by a unique marker (memoised). */
  probe(target: AttackTarget, param: Param): Promise<Probe> {
    const key = `${targetKey(target)}|${param.location}:${param.name}`;
    let pending = this.probes.get(key);
    if (!pending) {
      const marker = this.marker();
      pending = this.attempt(target, param, `${param.value}${marker}`).then((attempt) => ({
        marker,
        attempt,
        reflected:
          (attempt.final?.body ?? '').includes(marker) ||
          (attempt.exchange.response?.body ?? '').includes(marker),
      }));
      this.probes.set(key, pending);
    }
    return pending;
  }

  /** Every (target, parameter) pair of the surface. */
  places(): Array<{ target: AttackTarget; param: Param }> {
    return this.surface.targets.flatMap((target) => target.params.map((param) => ({ target, param })));
  }

  /** The crawled HTML pages loaded again (for stored payloads). */
  async reload(): Promise<Array<{ path: string; body: string; sent: string; head: string }>> {
    const pages = this.surface.pages.filter((p) => p.html);
    const loaded = await Promise.all(
      pages.map(async (page) => {
        try {
          const exchange = await this.client.send({ method: 'GET', path: page.path });
          return exchange.response
            ? {
                path: page.path,
                body: exchange.response.body,
                sent: exchange.sent,
                head: exchange.response.head,
              }
            : undefined;
        } catch {
          return undefined;
        }
      }),
    );
    return loaded.filter((p) => p !== undefined);
  }
}

/** Evidence of an answer: its head and the part of its body around `index` (redacted). */
export function excerpt(client: WebClient, response: WebResponse, index: number, around = 400): string {
  const body = response.body;
  const start = Math.max(0, index - around);
  const end = Math.min(body.length, index + around);
  const cut = `${start > 0 ? '…' : ''}${body.slice(start, end)}${end < body.length ? '…' : ''}`;
  return client.redact(`${response.head}\r\n\r\n${cut}`);
}

const assessments = new WeakMap<ScanState, Map<string, Promise<WebAssessment>>>();

/** The assessment of a service, prepared once per scan and shared by every attack check. */
export function assessmentOf(ctx: PhaseContext, service: ServiceIdentification): Promise<WebAssessment> {
  return sharedExchange(assessments, ctx, `${service.address}|${service.port}`, async () => {
    const assessment = new WebAssessment(ctx, service);
    await assessment.prepare();
    ctx.state.notes.push(...assessment.notes);
    return assessment;
  });
}
