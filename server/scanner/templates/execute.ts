/**
 * Runs loaded templates against one HTTP(S) service and turns matches into detections.
 *
 * - Paths must start with `{{BaseURL}}`/`{{RootURL}}`, which are the service itself
 *   (`scheme://target:port`), so a template can only ever address the scanned service.
 * - Redirects are followed only when the template asks (`redirects: true`), at most 3 hops,
 *   and only to the same scheme, host and port; anything else is judged as the 3xx it is.
 * - A template stops at its first matching request: one detection per template and service.
 * - A template whose every request was answered counts as coverage of its canonical check id
 *   on the port, so a finding it reported before and no longer sees is resolved.
 */
import PQueue from 'p-queue';
import { knowledgeForCheck } from '../../remediation/knowledge/index.ts';
import { tryCvssScore } from '../../scoring/cvss.ts';
import { DEFAULT_VECTOR_BY_SEVERITY, defaultCweFor } from '../../scoring/defaults.ts';
import { renderBytes } from '../net/probe-session.ts';
import { componentUrl, type ServiceIdentification } from '../net/services.ts';
import { urlHost } from '../net/target-address.ts';
import { hostTarget, ServiceConnectError } from '../net/service-connect.ts';
import type { Coverage, Detection, PhaseContext } from '../types.ts';
import { isTlsService } from '../net/http-exchange.ts';
import { sendTemplateRequest, type TemplateResponse } from './http-client.ts';
import { ResponseView } from './matchers.ts';
import { judgeAnswer } from './too-costly.ts';
import type { LoadedTemplate, RequestItem, TemplateInfo } from './schema.ts';

export const TEMPLATE_TOOL = 'nuclei-template';
/** Templates running at once against one service. */
export const TEMPLATE_CONCURRENCY = 8;
/** Connection failures in a row after which the service counts as gone for the rest of the run. */
const MAX_CONSECUTIVE_FAILURES = 5;
const EVIDENCE_BODY_CHARS = 2048;

export interface TemplateTarget {
  /** `{{BaseURL}}`: the service, plus the page path templates run under (none: the service root). */
  baseUrl: string;
  /** `{{RootURL}}`: `scheme://target:port`; every request must stay on it. */
  rootUrl: string;
  /** Host header: the target, with the port unless it is the scheme's default. */
  hostHeader: string;
  variables: Map<string, string>;
}

/**
 * `{{BaseURL}}` and friends for a service: the scan target (name or address) and the port, and
 * for a crawled page (`basePath`, e.g. `/app`) `{{BaseURL}}` with that path, as nuclei sets it
 * for an input URL with a path (`{{RootURL}}` stays the service root).
 */
export function templateTarget(
  target: string,
  service: ServiceIdentification,
  basePath = '',
): TemplateTarget {
  const scheme = isTlsService(service) ? 'https' : 'http';
  const host = urlHost(target);
  const rootUrl = `${scheme}://${host}:${service.port}`;
  const path = basePath.replace(/\/+$/, '');
  const defaultPort = scheme === 'https' ? 443 : 80;
  return {
    baseUrl: `${rootUrl}${path}`,
    rootUrl,
    hostHeader: service.port === defaultPort ? host : `${host}:${service.port}`,
    variables: new Map([
      ['BaseURL', `${rootUrl}${path}`],
      ['RootURL', rootUrl],
      ['Hostname', `${host}:${service.port}`],
      ['Host', host],
      ['Port', String(service.port)],
      ['Scheme', scheme],
      ['Path', path],
    ]),
  };
}

/** Fills the engine's variables in; unknown placeholders were rejected when the template loaded. */
export function substitute(text: string, variables: ReadonlyMap<string, string>): string {
  return text.replace(/\{\{([^{}]*)\}\}/g, (whole, name: string) => variables.get(name.trim()) ?? whole);
}

/** The request target for a substituted path on this service, or undefined when it leaves it. */
export function requestTarget(url: string, baseUrl: string): string | undefined {
  if (!url.startsWith(baseUrl)) return undefined;
  let rest = url.slice(baseUrl.length);
  // `{{BaseURL}}:8080/x` or `{{BaseURL}}.evil/` would name another port or host.
  if (rest !== '' && !/^[/?#]/.test(rest)) return undefined;
  rest = rest.replace(/#.*$/s, '');
  if ([...rest].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return undefined;
  rest = rest.replace(/ /g, '%20');
  if (rest === '') return '/';
  return rest.startsWith('?') ? `/${rest}` : rest;
}

/** Secrets never reach evidence: credentials in URLs and values of secret-looking keys. */
export function redactEvidence(text: string): string {
  return text
    .replace(/(\w+:\/\/)[^\s/@]+@/g, '$1***@')
    .replace(
      /^(\s*(?:export\s+)?["']?[\w.-]*(?:pass|secret|token|key|auth|credential|private|pwd)[\w.-]*["']?\s*[:=]\s*).+$/gim,
      '$1***',
    );
}

function evidence(request: string, response: TemplateResponse): { request: string; response: string } {
  const body = redactEvidence(renderBytes(response.body, EVIDENCE_BODY_CHARS));
  return {
    request: redactEvidence(renderBytes(Buffer.from(request.trimEnd(), 'utf8'))),
    response: `${renderBytes(Buffer.from(response.head, 'latin1'))}\n\n${body}`,
  };
}

/** The canonical check id of a template: the knowledge entry it is an alias of, else its own id. */
export function canonicalCheckId(templateId: string): string {
  return knowledgeForCheck(templateId)?.id ?? templateId;
}

/** The finding category of a template: its knowledge entry's, else read from its tags. */
export function categoryOf(template: Pick<LoadedTemplate, 'id' | 'info'>): string {
  const entry = knowledgeForCheck(template.id);
  if (entry) return entry.category;
  const tags = new Set(template.info.tags.map((t) => t.toLowerCase()));
  if (template.info.cveIds.length > 0 || tags.has('cve')) return 'known-vulnerability';
  if (tags.has('default-login')) return 'default-credentials';
  if (['exposure', 'disclosure', 'config', 'backup', 'logs'].some((t) => tags.has(t)))
    return 'information-disclosure';
  if (['sqli', 'xss', 'rce', 'lfi', 'ssti', 'injection'].some((t) => tags.has(t))) return 'injection';
  if (tags.has('unauth')) return 'unauthenticated-access';
  return template.info.severity === 'info' ? 'informational' : 'misconfiguration';
}

export interface TemplateRun {
  detections: Detection[];
  coverage: Coverage[];
  /** Requests sent (answered or not). */
  requests: number;
  failures: number;
}

/** Runs every template against the service; throws when the service never answered at all. */
export async function runTemplates(
  ctx: PhaseContext,
  service: ServiceIdentification,
  templates: readonly LoadedTemplate[],
  options: { basePath?: string } = {},
): Promise<TemplateRun> {
  const target = hostTarget(ctx, service);
  const where = templateTarget(target, service, options.basePath);
  const run: TemplateRun = { detections: [], coverage: [], requests: 0, failures: 0 };
  let answered = 0;
  let consecutiveFailures = 0;
  let lastError: unknown;

  const send = async (
    item: Pick<RequestItem, 'method' | 'headers' | 'body'>,
    path: string,
  ): Promise<{ request: string; response: TemplateResponse | undefined } | undefined> => {
    if (consecutiveFailures >= MAX_CONSECUTIVE_FAILURES || ctx.signal.aborted) return undefined;
    run.requests++;
    try {
      const result = await sendTemplateRequest(ctx, service, {
        method: item.method,
        target: path,
        host: where.hostHeader,
        headers: item.headers.map(([n, v]) => [n, substitute(v, where.variables)]),
        body: item.body === undefined ? undefined : substitute(item.body, where.variables),
      });
      consecutiveFailures = 0;
      answered++;
      return result;
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      run.failures++;
      lastError = err;
      if (err instanceof ServiceConnectError) consecutiveFailures++;
      return undefined;
    }
  };

  const runOne = async (template: LoadedTemplate): Promise<void> => {
    let complete = true;
    for (const request of template.requests) {
      for (const item of request.items) {
        let path = requestTarget(substitute(item.path, where.variables), where.rootUrl);
        if (!path) continue;
        let exchange = await send(item, path);
        for (let hop = 0; request.redirects && exchange?.response && hop < request.maxRedirects; hop++) {
          const next = sameOriginRedirect(exchange.response, where.rootUrl, path);
          if (!next) break;
          path = next;
          exchange = await send({ method: 'GET', headers: item.headers, body: undefined }, path);
        }
        if (!exchange) {
          complete = false;
          continue;
        }
        if (!exchange.response) continue;
        const view = new ResponseView(exchange.response, template.variables);
        const verdict = await judgeAnswer(ctx, template.id, request, view);
        if (!verdict.decided) complete = false;
        if (verdict.matched) {
          run.detections.push(
            templateDetection(template, service, target, {
              component: `${componentUrl(service)}${path}`,
              evidence: evidence(exchange.request, exchange.response),
            }),
          );
          return pushCoverage();
        }
      }
    }
    if (complete) pushCoverage();
    function pushCoverage(): void {
      run.coverage.push({ target, check_id: canonicalCheckId(template.id), port: service.port });
    }
  };

  const queue = new PQueue({ concurrency: TEMPLATE_CONCURRENCY });
  await Promise.all(templates.map((t) => queue.add(() => runOne(t), { signal: ctx.signal })));
  if (ctx.signal.aborted) throw ctx.signal.reason;
  if (answered === 0 && run.failures > 0) throw lastError;
  return run;
}

/** Where a 3xx leads, when that is the same scheme, host and port; otherwise undefined. */
function sameOriginRedirect(response: TemplateResponse, baseUrl: string, path: string): string | undefined {
  if (response.status < 300 || response.status >= 400) return undefined;
  const location = response.headers.get('location');
  if (!location) return undefined;
  try {
    const next = new URL(location, baseUrl + path);
    if (next.origin !== new URL(baseUrl).origin) return undefined;
    return `${next.pathname}${next.search}`;
  } catch {
    return undefined;
  }
}

/**
 * The detection a template's match on `component` becomes, with `evidence` as given (already
 * redacted). `how` (what matched, for the non-HTTP templates) goes into the description.
 */
export function templateDetection(
  template: { id: string; info: TemplateInfo },
  service: ServiceIdentification,
  target: string,
  match: { component: string; how?: string; evidence: { request: string; response: string } },
): Detection {
  const info = template.info;
  const { component } = match;
  const matched = match.how === undefined ? template.id : `${template.id} (${match.how})`;
  const category = categoryOf(template);
  // Vector and CWE from the template's classification; where it has none, or a vector that does not
  // score (malformed, or no impact on a template above info), the documented defaults
  // (scoring/defaults.ts): the vector of its severity, the CWE of its category.
  const own = tryCvssScore(info.cvssVector);
  const usable = own !== undefined && (own.baseScore > 0 || info.severity === 'info');
  const vector = usable ? info.cvssVector : DEFAULT_VECTOR_BY_SEVERITY[info.severity];
  return {
    check_id: canonicalCheckId(template.id),
    upstream_ids: [template.id],
    title: info.name,
    severity: info.severity,
    cvss_vector: vector,
    target,
    affected_component: component,
    port: service.port,
    tool: TEMPLATE_TOOL,
    category,
    cve_ids: info.cveIds,
    cwe_ids: info.cweIds.length > 0 ? info.cweIds : [defaultCweFor(category)],
    description: `${info.description}\n\nMatched by nuclei template ${matched} on ${component}.`,
    impact: info.impact || `Reported by nuclei template ${template.id} (${info.severity}).`,
    evidence: { ...match.evidence, screenshot_url: null },
  };
}
