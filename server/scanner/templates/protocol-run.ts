/**
 * What network (execute-network.ts) and ssl (execute-ssl.ts) templates share when they run:
 * the run over a service's templates, a view of a non-HTTP answer for the HTTP engine's
 * matchers, and the detection a match becomes.
 */
import PQueue from 'p-queue';
import { renderBytes } from '../net/probe-session.ts';
import { ServiceConnectError } from '../net/service-connect.ts';
import { componentUrl, type ServiceIdentification } from '../net/services.ts';
import { DslTooCostly, type DslValue } from './dsl.ts';
import { canonicalCheckId, redactEvidence, templateDetection } from './execute.ts';
import { ResponseView } from './matchers.ts';
import { judgeAnswer } from './too-costly.ts';
import type { TemplateInfo } from './schema.ts';
import type { Coverage, Detection, PhaseContext } from '../types.ts';

/** Templates running at once against one service. */
const CONCURRENCY = 4;

export interface ProtocolRun {
  detections: Detection[];
  coverage: Coverage[];
  /** Connections made (answered or not). */
  connections: number;
}

/**
 * Runs `templates` against one service, CONCURRENCY at a time. For each template, `attempt`
 * tries its requests in turn and answers the detection one found (undefined: none, or a
 * request it skips); the first detection ends the template. A request that could not reach
 * the service (ServiceConnectError), or an answer too costly to judge (`judge`), leaves the
 * template out of the coverage. Throws the last
 * such error when connections were made (`run.connections`) and none answered (`answered()`).
 */
export async function runProtocolTemplates<T extends { id: string }, R>(
  ctx: PhaseContext,
  run: ProtocolRun,
  scope: { target: string; service: ServiceIdentification },
  templates: readonly T[],
  requestsOf: (template: T) => readonly R[],
  attempt: (template: T, request: R) => Promise<Detection | undefined>,
  answered: () => number,
): Promise<ProtocolRun> {
  const { target, service } = scope;
  let lastError: unknown;

  const runOne = async (template: T): Promise<void> => {
    let complete = true;
    for (const request of requestsOf(template)) {
      let detection: Detection | undefined;
      try {
        detection = await attempt(template, request);
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        // Too costly to judge (already reported): no detection, and no coverage either.
        if (err instanceof DslTooCostly) {
          complete = false;
          continue;
        }
        if (!(err instanceof ServiceConnectError)) throw err;
        lastError = err;
        complete = false;
        continue;
      }
      if (detection) {
        run.detections.push(detection);
        break;
      }
    }
    if (complete) run.coverage.push({ target, check_id: canonicalCheckId(template.id), port: service.port });
  };

  const queue = new PQueue({ concurrency: CONCURRENCY });
  await Promise.all(templates.map((t) => queue.add(() => runOne(t), { signal: ctx.signal })));
  if (ctx.signal.aborted) throw ctx.signal.reason;
  if (answered() === 0 && run.connections > 0) throw lastError;
  return run;
}

/**
 * An answer as matchers read it: `body` (the default part), `all` (everything), and named
 * parts (`header:<name>`: a named input's read, an ssl field); DSL variables are `variables`.
 */
export class RawView extends ResponseView {
  constructor(
    private readonly main: Buffer,
    private readonly everything: string,
    private readonly named: ReadonlyMap<string, DslValue>,
    templateVariables: ReadonlyMap<string, string>,
    private readonly extra: ReadonlyMap<string, DslValue> = new Map(),
  ) {
    super({ status: 0, head: '', headers: new Map(), body: main, truncated: false }, templateVariables);
  }

  override part(part: string): string {
    if (part === 'body') return this.body;
    if (part === 'all') return this.everything;
    if (part.startsWith('header:')) {
      const value = this.named.get(part.slice('header:'.length));
      return value === undefined ? '' : String(value);
    }
    return '';
  }

  override variables(): Map<string, DslValue> {
    const vars = new Map<string, DslValue>(this.extra);
    for (const [name, value] of this.named) vars.set(name, value);
    vars.set('data', this.body);
    vars.set('body', this.body);
    for (const name of ['raw', 'all', 'response']) vars.set(name, this.everything);
    return vars;
  }
}

export function protocolDetection(
  template: { id: string; info: TemplateInfo },
  service: ServiceIdentification,
  target: string,
  proof: { request: string; response: string },
  what: string,
): Detection {
  return templateDetection(template, service, target, {
    component: componentUrl(service),
    how: what,
    evidence: { request: redactEvidence(proof.request), response: redactEvidence(proof.response) },
  });
}

export const renderEvidence = (bytes: Buffer, max = 2048): string => renderBytes(bytes, max);

/**
 * Whether a request block's matchers match `view`; when its DSL was too costly to judge (the
 * template is then reported) and nothing matched, throws DslTooCostly, which leaves the
 * template out of the coverage (runProtocolTemplates).
 */
export async function judge(
  ctx: PhaseContext,
  templateId: string,
  request: Parameters<typeof judgeAnswer>[2],
  view: ResponseView,
): Promise<boolean> {
  const verdict = await judgeAnswer(ctx, templateId, request, view);
  if (!verdict.matched && !verdict.decided) throw view.tooCostly as DslTooCostly;
  return verdict.matched;
}
