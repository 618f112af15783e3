/**
 * The attack classes of the web assessment, one function each, run on one parameter of one
 * crawled target. Each returns at most one finding for that place (one weakness, page and
 * parameter, whatever the number of payloads that worked), and only when a second, different
 * proof agrees with the first. Payloads and signatures are data (payloads.ts).
 */
import type { Found } from '../check.ts';
import { excerpt, type Attempt, type WebAssessment } from './assessment.ts';
import { executesMarker, reflectionContexts, type ReflectionContext } from './html.ts';
import {
  describeParam,
  paramComponentPath,
  buildRequest,
  type AttackTarget,
  type Param,
} from './parameters.ts';
import {
  COMMAND_DELAYS,
  COMMAND_ECHOES,
  fill,
  PASSWD_SIGNATURE,
  REDIRECT_HOST,
  REDIRECT_PAYLOADS,
  SQL_BOOLEAN_PAIRS,
  SQL_BREAKERS,
  SQL_DELAYS,
  SQL_ERRORS,
  TEMPLATE_PAYLOADS,
  TRAVERSAL_PAYLOADS,
  XSS_PAYLOADS,
} from './payloads.ts';
import { TOKEN_NAME } from './parameters.ts';

const rand = (min: number, max: number): number => min + Math.floor(Math.random() * (max - min));
const bodyOf = (attempt: Attempt): string => attempt.final?.body ?? '';

function evidence(a: WebAssessment, attempt: Attempt, index: number): { request: string; response: string } {
  const response = attempt.final ?? attempt.exchange.response;
  return {
    request: attempt.exchange.sent,
    response: response ? excerpt(a.client, response, Math.max(0, index)) : '(no answer)',
  };
}

function place(target: AttackTarget, param: Param): { path: string; where: string } {
  return { path: paramComponentPath(target, param), where: describeParam(target, param) };
}

// ---------------------------------------------------------------------------------------
// Comparing answers (boolean proofs, CSRF)

function words(body: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of body.split(/[^A-Za-z0-9_]+/)) if (word) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}

/** How many words differ between two answers, not counting words of the payloads sent. */
export function difference(a: string, b: string, ignore: readonly string[] = []): number {
  const skip = new Set(ignore.flatMap((text) => text.split(/[^A-Za-z0-9_]+/)).filter((w) => w));
  const wa = words(a);
  const wb = words(b);
  let diff = 0;
  for (const word of new Set([...wa.keys(), ...wb.keys()])) {
    if (skip.has(word) || /^scw[0-9a-f]{10}$/.test(word)) continue;
    diff += Math.abs((wa.get(word) ?? 0) - (wb.get(word) ?? 0));
  }
  return diff;
}

// ---------------------------------------------------------------------------------------
// SQL injection

async function booleanProof(
  a: WebAssessment,
  target: AttackTarget,
  param: Param,
): Promise<{ context: string; attempts: Attempt[]; pairs: string[][] } | undefined> {
  const original = await a.original(target);
  const again = await a.attempt(target, param, param.value);
  const noise = difference(bodyOf(original), bodyOf(again));
  if (original.final?.status !== again.final?.status || noise > 3) return undefined;
  const holds = async (pair: readonly [string, string], n: { a: number; b: number }) => {
    const truthy = fill(pair[0], { v: param.value, ...n });
    const falsy = fill(pair[1], { v: param.value, ...n });
    const t = await a.attempt(target, param, truthy);
    const ignore = [truthy, falsy, param.value];
    const tDiff = difference(bodyOf(original), bodyOf(t), ignore);
    if (t.final?.status !== original.final?.status || tDiff > noise + 1) return undefined;
    const f = await a.attempt(target, param, falsy);
    const fDiff = difference(bodyOf(original), bodyOf(f), ignore);
    const statusDiffers = f.final?.status !== original.final?.status;
    if (!statusDiffers && fDiff < noise + 5) return undefined;
    return [t, f];
  };
  for (const { context, proofs } of SQL_BOOLEAN_PAIRS) {
    const first = await holds(proofs[0]!, { a: rand(11, 99), b: rand(100, 999) });
    if (!first) continue;
    const second = await holds(proofs[1]!, { a: rand(11, 99), b: rand(100, 999) });
    if (!second) continue;
    return {
      context,
      attempts: [...first, ...second],
      pairs: [proofs[0]!.map((p) => p), proofs[1]!.map((p) => p)],
    };
  }
  return undefined;
}

/** Runs `payload` with `d` seconds of delay alone on the target: true when the answer took at least that long. */
async function delayed(
  a: WebAssessment,
  target: AttackTarget,
  param: Param,
  template: string,
  seconds: number,
): Promise<Attempt | undefined> {
  const value = fill(template, { v: param.value, d: seconds });
  const attempt = await a.attempt(target, param, value, {
    timeoutMs: seconds * 1000 + 10_000,
    follow: false,
    alone: true,
  });
  const elapsed = attempt.exchange.response?.elapsedMs ?? 0;
  return elapsed >= seconds * 1000 ? attempt : undefined;
}

/**
 * A delay proven twice: the payload with `d` seconds is slow (first sent with the other
 * requests, then again alone), with 0 seconds it is as fast as the original, with 2×`d`
 * seconds it is slow again.
 */
async function timeProof(
  a: WebAssessment,
  target: AttackTarget,
  param: Param,
  templates: readonly string[],
): Promise<{ template: string; attempt: Attempt; seconds: number[] } | undefined> {
  const d = 2;
  if (await a.slow(target)) return undefined;
  for (const template of templates) {
    const quick = await a.attempt(target, param, fill(template, { v: param.value, d }), {
      timeoutMs: d * 1000 + 10_000,
      follow: false,
    });
    if ((quick.exchange.response?.elapsedMs ?? 0) < d * 1000) continue;
    const proven = await a.client.alone(async () => {
      const base = await a.attempt(target, param, param.value, { follow: false, alone: true });
      const baseline = base.exchange.response?.elapsedMs ?? 0;
      if (baseline >= d * 500) return undefined;
      const first = await delayed(a, target, param, template, d);
      if (!first) return undefined;
      const zero = await a.attempt(target, param, fill(template, { v: param.value, d: 0 }), {
        follow: false,
        alone: true,
      });
      if ((zero.exchange.response?.elapsedMs ?? Infinity) >= d * 500) return undefined;
      const second = await delayed(a, target, param, template, 2 * d);
      return second ? first : undefined;
    });
    if (proven) return { template, attempt: proven, seconds: [d, 0, 2 * d] };
  }
  return undefined;
}

export async function sqlInjection(
  a: WebAssessment,
  target: AttackTarget,
  param: Param,
): Promise<Found | undefined> {
  const { path, where } = place(target, param);
  const original = await a.original(target);
  const originalBody = bodyOf(original);
  for (const breaker of SQL_BREAKERS) {
    const value = fill(breaker, { v: param.value });
    const attempt = await a.attempt(target, param, value);
    const body = bodyOf(attempt);
    const signature = SQL_ERRORS.find((s) => s.pattern.test(body) && !s.pattern.test(originalBody));
    if (!signature) continue;
    // Second proof: a true/false pair, or the same text with the quote balanced answers without the error.
    const boolean = await booleanProof(a, target, param);
    let confirmation: string | undefined;
    if (boolean)
      confirmation = `the boolean pairs \`${boolean.pairs.map((p) => p.join('` / `')).join('`, `')}\` answered like the original when true and differently when false`;
    else if (/['"\\]$/.test(breaker.replace('{v}', ''))) {
      const quote = breaker.slice(-1);
      const balanced = await a.attempt(target, param, `${param.value}${quote}${quote}`);
      if (!SQL_ERRORS.some((s) => s.pattern.test(bodyOf(balanced)))) {
        confirmation = `the same value with the quote doubled (\`${param.value}${quote}${quote}\`) answered without any database error`;
      }
    }
    if (!confirmation) continue;
    const index = body.search(signature.pattern);
    return {
      path,
      detail: `${param.name}, error-based, ${signature.database}`,
      description:
        `${where} is placed in SQL text unescaped: the value \`${value}\` makes the page show a ${signature.database} syntax error, ` +
        `and ${confirmation}. An attacker reads or changes any data the application's database account can reach.`,
      evidence: evidence(a, attempt, index),
    };
  }
  const boolean = await booleanProof(a, target, param);
  if (boolean) {
    const shown = boolean.attempts[1]!;
    return {
      path,
      detail: `${param.name}, boolean-based`,
      description:
        `${where} changes the SQL query's logic: the true conditions \`${boolean.pairs[0]![0]}\` and \`${boolean.pairs[1]![0]}\` answer like the ` +
        `original value and the false ones (\`${boolean.pairs[0]![1]}\`, \`${boolean.pairs[1]![1]}\`) differently (context: ${boolean.context}; ` +
        "`{v}` is the original value, the numbers vary per request). The evidence is the false condition's request and answer.",
      evidence: evidence(a, shown, 0),
    };
  }
  const time = await timeProof(
    a,
    target,
    param,
    SQL_DELAYS.map((d) => d.payload),
  );
  if (time) {
    const database = SQL_DELAYS.find((d) => d.payload === time.template)?.database ?? 'SQL';
    return {
      path,
      detail: `${param.name}, time-based, ${database}`,
      description:
        `${where} runs in a SQL query: \`${time.template}\` delayed the answer by {d} seconds, with {d}=2 and again with {d}=4, while {d}=0 ` +
        `and the original value answered at once (${database} syntax). The evidence shows the ${time.attempt.exchange.response?.elapsedMs.toFixed(0)} ms answer.`,
      evidence: {
        request: time.attempt.exchange.sent,
        response: `${excerpt(a.client, time.attempt.exchange.response!, 0, 200)}\r\n\r\n(answered after ${time.attempt.exchange.response?.elapsedMs.toFixed(0)} ms, with {d}=2)`,
      },
    };
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------
// OS command injection

export async function commandInjection(
  a: WebAssessment,
  target: AttackTarget,
  param: Param,
): Promise<Found | undefined> {
  const { path, where } = place(target, param);
  for (const template of COMMAND_ECHOES) {
    const m = a.marker();
    const n = { a: rand(1000, 9999), b: rand(1000, 9999) };
    const value = fill(template, { v: param.value, m, ...n });
    const attempt = await a.attempt(target, param, value);
    const body = bodyOf(attempt);
    const expected = `${m}${n.a + n.b}`;
    if (!body.includes(expected)) continue;
    // Second proof: another computation (a product) through the same separator.
    const m2 = a.marker();
    const n2 = { a: rand(100, 999), b: rand(100, 999) };
    const confirm = await a.attempt(
      target,
      param,
      fill(template.replace('+', '*'), { v: param.value, m: m2, ...n2 }),
    );
    if (!bodyOf(confirm).includes(`${m2}${n2.a * n2.b}`)) continue;
    return {
      path,
      detail: `${param.name}, output`,
      description:
        `${where} reaches a shell: \`${value}\` made the answer show \`${expected}\` (the shell computed ${n.a}+${n.b}), ` +
        `and a second request computing a product through the same separator showed its result too.`,
      evidence: evidence(a, attempt, body.indexOf(expected)),
    };
  }
  const time = await timeProof(a, target, param, COMMAND_DELAYS);
  if (time) {
    return {
      path,
      detail: `${param.name}, time-based`,
      description:
        `${where} reaches a shell: \`${time.template}\` delayed the answer by {d} seconds with {d}=2 and again with {d}=4, while {d}=0 ` +
        'and the original value answered at once.',
      evidence: {
        request: time.attempt.exchange.sent,
        response: `${excerpt(a.client, time.attempt.exchange.response!, 0, 200)}\r\n\r\n(answered after ${time.attempt.exchange.response?.elapsedMs.toFixed(0)} ms, with {d}=2)`,
      },
    };
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------
// Path traversal and file inclusion

function passwdIn(body: string, base64: boolean): number {
  const direct = body.search(PASSWD_SIGNATURE);
  if (direct >= 0 || !base64) return direct;
  for (const [chunk] of body.matchAll(/[A-Za-z0-9+/]{40,}={0,2}/g)) {
    if (PASSWD_SIGNATURE.test(Buffer.from(chunk, 'base64').toString('latin1'))) return body.indexOf(chunk);
  }
  return -1;
}

export async function pathTraversal(
  a: WebAssessment,
  target: AttackTarget,
  param: Param,
): Promise<Found | undefined> {
  const { path, where } = place(target, param);
  const original = bodyOf(await a.original(target));
  if (PASSWD_SIGNATURE.test(original)) return undefined;
  const hits: Array<{ payload: (typeof TRAVERSAL_PAYLOADS)[number]; attempt: Attempt; index: number }> = [];
  for (const payload of TRAVERSAL_PAYLOADS) {
    const attempt = await a.attempt(target, param, payload.payload);
    const index = passwdIn(bodyOf(attempt), payload.base64 === true);
    if (index < 0) continue;
    hits.push({ payload, attempt, index });
    if (hits.length >= 2) break;
  }
  if (hits.length < 2) return undefined;
  const [first, second] = hits as [(typeof hits)[number], (typeof hits)[number]];
  const php =
    /\.php\b/i.test(target.pathname) || /php/i.test(first.attempt.final?.headers.get('x-powered-by') ?? '');
  const inclusion = hits.some((h) => h.payload.inclusion) || php;
  return {
    path,
    detail: `${param.name}, ${inclusion ? 'file inclusion' : 'path traversal'}`,
    cweIds: [inclusion ? 'CWE-98' : 'CWE-22'],
    description:
      `${where} names a file the server reads${inclusion ? ' (or includes as code)' : ''}: \`${first.payload.payload}\` returned ` +
      `the contents of /etc/passwd, and so did a second, different form (\`${second.payload.payload}\`).`,
    evidence: evidence(a, first.attempt, first.index),
  };
}

// ---------------------------------------------------------------------------------------
// Open redirect

function redirectsOff(a: WebAssessment, attempt: Attempt, m: string): string | undefined {
  const response = attempt.exchange.response;
  if (!response) return undefined;
  const candidates: string[] = [];
  if (response.status >= 300 && response.status < 400 && response.location)
    candidates.push(response.location);
  const refresh = response.headers.get('refresh');
  if (refresh) candidates.push(refresh.replace(/^\s*\d+\s*;\s*url\s*=\s*/i, ''));
  const meta = /<meta[^>]+http-equiv\s*=\s*["']?refresh[^>]*url\s*=\s*([^"'>\s]+)/i.exec(response.body);
  if (meta) candidates.push(meta[1] as string);
  for (const location of candidates) {
    try {
      const url = new URL(location.trim().replace(/\\/g, '/'), `${a.client.origin}/`);
      if (url.hostname === `${m}.${REDIRECT_HOST}`) return location;
    } catch {
      continue;
    }
  }
  return undefined;
}

export async function openRedirect(
  a: WebAssessment,
  target: AttackTarget,
  param: Param,
): Promise<Found | undefined> {
  const { path, where } = place(target, param);
  const probe = await a.probe(target, param);
  const status = probe.attempt.exchange.response?.status ?? 0;
  const plausible =
    (status >= 300 && status < 400) ||
    /url|redirect|next|return|goto|dest|continue|target|link|forward|callback|location|page/i.test(
      param.name,
    ) ||
    /^(https?:|\/|[\w-]+\.(php|html?|aspx?|jsp)\b)/i.test(param.value);
  if (!plausible) return undefined;
  const hits: Array<{ attempt: Attempt; value: string; location: string }> = [];
  for (const template of REDIRECT_PAYLOADS) {
    const m = a.marker();
    const value = fill(template, { m });
    const attempt = await a.attempt(target, param, value, { follow: false });
    const location = redirectsOff(a, attempt, m);
    if (location) hits.push({ attempt, value, location });
    if (hits.length >= 2) break;
  }
  if (hits.length < 2) return undefined;
  const [first, second] = hits as [(typeof hits)[number], (typeof hits)[number]];
  return {
    path,
    detail: param.name,
    description:
      `${where} sends the browser to any site: \`${first.value}\` answered with a redirect to \`${first.location}\` ` +
      `(a \`.invalid\` host of Scanward's that cannot exist), and a second form (\`${second.value}\`) did too. ` +
      'The redirect was not followed.',
    evidence: {
      request: first.attempt.exchange.sent,
      response: a.client.redact(first.attempt.exchange.response!.head),
    },
  };
}

// ---------------------------------------------------------------------------------------
// Server-side template injection

export async function templateInjection(
  a: WebAssessment,
  target: AttackTarget,
  param: Param,
): Promise<Found | undefined> {
  const { path, where } = place(target, param);
  const probe = await a.probe(target, param);
  if (!probe.reflected) return undefined;
  for (const { engine, payload } of TEMPLATE_PAYLOADS) {
    const m = a.marker();
    const n = { a: rand(101, 999), b: rand(101, 999) };
    const value = fill(payload, { v: param.value, m, ...n });
    const attempt = await a.attempt(target, param, value);
    const expected = `${m}${n.a * n.b}`;
    const body = bodyOf(attempt);
    if (!body.includes(expected)) continue;
    const m2 = a.marker();
    const n2 = { a: rand(101, 999), b: rand(101, 999) };
    const confirm = await a.attempt(target, param, fill(payload, { v: param.value, m: m2, ...n2 }));
    if (!bodyOf(confirm).includes(`${m2}${n2.a * n2.b}`)) continue;
    return {
      path,
      detail: `${param.name}, ${engine.split('/')[0]} syntax`,
      description:
        `${where} is evaluated as a server-side template: \`${value}\` came back as \`${expected}\` (${n.a}×${n.b} computed), and a ` +
        `second expression with other numbers was computed too (syntax of ${engine}). Template injection usually leads to running code on the server.`,
      evidence: evidence(a, attempt, body.indexOf(expected)),
    };
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------
// Cross-site scripting

export interface XssResult {
  stored: boolean;
  found: Found;
}

const CONTEXT_NAMES: Record<Exclude<ReflectionContext, 'inert'>, string> = {
  element: 'HTML element content',
  attribute: 'HTML attribute value',
  script: 'script',
};

/**
 * Reflected or stored XSS at one parameter: the probe's marker shows where the value lands
 * (`stored` lists crawled pages, loaded again after the probes, that show it), then for each
 * context a payload must come back as an element that would run it, and a second payload of
 * another form must too.
 */
export async function crossSiteScripting(
  a: WebAssessment,
  target: AttackTarget,
  param: Param,
  stored: Array<{ path: string; body: string }>,
): Promise<XssResult | undefined> {
  const { path, where } = place(target, param);
  const probe = await a.probe(target, param);
  const places: Array<{ page: string | undefined; contexts: Set<ReflectionContext> }> = [];
  // Stored first: a value shown again on a page loaded without it is stored, even when the answer to the submission shows it too.
  for (const page of stored) {
    if (page.body.includes(probe.marker))
      places.push({ page: page.path, contexts: reflectionContexts(page.body, probe.marker) });
  }
  if (probe.reflected && places.length === 0) {
    places.push({ page: undefined, contexts: reflectionContexts(bodyOf(probe.attempt), probe.marker) });
  }
  for (const { page, contexts } of places) {
    for (const context of ['element', 'attribute', 'script'] as const) {
      if (!contexts.has(context)) continue;
      const proofs: Array<{
        attempt: Attempt;
        value: string;
        how: string;
        body: string;
        sent: string;
        head: string;
      }> = [];
      for (const template of XSS_PAYLOADS[context]) {
        const m = a.marker();
        const value = fill(template, { m });
        const attempt = await a.attempt(target, param, value);
        let body = bodyOf(attempt);
        let sent = attempt.exchange.sent;
        let head = attempt.final?.head ?? '';
        if (page !== undefined) {
          const reload = await a.client.send({ method: 'GET', path: page });
          body = reload.response?.body ?? '';
          sent = reload.sent;
          head = reload.response?.head ?? '';
        }
        const how = executesMarker(body, m);
        if (how) proofs.push({ attempt, value, how, body, sent, head });
        if (proofs.length >= 2) break;
      }
      if (proofs.length < 2) continue;
      const [first, second] = proofs as [(typeof proofs)[number], (typeof proofs)[number]];
      const m = /scw[0-9a-f]{10}/.exec(first.value)?.[0] ?? '';
      const index = first.body.indexOf(m);
      const cut = first.body.slice(Math.max(0, index - 300), index + 300);
      const response =
        page === undefined
          ? evidence(a, first.attempt, index).response
          : a.client.redact(`${first.head}\r\n\r\n…${cut}…`);
      return {
        stored: page !== undefined,
        found: {
          path,
          detail: `${param.name}, ${CONTEXT_NAMES[context]}`,
          description:
            `${where} ${page === undefined ? 'is written back into the answer' : `is stored and shown on ${page} (the evidence's answer is GET ${page}, loaded after the submission)`} without escaping, in ` +
            `${CONTEXT_NAMES[context]} context: \`${first.value}\` came back as a ${first.how}, and a second payload of another form ` +
            `(\`${second.value}\`) as a ${second.how}. Any script an attacker supplies runs in the session of whoever opens the page.`,
          evidence: { request: first.attempt.exchange.sent, response },
        },
      };
    }
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------
// CSRF

const STATE_CHANGING_BUTTON =
  /change|update|save|set|transfer|send|add|create|edit|post|buy|order|sign|delete|remove|submit order|apply|confirm|register|upload/i;

/** A hidden field whose value looks random enough to be a token, whatever its name. */
const looksLikeToken = (value: string): boolean =>
  value.length >= 16 && /^[A-Za-z0-9+/=_.:-]+$/.test(value) && /\d/.test(value) && /[A-Za-z]/.test(value);

export async function crossSiteRequestForgery(
  a: WebAssessment,
  target: AttackTarget,
  sessionCookies: Map<string, string | undefined>,
): Promise<Found | undefined> {
  const form = target.form;
  if (!form || sessionCookies.size === 0) return undefined;
  if (
    form.tokens.length > 0 ||
    form.fields.some((f) => f.type === 'hidden' && (TOKEN_NAME.test(f.name) || looksLikeToken(f.value)))
  )
    return undefined;
  const filled = form.fields.filter((f) => !['submit', 'hidden'].includes(f.type));
  if (filled.length === 0) return undefined;
  const passwords = form.fields.filter((f) => f.type === 'password').length;
  const buttons = form.fields
    .filter((f) => f.type === 'submit')
    .map((f) => `${f.name} ${f.value}`)
    .join(' ');
  if (target.method === 'GET' && passwords < 2 && !STATE_CHANGING_BUTTON.test(buttons)) return undefined;
  if (passwords === 1 && /log-?in|sign-?in/i.test(`${buttons} ${form.action}`)) return undefined;
  // SameSite: Strict protects every form, Lax protects POST only.
  const protectedBy = [...sessionCookies.values()].every(
    (s) => s === 'strict' || (s === 'lax' && target.method === 'POST'),
  );
  if (protectedBy) return undefined;
  // Second proof: the form sent as another site would send it is accepted like the original.
  const own = await a.attempt(target, undefined, '');
  const request = buildRequest(target, undefined, '');
  const foreign = await a.client.send({
    ...request,
    headers: { Origin: 'http://scanward-csrf.invalid', Referer: 'http://scanward-csrf.invalid/form.html' },
  });
  const answer = foreign.response;
  if (
    !answer ||
    !own.exchange.response ||
    answer.status >= 400 ||
    answer.status !== own.exchange.response.status
  )
    return undefined;
  if (difference(answer.body, own.exchange.response.body) > 10) return undefined;
  const pathname = target.pathname;
  return {
    path: `${pathname}#form`,
    detail: `${target.method} ${pathname}`,
    description:
      `The form on ${form.page} (${target.method} ${pathname}, fields ${form.fields.map((f) => `\`${f.name}\``).join(', ')}) carries no ` +
      "anti-CSRF token, the session cookie has no SameSite protection for it, and the request sent with another site's `Origin` and " +
      "`Referer` was accepted like the page's own. Any site the signed-in user visits can submit it on their behalf.",
    evidence: { request: foreign.sent, response: excerpt(a.client, answer, 0, 300) },
  };
}
