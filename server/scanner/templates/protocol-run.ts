/**
 * What network (execute-network.ts) and ssl (execute-ssl.ts) templates share when they run:
 * a view of a non-HTTP answer for the HTTP engine's matchers, and the detection a match becomes.
 */
import { renderBytes } from '../net/probe-session.ts';
import { componentUrl, type ServiceIdentification } from '../net/services.ts';
import type { DslValue } from './dsl.ts';
import { redactEvidence, templateDetection } from './execute.ts';
import { ResponseView } from './matchers.ts';
import type { TemplateInfo } from './schema.ts';
import type { Detection } from '../types.ts';

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
